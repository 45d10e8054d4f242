package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/**
 * The acceptance test of an LQ fit on a real device: fit the line over queue depths
 * [minQ, maxQ] and compare the throughput it predicts at a deeper queue, T = Q/(m·Q + C)
 * (Pesto Eq. 3), with what was measured there.
 */
public final class QueueDepthExtrapolation {

    /** One device's outcome; {@code measuredIops} and {@code relativeError} are NaN when the target depth was not measured. */
    public record Outcome(String device, String estimator, LineFit line, double targetQ,
                          double predictedIops, double measuredIops, double relativeError) {

        public boolean scored() {
            return !Double.isNaN(relativeError);
        }
    }

    private QueueDepthExtrapolation() {
    }

    public static Outcome run(LqCurve curve, LqEstimator estimator, double minQ, double maxQ, double targetQ) {
        LqCurve training = curve.between(minQ, maxQ);
        if (training.size() < 2) {
            throw new IllegalArgumentException("device " + curve.device() + " has " + training.size()
                    + " points between --min-qd " + minQ + " and --max-qd " + maxQ + "; a line needs at least 2");
        }
        LineFit line = estimator.fit(training.outstandingIos(), training.latencyMs());
        double predicted = targetQ / line.at(targetQ) * 1000.0;
        int k = curve.indexOf(targetQ);
        double measured = k < 0 ? Double.NaN : curve.iops()[k];
        double error = k < 0 ? Double.NaN : (predicted - measured) / measured;
        return new Outcome(curve.device(), estimator.name(), line, targetQ, predicted, measured, error);
    }
}
