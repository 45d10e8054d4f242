package io.opensdrs.testbed.stats;

import java.util.List;

/** A datastore's totals over one window: the sum of its disks' IO, IO-weighted mean latency, and the highest 90th percentile among its disks. */
public record DatastoreWindow(String datastore, double startMs, double seconds, long ios, double iops,
                              double meanOutstanding, double meanLatencyMs, double worstDiskP90Ms) {

    public static DatastoreWindow of(String datastore, double startMs, double seconds, List<DiskWindow> disks) {
        long ios = 0;
        double latWeighted = 0;
        double oio = 0;
        double p90 = 0;
        for (DiskWindow d : disks) {
            ios += d.ios();
            latWeighted += d.meanLatencyMs() * d.ios();
            oio += d.meanOutstanding();
            p90 = Math.max(p90, d.p90Ms());
        }
        return new DatastoreWindow(datastore, startMs, seconds, ios, seconds > 0 ? ios / seconds : 0, oio,
                ios == 0 ? 0 : latWeighted / ios, p90);
    }
}
