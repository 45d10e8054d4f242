package io.opensdrs.balance;

import java.util.Set;

/** An ESX host and the datastores it is connected to (host connectivity is a hard constraint). */
public record HostState(String id, Set<String> datastores) {

    public HostState {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("host id must not be blank");
        }
        datastores = Set.copyOf(datastores);
    }
}
