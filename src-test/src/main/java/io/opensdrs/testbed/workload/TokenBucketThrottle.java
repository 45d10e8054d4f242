package io.opensdrs.testbed.workload;

import io.opensdrs.shared.agent.v1.StreamLimit;

/**
 * A throttle on one stream's IO path (SLEDS §3): token buckets on read and write IOPS and
 * bytes per second, and on IOPS and bytes per second of reads and writes together (the stream's
 * whole rate, which the SLEDS controller limits), each holding {@code burstSeconds} of its rate.
 * An IO that finds a bucket empty waits on the host side until it has refilled — that wait is
 * part of the latency the VM sees. A rate of 0 leaves that dimension unlimited.
 */
public final class TokenBucketThrottle {

    /**
     * One bucket, in the virtual-finish-time form (GCRA): the time (ms) at which it is next
     * empty-equivalent, so that admission is O(1) without a refill timer. A rate of 0 is unlimited.
     */
    private static final class Bucket {
        private final double ratePerS;
        private final double depthMs;
        private double readyAt = Double.NEGATIVE_INFINITY;

        Bucket(double ratePerS, double burstSeconds) {
            this.ratePerS = ratePerS;
            this.depthMs = burstSeconds * 1000.0;
        }

        /** Takes {@code units} (IOs or bytes) at {@code now}; returns when they may pass. */
        double take(double now, double units) {
            if (ratePerS <= 0) {
                return now;
            }
            double costMs = units * 1000.0 / ratePerS;
            double next = Math.max(readyAt, now) + costMs;
            readyAt = next;
            // an idle bucket holds depthMs of credit: IOs pass at once until it is used up
            return Math.max(now, next - Math.max(depthMs, costMs));
        }

        boolean unlimited() {
            return ratePerS <= 0;
        }
    }

    private final Bucket readIops;
    private final Bucket writeIops;
    private final Bucket readBytes;
    private final Bucket writeBytes;
    private final Bucket iops;
    private final Bucket bytes;

    private TokenBucketThrottle(double readIops, double writeIops, double readBytesPerS, double writeBytesPerS, double iops,
                                double bytesPerS, double burstSeconds) {
        double burst = burstSeconds <= 0 ? 1.0 : burstSeconds;
        this.readIops = new Bucket(readIops, burst);
        this.writeIops = new Bucket(writeIops, burst);
        this.readBytes = new Bucket(readBytesPerS, burst);
        this.writeBytes = new Bucket(writeBytesPerS, burst);
        this.iops = new Bucket(iops, burst);
        this.bytes = new Bucket(bytesPerS, burst);
    }

    /** The throttle a stream's limit asks for, the agent's dimensions each a bucket. */
    public static TokenBucketThrottle of(StreamLimit l) {
        double[] rates = {l.getReadIops(), l.getWriteIops(), l.getReadBytesPerS(), l.getWriteBytesPerS(), l.getIops(), l.getBytesPerS(),
                l.getBurstSeconds()};
        for (double r : rates) {
            if (!(r >= 0) || Double.isInfinite(r)) {
                throw new IllegalArgumentException("throttle limits must be finite and >= 0: " + l);
            }
        }
        return new TokenBucketThrottle(rates[0], rates[1], rates[2], rates[3], rates[4], rates[5], rates[6]);
    }

    public static TokenBucketThrottle unlimited() {
        return new TokenBucketThrottle(0, 0, 0, 0, 0, 0, 1);
    }

    public boolean isUnlimited() {
        return readIops.unlimited() && writeIops.unlimited() && readBytes.unlimited() && writeBytes.unlimited() && iops.unlimited()
                && bytes.unlimited();
    }

    /** Reserves an IO of {@code size} bytes at {@code now} (ms); returns when it may enter the device. */
    public double admit(double now, int size, boolean read) {
        double at = Math.max(now, (read ? readIops : writeIops).take(now, 1));
        at = Math.max(at, (read ? readBytes : writeBytes).take(now, size));
        at = Math.max(at, iops.take(now, 1));
        return Math.max(at, bytes.take(now, size));
    }
}
