package io.opensdrs.model.pesto;

import java.util.List;

/**
 * Chooses the weight exponent k of {@link AsymptoteWeightedLqEstimator} without looking at
 * the points to be predicted: on every curve, fit on all levels but the highest, predict the
 * IOPS at the highest (e.g. fit QD 2–16, predict QD 32), and keep the k with the lowest mean
 * absolute relative error pooled over all curves. The task mirrors the real one — extrapolate
 * one doubling of queue depth — one step earlier, so the held-out QD-64 points play no part.
 */
public final class OneStepAheadSelection {

    /** Result: the chosen exponent and each candidate's pooled mean absolute error (fraction). */
    public record Choice(double exponent, double[] candidates, double[] meanAbsoluteError) {
    }

    private OneStepAheadSelection() {
    }

    public static Choice choose(List<LqCurve> curves, double[] candidateExponents) {
        if (candidateExponents.length == 0) {
            throw new IllegalArgumentException("give at least one candidate weight exponent");
        }
        double[] error = new double[candidateExponents.length];
        int used = 0;
        for (LqCurve curve : curves) {
            if (curve.size() < 3) {
                continue;
            }
            used++;
            int last = curve.size() - 1;
            LqCurve training = curve.between(Double.NEGATIVE_INFINITY, curve.outstandingIos()[last - 1]);
            double q = curve.outstandingIos()[last];
            for (int c = 0; c < candidateExponents.length; c++) {
                var line = new AsymptoteWeightedLqEstimator(candidateExponents[c])
                        .fit(training.outstandingIos(), training.latencyMs());
                double predicted = q / line.at(q) * 1000.0;
                error[c] += Math.abs(predicted - curve.iops()[last]) / curve.iops()[last];
            }
        }
        if (used == 0) {
            throw new IllegalArgumentException("one-step-ahead selection needs curves with at least 3 points");
        }
        int best = 0;
        for (int c = 0; c < error.length; c++) {
            error[c] /= used;
            if (error[c] < error[best]) {
                best = c;
            }
        }
        return new Choice(candidateExponents[best], candidateExponents.clone(), error);
    }
}
