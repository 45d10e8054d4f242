package io.opensdrs.bench;

import io.opensdrs.agent.throttle.StreamGateway;
import io.opensdrs.agent.throttle.StreamKey;
import io.opensdrs.shared.agent.v1.StreamId;
import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * B6: the cost of the throttle's admission decision per IO, in the SLEDS-throt configuration
 * (SLEDS Table 1: every stream throttled with limits in excess of demand, so that full
 * leaky-bucket accounting runs for every IO), and for an unthrottled stream. 1,000 streams
 * are installed; the clock read is part of the measured work, as on the IO path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ThrottleBenchmark {

    private final StreamGateway gateway = new StreamGateway();
    private StreamKey throttled;
    private StreamKey unthrottled;
    private long n;

    @Setup
    public void setUp() {
        ThrottleLimits.Builder limits = ThrottleLimits.newBuilder().setGeneration(1);
        for (int i = 0; i < 1000; i++) {
            limits.addLimits(StreamLimit.newBuilder()
                    .setStream(StreamId.newBuilder().setHost("esx-01").setVm("vm-" + i).setDiskKey(2000))
                    .setReadIops(1e12).setWriteIops(1e12).setReadBytesPerS(1e15).setWriteBytesPerS(1e15).setIops(1e12).setBytesPerS(1e15)
                    .setBurstSeconds(1));
        }
        gateway.apply(limits.build());
        throttled = new StreamKey("esx-01", "vm-500", 2000);
        unthrottled = new StreamKey("esx-01", "vm-other", 2000);
    }

    @Benchmark
    public long admitThrottled() {
        return gateway.admit(throttled, (++n & 3) == 0, 4096, System.nanoTime());
    }

    @Benchmark
    public long admitUnthrottled() {
        return gateway.admit(unthrottled, false, 4096, System.nanoTime());
    }
}
