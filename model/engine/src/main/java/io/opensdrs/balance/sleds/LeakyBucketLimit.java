package io.opensdrs.balance.sleds;

/**
 * The limit a gateway (the host agent) enforces on one stream with a leaky bucket (SLEDS §4.1,
 * SPEC §3.5): tokens for IOs and for bytes refill at these rates; each bucket holds at most
 * {@code burstSeconds} of refill so surpluses do not build up while the stream is idle.
 * Infinite rates mean "not throttled".
 */
public record LeakyBucketLimit(String streamId, double iopsLimit, double bytesPerSecondLimit, double burstSeconds) {

    public static LeakyBucketLimit unthrottled(String streamId) {
        return new LeakyBucketLimit(streamId, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 0.1);
    }

    public boolean throttled() {
        return Double.isFinite(iopsLimit) || Double.isFinite(bytesPerSecondLimit);
    }

    public double bucketIos() {
        return iopsLimit * burstSeconds;
    }

    public double bucketBytes() {
        return bytesPerSecondLimit * burstSeconds;
    }
}
