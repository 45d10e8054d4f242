package io.opensdrs.model;

import java.util.List;

/**
 * Workloads placed together as one: O adds up (closed loops share the device); Z, R and X are
 * averaged weighted by each workload's O. Pesto's aggregation, and the one BASIL's and the
 * queueing model's callers need when they ask for a single workload.
 */
public final class OioWeightedAggregation {

    private OioWeightedAggregation() {
    }

    public static Workload aggregate(List<Workload> workloads) {
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("nothing to aggregate: no workloads");
        }
        double o = 0;
        double z = 0;
        double r = 0;
        double x = 0;
        for (Workload w : workloads) {
            o += w.outstandingIos();
        }
        for (Workload w : workloads) {
            double weight = o == 0 ? 1.0 / workloads.size() : w.outstandingIos() / o;
            z += weight * w.ioSizeKb();
            r += weight * w.readFraction();
            x += weight * w.randomFraction();
        }
        return new Workload(o, z, Math.min(1, r), Math.min(1, x));
    }
}
