package io.opensdrs.model;

import java.util.Optional;

/**
 * A model's prediction for a datastore: mean latency, the throughput it implies by Little's
 * law (IOPS = O / latency, Pesto Eq. 2), a latency interval when the model has one, and — when
 * the model knows it — how far a predicted <em>change</em> between two of its predictions may be
 * off, relative to the change ({@code relativeChangeError}, NaN when unknown).
 *
 * <p>Why a separate change error: a level's error is mostly common to two nearby loads of one
 * device (a line whose intercept is off is off by the same amount before and after a move), so the
 * difference of two levels is far better known than either. Where a latency is observed now and
 * the model only predicts how it changes, the change's error is the one that applies.
 */
public record Prediction(double latencyMs, double iops, Optional<Interval> latencyInterval, double relativeChangeError) {

    public Prediction {
        latencyInterval = latencyInterval == null ? Optional.empty() : latencyInterval;
        if (relativeChangeError < 0) {
            throw new IllegalArgumentException("relative_change_error must be >= 0 (or NaN), got " + relativeChangeError);
        }
    }

    /** Builds a prediction for {@code oio} outstanding IOs, deriving IOPS by Little's law. */
    public static Prediction of(double oio, double latencyMs, Interval interval) {
        return of(oio, latencyMs, interval, Double.NaN);
    }

    /** As {@link #of(double, double, Interval)} with the model's relative error of a predicted change. */
    public static Prediction of(double oio, double latencyMs, Interval interval, double relativeChangeError) {
        double iops = latencyMs > 0 ? oio / latencyMs * 1000.0 : Double.NaN;
        return new Prediction(latencyMs, iops, Optional.ofNullable(interval), relativeChangeError);
    }
}
