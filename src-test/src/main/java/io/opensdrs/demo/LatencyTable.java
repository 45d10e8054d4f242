package io.opensdrs.demo;

import io.opensdrs.loop.MeasuredLatency.DatastoreLatency;
import io.opensdrs.scenario.DatastoreClusterSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's per-datastore table: one column group (p50, p90, disks) per measurement — before
 * Storage DRS, then after each run — so that the table printed after run N shows how every
 * datastore got there; then each cluster's worst p90 per measurement against the IO latency
 * threshold. A datastore without IO in a span reads "idle".
 */
final class LatencyTable {

    private LatencyTable() {
    }

    /**
     * @param labels one per measurement ("before", "after run 1", …)
     * @param measurements in the same order; every one has the same datastores
     * @param clusters the world's datastore clusters
     * @param thresholdMs SDRS's IO latency threshold on p90 (15 ms by default)
     */
    static String render(List<String> labels, List<Map<String, DatastoreLatency>> measurements, List<DatastoreClusterSpec> clusters,
                         double thresholdMs) {
        StringBuilder b = new StringBuilder();
        b.append("Per-datastore latency measured by the testbed (p50/p90 in ms, IO-weighted over each datastore's disks)\n");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-14s", ""));
        StringBuilder cols = new StringBuilder(String.format(Locale.ROOT, "%-14s", "datastore"));
        for (String label : labels) {
            head.append(String.format(Locale.ROOT, " | %-21s", label));
            cols.append(String.format(Locale.ROOT, " | %7s %7s %5s", "p50", "p90", "disks"));
        }
        b.append(head.toString().stripTrailing()).append('\n').append(cols).append('\n');
        for (String ds : measurements.get(0).keySet()) {
            b.append(String.format(Locale.ROOT, "%-14s", ds));
            for (Map<String, DatastoreLatency> m : measurements) {
                DatastoreLatency d = m.get(ds);
                b.append(String.format(Locale.ROOT, " | %7s %7s %5d", ms(d, d.p50Ms()), ms(d, d.p90Ms()), d.disks()));
            }
            b.append('\n');
        }
        for (DatastoreClusterSpec c : clusters) {
            List<String> worst = new ArrayList<>();
            for (Map<String, DatastoreLatency> m : measurements) {
                double w = worstP90(m, c);
                worst.add(Double.isNaN(w) ? "idle" : String.format(Locale.ROOT, "%.2f", w));
            }
            double last = worstP90(measurements.get(measurements.size() - 1), c);
            b.append(String.format(Locale.ROOT, "cluster %s: worst p90 %s ms (%s the %.0f ms threshold %s)%n", c.name(),
                    String.join(" → ", worst), last <= thresholdMs ? "under" : "over", thresholdMs,
                    labels.get(labels.size() - 1)));
        }
        return b.toString();
    }

    /** The cluster's worst datastore p90 among datastores that did IO; NaN when none did. */
    static double worstP90(Map<String, DatastoreLatency> m, DatastoreClusterSpec c) {
        return c.datastores().stream().map(m::get).filter(d -> d != null && d.ios() > 0).mapToDouble(DatastoreLatency::p90Ms)
                .max().orElse(Double.NaN);
    }

    private static String ms(DatastoreLatency d, double v) {
        return d.ios() == 0 || Double.isNaN(v) ? "idle" : String.format(Locale.ROOT, "%.2f", v);
    }
}
