package io.opensdrs.model.pesto;

/**
 * What Pesto derives from an LQ line L = m·Q + C (latency in ms, Q outstanding IOs).
 *
 * @param slopeMsPerIo m (Pesto Eq. 1)
 * @param interceptMs C (Pesto Eq. 1)
 */
public record PestoQuantities(double slopeMsPerIo, double interceptMs) {

    public PestoQuantities {
        if (!(slopeMsPerIo > 0)) {
            throw new IllegalArgumentException("LQ slope must be > 0 (latency must grow with outstanding IOs), got " + slopeMsPerIo);
        }
    }

    /** Latency at {@code q} outstanding IOs, Pesto Eq. 1. */
    public double latencyMs(double q) {
        return slopeMsPerIo * q + interceptMs;
    }

    /** Throughput at {@code q} outstanding IOs, T = Q/(m·Q + C) (Pesto Eq. 3), in IOPS. */
    public double iops(double q) {
        return q / latencyMs(q) * 1000.0;
    }

    /** Peak throughput T_peak ≈ 1/m (Pesto Eq. 4), in IOPS. */
    public double peakIops() {
        return 1000.0 / slopeMsPerIo;
    }

    /**
     * Latency when the datastore runs at a fraction α of its peak throughput,
     * L_α = C/(1 − α) (Pesto Eq. 9): the congestion threshold for an operating point α. The
     * equation as published: 0 for a line through the origin (C = 0), whose throughput is 1/m at
     * every Q; the balancer's {@code CongestionThresholds} then uses SIOC's default instead.
     */
    public double latencyAtFractionOfPeak(double alpha) {
        requireFraction(alpha);
        return interceptMs / (1 - alpha);
    }

    /** Outstanding IOs that keep latency at or below {@code maxLatencyMs}, Q_max = (L_max − C)/m (Pesto Eq. 12). */
    public double maxOutstandingIos(double maxLatencyMs) {
        return (maxLatencyMs - interceptMs) / slopeMsPerIo;
    }

    /** Outstanding IOs that reach a fraction α of peak, Q_α = α·C/(m·(1 − α)) (Pesto Eq. 13). */
    public double outstandingIosAtFractionOfPeak(double alpha) {
        requireFraction(alpha);
        return alpha * interceptMs / (slopeMsPerIo * (1 - alpha));
    }

    private static void requireFraction(double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha (fraction of peak throughput) must be in (0, 1), got " + alpha);
        }
    }
}
