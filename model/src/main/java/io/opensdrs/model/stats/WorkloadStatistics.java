package io.opensdrs.model.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The server-side statistics Pesto keeps (§5.2): every 20 s each virtual disk reports its
 * latency, outstanding IOs and IOPS; the server folds each sample into P² trackers for that
 * disk and for the datastore holding it, so percentiles need no stored history.
 */
public final class WorkloadStatistics {

    /** The metrics tracked per disk and per datastore. */
    public enum Metric { LATENCY_MS, OUTSTANDING_IOS, IOPS }

    private final double[] percentiles;
    private final Map<String, Map<Metric, PercentileTracker>> perDisk = new LinkedHashMap<>();
    private final Map<String, Map<Metric, PercentileTracker>> perDatastore = new LinkedHashMap<>();

    public WorkloadStatistics(double... percentiles) {
        this.percentiles = percentiles.length == 0 ? PercentileTracker.PESTO_PERCENTILES : percentiles.clone();
    }

    public void record(String datastore, String disk, double latencyMs, double outstandingIos, double iops) {
        fold(perDisk.computeIfAbsent(disk, k -> trackers()), latencyMs, outstandingIos, iops);
        fold(perDatastore.computeIfAbsent(datastore, k -> trackers()), latencyMs, outstandingIos, iops);
    }

    public Optional<PercentileTracker> disk(String disk, Metric metric) {
        return Optional.ofNullable(perDisk.get(disk)).map(m -> m.get(metric));
    }

    public Optional<PercentileTracker> datastore(String datastore, Metric metric) {
        return Optional.ofNullable(perDatastore.get(datastore)).map(m -> m.get(metric));
    }

    private Map<Metric, PercentileTracker> trackers() {
        Map<Metric, PercentileTracker> m = new LinkedHashMap<>();
        for (Metric metric : Metric.values()) {
            m.put(metric, new PercentileTracker(percentiles));
        }
        return m;
    }

    private static void fold(Map<Metric, PercentileTracker> m, double latencyMs, double oio, double iops) {
        m.get(Metric.LATENCY_MS).add(latencyMs);
        m.get(Metric.OUTSTANDING_IOS).add(oio);
        m.get(Metric.IOPS).add(iops);
    }
}
