package io.opensdrs.server.vsphere;

import java.time.Instant;
import java.util.List;

/**
 * One entity's question to QueryPerf in the realtime interval (20 s): the given counters on every
 * instance ({@code "*"}), the samples after {@code after} (exclusive; null: as many as
 * {@code maxSamples} allows), at most the newest {@code maxSamples}.
 *
 * @param entityType {@code VirtualMachine} or {@code HostSystem}
 */
public record PerfQuery(String entityType, String entityId, List<Integer> counterKeys, Instant after, int maxSamples) {
    public PerfQuery {
        counterKeys = List.copyOf(counterKeys);
        if (maxSamples < 1) {
            throw new IllegalArgumentException("maxSamples must be >= 1, got " + maxSamples);
        }
    }
}
