package io.opensdrs.scenario;

import java.util.List;

/** A datastore cluster (a vSphere StoragePod) and the datastores it groups. */
public record DatastoreClusterSpec(String name, List<String> datastores) {
    public DatastoreClusterSpec {
        datastores = List.copyOf(datastores);
    }
}
