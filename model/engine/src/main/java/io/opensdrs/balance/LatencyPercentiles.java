package io.opensdrs.balance;

/**
 * Observed datastore latency percentiles in ms, the values Pesto's cost-benefit works on
 * (Pesto §5.4: 50th, 70th and 90th; SDRS compares the 90th with its IO latency threshold).
 */
public record LatencyPercentiles(double p50Ms, double p70Ms, double p90Ms) {

    public LatencyPercentiles {
        if (!(p50Ms >= 0 && p70Ms >= p50Ms && p90Ms >= p70Ms) || Double.isInfinite(p90Ms)) {
            throw new IllegalArgumentException("latency percentiles must be finite with 0 <= p50 <= p70 <= p90, got "
                    + p50Ms + ", " + p70Ms + ", " + p90Ms);
        }
    }

    public double[] toArray() {
        return new double[] {p50Ms, p70Ms, p90Ms};
    }
}
