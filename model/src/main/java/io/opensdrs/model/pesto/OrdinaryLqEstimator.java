package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/**
 * Pesto's own estimator: least squares over the injector's OIO levels (Pesto §5.1), with
 * C ≥ 0 ({@link LqEstimator}: C is the service time at zero queue, Eq. 1).
 */
public final class OrdinaryLqEstimator implements LqEstimator {

    public static final String NAME = "ols";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LineFit fit(double[] outstandingIos, double[] latencyMs) {
        return LineFit.ordinaryNonNegativeIntercept(outstandingIos, latencyMs);
    }
}
