package io.opensdrs.server.vsphere;

import java.time.Instant;
import java.util.List;

/**
 * What QueryPerf answered for one entity: the samples' timestamps (the end of each 20-s
 * interval, oldest first) and, per counter and instance, one value per timestamp. vCenter
 * reports a value it lacks as -1.
 */
public record PerfSamples(String entityType, String entityId, List<Instant> timestamps, List<Series> series) {
    public PerfSamples {
        timestamps = List.copyOf(timestamps);
        series = List.copyOf(series);
    }

    /**
     * @param values  one per timestamp; meaningful only when {@code problem} is null
     * @param problem why the series could not be read (a value that is not an integer, a count of values
     *                other than the timestamps'), null when it could
     */
    public record Series(int counterKey, String instance, long[] values, String problem) {
    }
}
