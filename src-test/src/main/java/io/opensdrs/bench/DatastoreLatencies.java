package io.opensdrs.bench;

import java.util.Map;

/**
 * The steady-state mean latency of each datastore of the world (ms, IO-weighted over its disks;
 * a datastore without IO at its idle latency), and the per-IO mean over the whole cluster — what
 * B2 compares before and after.
 */
public record DatastoreLatencies(Map<String, Double> byDatastore, double perIoMeanMs) {

    public DatastoreLatencies {
        byDatastore = Map.copyOf(byDatastore);
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
}
