package io.opensdrs.bench;

import java.util.Map;

/**
 * The steady-state mean latency of each datastore of the world (ms, IO-weighted over its disks;
 * a datastore without IO at its idle latency), each datastore's p90 (its disks' 90th
 * percentiles weighted by their IOs, what the cluster state gives a strategy to compare with
 * SDRS's IO latency threshold; idle latency without IO), and the per-IO mean over the whole
 * cluster — what B2 compares before and after.
 */
public record DatastoreLatencies(Map<String, Double> byDatastore, Map<String, Double> p90ByDatastore, double perIoMeanMs) {

    public DatastoreLatencies {
        byDatastore = Map.copyOf(byDatastore);
        p90ByDatastore = Map.copyOf(p90ByDatastore);
    }

    public double mean() {
        return byDatastore.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    public double max() {
        return byDatastore.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    /** Population variance of the datastore latencies (ms²). */
    public double variance() {
        double m = mean();
        return byDatastore.values().stream().mapToDouble(v -> (v - m) * (v - m)).average().orElse(0);
    }

    /** The worst datastore's p90 (ms): what SDRS's IO latency threshold reads. */
    public double worstP90() {
        return p90ByDatastore.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    /** B2's tolerance: a world is worse when a figure rose by more than this share (2 %). */
    public static final double WORSE_TOLERANCE = 0.02;

    /**
     * Whether {@code after} is worse than {@code before} by B2's definition: the per-IO latency or
     * the worst datastore's p90 rose by more than {@link #WORSE_TOLERANCE}.
     */
    public static boolean worse(DatastoreLatencies before, DatastoreLatencies after) {
        return after.perIoMeanMs() > before.perIoMeanMs() * (1 + WORSE_TOLERANCE)
                || after.worstP90() > before.worstP90() * (1 + WORSE_TOLERANCE);
    }
}
