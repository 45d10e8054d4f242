package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/**
 * A way of drawing Pesto's LQ line L = m·Q + C (Eq. 1) through (outstanding IOs, latency) points.
 *
 * <p>Every estimator keeps C ≥ 0: C is the latency at zero queue, the device's service time,
 * never negative. A line with C &lt; 0 has no physical meaning and makes every quantity Pesto
 * derives from C wrong in sign: the congestion threshold L_α = C/(1 − α) (Eq. 9) and Q_α (Eq. 13)
 * become negative. Latency that grows faster than linearly over the injector's levels tilts an
 * unconstrained line into a negative C. The estimators therefore fit by least squares under C ≥ 0
 * ({@link LineFit#ordinaryNonNegativeIntercept}, {@link LineFit#weightedNonNegativeIntercept}):
 * where the free fit's C is negative, the line through the origin that fits best.
 */
public interface LqEstimator {

    /** Short name for CLI options and reports. */
    String name();

    /** The line, with intercept ≥ 0. */
    LineFit fit(double[] outstandingIos, double[] latencyMs);
}
