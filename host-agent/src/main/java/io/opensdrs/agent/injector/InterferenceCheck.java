package io.opensdrs.agent.injector;

/**
 * Pesto §5.1.1: during a run, the outstanding IOs implied by Little's law (IO rate × latency)
 * are compared with those the injector keeps. A discrepancy above 30 % means another workload
 * became active: the run is aborted and retried later. A smaller one is corrected by using the
 * measured value as Q in the fit.
 */
public final class InterferenceCheck {

    public static final double DEFAULT_MAX_DISCREPANCY = 0.30;

    private final double maxDiscrepancy;

    public InterferenceCheck() {
        this(DEFAULT_MAX_DISCREPANCY);
    }

    public InterferenceCheck(double maxDiscrepancy) {
        this.maxDiscrepancy = maxDiscrepancy;
    }

    /** Little's law: outstanding IOs = IO rate (per second) × mean latency (seconds). */
    public static double littlesLawOio(double iosPerSecond, double meanLatencyMs) {
        return iosPerSecond * meanLatencyMs / 1000.0;
    }

    /** |measured − target| / target. */
    public static double discrepancy(double targetOio, double measuredOio) {
        return Math.abs(measuredOio - targetOio) / targetOio;
    }

    public boolean aborts(double targetOio, double measuredOio) {
        return discrepancy(targetOio, measuredOio) > maxDiscrepancy;
    }
}
