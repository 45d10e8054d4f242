package io.opensdrs.model;

/**
 * One measurement a model is fitted from: the workload that ran and the mean latency it saw;
 * the throughput is optional ({@link Double#NaN} when the source did not record it).
 */
public record Observation(Workload workload, double latencyMs, double iops) {

    public Observation {
        if (workload == null) {
            throw new IllegalArgumentException("observation needs a workload");
        }
        if (!(latencyMs > 0) || Double.isInfinite(latencyMs)) {
            throw new IllegalArgumentException("latency_ms must be a finite number > 0, got " + latencyMs);
        }
    }

    public Observation(Workload workload, double latencyMs) {
        this(workload, latencyMs, Double.NaN);
    }

    public double outstandingIos() {
        return workload.outstandingIos();
    }

    public boolean hasIops() {
        return !Double.isNaN(iops);
    }
}
