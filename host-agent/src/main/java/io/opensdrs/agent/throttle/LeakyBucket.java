package io.opensdrs.agent.throttle;

/**
 * One SLEDS leaky bucket (SLEDS §4.1, Figure 2) in its virtual-scheduling form: instead of a
 * token count refilled by a timer, it keeps the theoretical time {@code tat} at which the
 * bucket will be empty again. Tokens flow in at {@code rate} per second up to a depth of
 * {@code depthSeconds} of the rate, so surpluses do not build up in idle periods. Like the
 * SLEDS implementation, "the supply calculations [are performed] only as needed": an IO costs
 * two comparisons and one multiply-add, with no timer and no allocation.
 *
 * <p>Not thread-safe: {@link StreamThrottle} serializes each stream's IOs.
 */
public final class LeakyBucket {

    private final double nanosPerUnit;
    private final long depthNanos;
    private long tat = Long.MIN_VALUE / 2;

    /**
     * @param rate         units (IOs or bytes) per second, > 0
     * @param depthSeconds bucket depth in seconds of the rate (the burst allowance)
     */
    public LeakyBucket(double rate, double depthSeconds) {
        if (!(rate > 0)) {
            throw new IllegalArgumentException("rate must be > 0: " + rate);
        }
        this.nanosPerUnit = 1e9 / rate;
        this.depthNanos = (long) (Math.max(0, depthSeconds) * 1e9);
    }

    /** Earliest time at which an IO arriving at {@code now} can take its tokens from this bucket. */
    public long earliest(long now) {
        return Math.max(now, tat - depthNanos);
    }

    /** Takes {@code cost} units at {@code releaseAt} (≥ {@link #earliest}). */
    public void consume(long cost, long releaseAt) {
        tat = Math.max(tat, releaseAt) + (long) (cost * nanosPerUnit);
    }
}
