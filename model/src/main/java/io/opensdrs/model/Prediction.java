package io.opensdrs.model;

import java.util.Optional;

/**
 * A model's prediction for a datastore: mean latency, the throughput it implies by Little's
 * law (IOPS = O / latency, Pesto Eq. 2), and a latency interval when the model has one.
 */
public record Prediction(double latencyMs, double iops, Optional<Interval> latencyInterval) {

    public Prediction {
        latencyInterval = latencyInterval == null ? Optional.empty() : latencyInterval;
    }

    /** Builds a prediction for {@code oio} outstanding IOs, deriving IOPS by Little's law. */
    public static Prediction of(double oio, double latencyMs, Interval interval) {
        double iops = latencyMs > 0 ? oio / latencyMs * 1000.0 : Double.NaN;
        return new Prediction(latencyMs, iops, Optional.ofNullable(interval));
    }
}
