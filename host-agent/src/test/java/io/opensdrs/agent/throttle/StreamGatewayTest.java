package io.opensdrs.agent.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.opensdrs.shared.agent.v1.StreamId;
import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import org.junit.jupiter.api.Test;

class StreamGatewayTest {

    static final StreamKey VM1 = new StreamKey("esx-1", "vm-1", 2000);

    static ThrottleLimits limits(long generation, double readIops, double readBytes, double writeIops, double burst) {
        return ThrottleLimits.newBuilder().setGeneration(generation).addLimits(StreamLimit.newBuilder()
                .setStream(StreamId.newBuilder().setHost("esx-1").setVm("vm-1").setDiskKey(2000))
                .setReadIops(readIops).setReadBytesPerS(readBytes).setWriteIops(writeIops).setBurstSeconds(burst)).build();
    }

    @Test
    void enforcesTheIopsRateAfterTheBurst() {
        StreamGateway g = new StreamGateway();
        g.apply(limits(1, 1000, 0, 0, 0.01)); // 1000 IOPS, 10 ms burst
        long now = 1_000_000_000L;
        long last = 0;
        for (int i = 0; i < 1000; i++) {
            last = g.admit(VM1, false, 4096, now);
        }
        // 1000 IOs at 1000 IOPS: the last leaves ~1 s later, less the 10 ms burst.
        assertThat((last - now) / 1e6).isBetween(985.0, 1000.0);
    }

    @Test
    void enforcesBytesAndSeparatesReadsFromWrites() {
        StreamGateway g = new StreamGateway();
        g.apply(limits(1, 0, 1 << 20, 0, 0.0001)); // 1 MiB/s reads, writes unlimited
        long now = 0;
        long r = 0;
        for (int i = 0; i < 256; i++) {
            r = g.admit(VM1, false, 4096, now); // 1 MiB of reads
        }
        assertThat(r / 1e6).isBetween(990.0, 1000.0);
        // A write arriving now has no bucket of its own but must not overtake the queued reads.
        assertThat(g.admit(VM1, true, 4096, now)).isEqualTo(r);
    }

    static ThrottleLimits wholeRate(double iops, double bytesPerS, double burst) {
        return ThrottleLimits.newBuilder().setGeneration(1).addLimits(StreamLimit.newBuilder()
                .setStream(StreamId.newBuilder().setHost("esx-1").setVm("vm-1").setDiskKey(2000))
                .setIops(iops).setBytesPerS(bytesPerS).setBurstSeconds(burst)).build();
    }

    /** The time (ms after {@code now}) at which the last of {@code n} IOs, reads and writes in turn, arriving at once is released. */
    static double lastOfMixed(StreamGateway g, int n, long now) {
        long last = 0;
        for (int i = 0; i < n; i++) {
            last = g.admit(VM1, i % 2 == 1, 4096, now);
        }
        return (last - now) / 1e6;
    }

    @Test
    void aWholeRateLimitCountsReadsAndWritesTogether() {
        StreamGateway whole = new StreamGateway();
        whole.apply(wholeRate(1000, 0, 0.01));
        assertThat(lastOfMixed(whole, 1000, 1_000_000_000L)).isBetween(985.0, 1000.0);
        // the same rate on each direction's bucket lets an even mix through at twice the rate
        StreamGateway perDirection = new StreamGateway();
        perDirection.apply(limits(1, 1000, 0, 1000, 0.01));
        assertThat(lastOfMixed(perDirection, 1000, 1_000_000_000L)).isBetween(485.0, 500.0);

        StreamGateway bytes = new StreamGateway();
        bytes.apply(wholeRate(0, 1 << 20, 0.0001)); // 1 MiB/s, reads and writes together
        assertThat(lastOfMixed(bytes, 256, 0)).isBetween(990.0, 1000.0);
        assertThat(bytes.throttled(VM1)).isTrue();
    }

    @Test
    void neverReordersWithinAStream() {
        StreamGateway g = new StreamGateway();
        g.apply(limits(1, 500, 4 << 20, 100, 0.05));
        long prev = Long.MIN_VALUE;
        java.util.Random rnd = new java.util.Random(1);
        long now = 0;
        for (int i = 0; i < 10_000; i++) {
            now += rnd.nextInt(3_000_000);
            long r = g.admit(VM1, rnd.nextBoolean(), 512L << rnd.nextInt(8), now);
            assertThat(r).isGreaterThanOrEqualTo(Math.max(prev, now));
            prev = r;
        }
    }

    @Test
    void unlistedStreamsAreUnthrottledAndOldGenerationsIgnored() {
        StreamGateway g = new StreamGateway();
        assertThat(g.admit(VM1, false, 4096, 42)).isEqualTo(42);
        assertThat(g.apply(limits(5, 10, 0, 0, 0))).isTrue();
        assertThat(g.throttled(VM1)).isTrue();
        assertThat(g.apply(limits(4, 0, 0, 0, 0))).as("older limits ignored").isFalse();
        assertThat(g.throttled(VM1)).isTrue();
        StreamKey other = new StreamKey("esx-1", "vm-2", 2000);
        assertThat(g.admit(other, false, 4096, 42)).isEqualTo(42);
        assertThat(g.apply(ThrottleLimits.newBuilder().setGeneration(6).build())).isTrue();
        assertThat(g.throttled(VM1)).as("not listed any more: unthrottled").isFalse();
    }

    @Test
    void limitsStayInForceWithoutTheServer() {
        StreamGateway g = new StreamGateway();
        g.apply(limits(1, 100, 0, 0, 0.01));
        // No further apply() calls: an hour later the same limits still hold.
        long t = 3_600_000_000_000L;
        long first = g.admit(VM1, false, 4096, t);
        long last = first;
        for (int i = 0; i < 100; i++) {
            last = g.admit(VM1, false, 4096, t);
        }
        assertThat((last - t) / 1e6).isBetween(980.0, 1000.0);
    }
}
