package io.opensdrs.scenario;

import java.util.List;

/** An ESX host and the datastores it can see. */
public record HostSpec(String name, List<String> datastores) {
    public HostSpec {
        datastores = List.copyOf(datastores);
    }

    public boolean sees(String datastore) {
        return datastores.contains(datastore);
    }
}
