package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/** A way of drawing Pesto's LQ line (Eq. 1) through (outstanding IOs, latency) points. */
public interface LqEstimator {

    /** Short name for CLI options and reports. */
    String name();

    LineFit fit(double[] outstandingIos, double[] latencyMs);
}
