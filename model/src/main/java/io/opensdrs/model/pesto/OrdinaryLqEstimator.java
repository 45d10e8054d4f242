package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/** Pesto's own estimator: ordinary least squares over the injector's OIO levels (Pesto §5.1). */
public final class OrdinaryLqEstimator implements LqEstimator {

    public static final String NAME = "ols";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LineFit fit(double[] outstandingIos, double[] latencyMs) {
        return LineFit.ordinary(outstandingIos, latencyMs);
    }
}
