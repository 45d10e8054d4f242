package io.opensdrs.agent.throttle;

import io.opensdrs.shared.agent.v1.StreamLimit;

/**
 * The buckets of one throttled stream: IO count and bytes, separately for reads and writes
 * (SLEDS §4.1: "different buckets ... for reads and writes"), and for both together — the
 * stream's whole rate, which is what the SLEDS controller limits (SLEDS §4.2). An IO takes
 * tokens from its direction's buckets and from the whole-rate ones. A dimension whose limit is 0
 * has no bucket. {@link #admit} returns the time at which the IO may be released; release times
 * never decrease in admission order, so the throttle never reorders IOs within a stream
 * (SLEDS §4.1: "The SLEDS IO intercept does not reorder I/Os within a stream").
 */
public final class StreamThrottle {

    /** Bucket depth when the server sends none: 100 ms of the rate. */
    public static final double DEFAULT_BURST_SECONDS = 0.1;

    private final LeakyBucket readIops;
    private final LeakyBucket writeIops;
    private final LeakyBucket readBytes;
    private final LeakyBucket writeBytes;
    private final LeakyBucket iops;
    private final LeakyBucket bytes;
    private long lastRelease;

    public StreamThrottle(StreamLimit limit, long lastRelease) {
        double burst = limit.getBurstSeconds() > 0 ? limit.getBurstSeconds() : DEFAULT_BURST_SECONDS;
        this.readIops = bucket(limit.getReadIops(), burst);
        this.writeIops = bucket(limit.getWriteIops(), burst);
        this.readBytes = bucket(limit.getReadBytesPerS(), burst);
        this.writeBytes = bucket(limit.getWriteBytesPerS(), burst);
        this.iops = bucket(limit.getIops(), burst);
        this.bytes = bucket(limit.getBytesPerS(), burst);
        this.lastRelease = lastRelease;
    }

    private static LeakyBucket bucket(double rate, double burst) {
        return rate > 0 ? new LeakyBucket(rate, burst) : null;
    }

    /** The admission decision: when the IO arriving at {@code now} may go to the device. */
    public synchronized long admit(boolean write, long size, long now) {
        LeakyBucket ops = write ? writeIops : readIops;
        LeakyBucket data = write ? writeBytes : readBytes;
        long release = Math.max(now, lastRelease);
        release = later(release, ops, now);
        release = later(release, data, now);
        release = later(release, iops, now);
        release = later(release, bytes, now);
        take(ops, 1, release);
        take(data, size, release);
        take(iops, 1, release);
        take(bytes, size, release);
        lastRelease = release;
        return release;
    }

    private static long later(long release, LeakyBucket b, long now) {
        return b == null ? release : Math.max(release, b.earliest(now));
    }

    private static void take(LeakyBucket b, long amount, long at) {
        if (b != null) {
            b.consume(amount, at);
        }
    }

    synchronized long lastRelease() {
        return lastRelease;
    }
}
