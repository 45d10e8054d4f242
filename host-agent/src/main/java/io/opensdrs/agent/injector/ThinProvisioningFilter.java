package io.opensdrs.agent.injector;

import java.nio.ByteBuffer;

/**
 * Pesto §5.1.2: a thin-provisioned device returns zero-filled data for unallocated blocks very
 * quickly, which would make the slope far too low. An IO faster than 1 ms whose data is all
 * zeros is removed from the measurements; if more than 80 % of the IOs are removed the run is
 * invalid and no slope is computed.
 */
public final class ThinProvisioningFilter {

    public static final long DEFAULT_FAST_NANOS = 1_000_000L;
    public static final double DEFAULT_MAX_DROPPED_SHARE = 0.8;

    private final long fastNanos;
    private final double maxDroppedShare;

    public ThinProvisioningFilter() {
        this(DEFAULT_FAST_NANOS, DEFAULT_MAX_DROPPED_SHARE);
    }

    public ThinProvisioningFilter(long fastNanos, double maxDroppedShare) {
        this.fastNanos = fastNanos;
        this.maxDroppedShare = maxDroppedShare;
    }

    /** True if the IO is to be dropped: fast, and its data (position..limit) all zeros. */
    public boolean drop(long latencyNanos, ByteBuffer data) {
        return latencyNanos < fastNanos && allZero(data);
    }

    /** True if too many IOs were dropped for the run to be valid. */
    public boolean invalid(long dropped, long total) {
        return total > 0 && (double) dropped / total > maxDroppedShare;
    }

    static boolean allZero(ByteBuffer data) {
        int p = data.position();
        int end = data.limit();
        for (; p + 8 <= end; p += 8) {
            if (data.getLong(p) != 0) {
                return false;
            }
        }
        for (; p < end; p++) {
            if (data.get(p) != 0) {
                return false;
            }
        }
        return true;
    }
}
