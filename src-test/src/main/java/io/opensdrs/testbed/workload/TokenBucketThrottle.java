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
    private final double readIops;
    private final double writeIops;
    private final double readBytesPerS;
    private final double writeBytesPerS;
    private final double iops;
    private final double bytesPerS;
    private final double burstSeconds;
    // Time (ms) at which each bucket is next empty-equivalent: a virtual-finish-time form of
    // the token bucket, so that admission is O(1) without a refill timer.
    private double readIoReadyAt = Double.NEGATIVE_INFINITY;
    private double writeIoReadyAt = Double.NEGATIVE_INFINITY;
    private double readByteReadyAt = Double.NEGATIVE_INFINITY;
    private double writeByteReadyAt = Double.NEGATIVE_INFINITY;
    private double ioReadyAt = Double.NEGATIVE_INFINITY;
    private double byteReadyAt = Double.NEGATIVE_INFINITY;

    private TokenBucketThrottle(double readIops, double writeIops, double readBytesPerS, double writeBytesPerS, double iops,
                                double bytesPerS, double burstSeconds) {
        this.readIops = readIops;
        this.writeIops = writeIops;
        this.readBytesPerS = readBytesPerS;
        this.writeBytesPerS = writeBytesPerS;
        this.iops = iops;
        this.bytesPerS = bytesPerS;
        this.burstSeconds = burstSeconds <= 0 ? 1.0 : burstSeconds;
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
        return readIops == 0 && writeIops == 0 && readBytesPerS == 0 && writeBytesPerS == 0 && iops == 0 && bytesPerS == 0;
    }

    /** Reserves an IO of {@code bytes} at {@code now} (ms); returns when it may enter the device. */
    public double admit(double now, int bytes, boolean read) {
        double at = now;
        if (read) {
            if (readIops > 0) {
                double[] r = take(readIoReadyAt, now, 1000.0 / readIops);
                readIoReadyAt = r[1];
                at = Math.max(at, r[0]);
            }
            if (readBytesPerS > 0) {
                double[] r = take(readByteReadyAt, now, bytes * 1000.0 / readBytesPerS);
                readByteReadyAt = r[1];
                at = Math.max(at, r[0]);
            }
        } else {
            if (writeIops > 0) {
                double[] r = take(writeIoReadyAt, now, 1000.0 / writeIops);
                writeIoReadyAt = r[1];
                at = Math.max(at, r[0]);
            }
            if (writeBytesPerS > 0) {
                double[] r = take(writeByteReadyAt, now, bytes * 1000.0 / writeBytesPerS);
                writeByteReadyAt = r[1];
                at = Math.max(at, r[0]);
            }
        }
        if (iops > 0) {
            double[] r = take(ioReadyAt, now, 1000.0 / iops);
            ioReadyAt = r[1];
            at = Math.max(at, r[0]);
        }
        if (bytesPerS > 0) {
            double[] r = take(byteReadyAt, now, bytes * 1000.0 / bytesPerS);
            byteReadyAt = r[1];
            at = Math.max(at, r[0]);
        }
        return at;
    }

    /** GCRA: a bucket of depth burstSeconds; returns {admission time, new bucket time}. */
    private double[] take(double bucketAt, double now, double costMs) {
        double depthMs = burstSeconds * 1000.0;
        double tat = Math.max(bucketAt, now);
        double next = tat + costMs;
        // An idle bucket holds depthMs of credit: IOs pass at once until it is used up.
        double admitAt = Math.max(now, next - Math.max(depthMs, costMs));
        return new double[]{admitAt, next};
    }
}
