package io.opensdrs.agent.injector;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * An in-process device for tests and the agent's {@code --injector dry} mode: one FIFO server
 * with a fixed service time behind a fixed fabric delay, so that latency grows linearly with
 * outstanding IOs (L ≈ service·Q + delay, Pesto Eq. 1). It can also play a thin-provisioned
 * device that returns zeros at once. No file is touched.
 */
public final class SyntheticIoTarget implements IoTarget {

    private final long serviceNanos;
    private final long delayNanos;
    private final boolean zeros;
    private long nextFreeNanos;
    private final java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();

    public SyntheticIoTarget(Duration service, Duration delay, boolean zeros) {
        this.serviceNanos = service.toNanos();
        this.delayNanos = delay.toNanos();
        this.zeros = zeros;
    }

    @Override
    public String describe() {
        return "synthetic device (service " + serviceNanos / 1000 + " µs, delay " + delayNanos / 1000 + " µs)";
    }

    @Override
    public long sizeBytes() {
        return 1L << 30;
    }

    @Override
    public int alignment() {
        return 512;
    }

    @Override
    public ByteBuffer newBuffer(int ioSize) {
        return ByteBuffer.allocate(ioSize);
    }

    /** Reads served so far (what a test of the injector's stopping rules counts). */
    public long reads() {
        return reads.get();
    }

    @Override
    public int read(ByteBuffer buffer, long offset) {
        reads.incrementAndGet();
        int n = buffer.remaining();
        if (zeros) {
            while (buffer.hasRemaining()) {
                buffer.put((byte) 0);
            }
            return n;
        }
        long done;
        synchronized (this) {
            long now = System.nanoTime();
            long start = Math.max(now, nextFreeNanos);
            nextFreeNanos = start + serviceNanos;
            done = nextFreeNanos + delayNanos;
        }
        for (long left = done - System.nanoTime(); left > 0; left = done - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        while (buffer.hasRemaining()) {
            buffer.put((byte) 0x5A);
        }
        return n;
    }
}
