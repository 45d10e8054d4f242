package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/**
 * Weighted least squares with weight Q^k on the point at Q outstanding IOs.
 *
 * <p>Why: Pesto reads peak throughput off the slope (Eq. 4), i.e. it treats the LQ line as
 * the asymptote of the latency curve. Operational analysis says a closed system's response
 * time only approaches its asymptote R(N) → N·D_max above the knee; below it (low Q, where
 * an SSD's internal parallelism is still idle) latency is flat and not on the line. Equal
 * weights let those flat points tilt the line and overstate the peak by 20 % or more on SSDs.
 * Weights growing with Q let the points nearest the asymptote decide the slope while every
 * level still contributes, so a single noisy level cannot swing the fit the way a line
 * through the last two points would. k = 0 is ordinary least squares. Like every estimator it
 * keeps C ≥ 0 ({@link LqEstimator}).
 */
public final class AsymptoteWeightedLqEstimator implements LqEstimator {

    public static final String NAME = "wls";

    private final double exponent;

    public AsymptoteWeightedLqEstimator(double exponent) {
        if (!(exponent >= 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("weight exponent (--weight-exponent) must be >= 0, got " + exponent);
        }
        this.exponent = exponent;
    }

    public double exponent() {
        return exponent;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LineFit fit(double[] outstandingIos, double[] latencyMs) {
        double[] w = new double[outstandingIos.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = Math.pow(outstandingIos[i], exponent);
        }
        return LineFit.weightedNonNegativeIntercept(outstandingIos, latencyMs, w);
    }
}
