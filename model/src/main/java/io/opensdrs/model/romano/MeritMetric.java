package io.opensdrs.model.romano;

/**
 * Romano's load-balancing merit M = (Σ_i P_i^α)^(1/α) (Romano Eq. 25): an L_α norm of the
 * datastores' latencies, so it falls with total latency and, for large α, is dominated by
 * the worst datastore. Romano uses α = 5.
 */
public final class MeritMetric {

    public static final double ROMANO_ALPHA = 5;

    private final double alpha;

    public MeritMetric(double alpha) {
        if (!(alpha >= 1)) {
            throw new IllegalArgumentException("merit alpha must be >= 1, got " + alpha);
        }
        this.alpha = alpha;
    }

    public static MeritMetric romano() {
        return new MeritMetric(ROMANO_ALPHA);
    }

    public double of(double... latenciesMs) {
        double sum = 0;
        for (double p : latenciesMs) {
            if (p < 0) {
                throw new IllegalArgumentException("latency must be >= 0, got " + p);
            }
            sum += Math.pow(p, alpha);
        }
        return Math.pow(sum, 1 / alpha);
    }
}
