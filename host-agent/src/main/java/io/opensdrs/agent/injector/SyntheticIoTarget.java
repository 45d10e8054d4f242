package io.opensdrs.agent.injector;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.PriorityQueue;

/**
 * An in-process device for tests and the agent's {@code --injector dry} mode: one FIFO server
 * with a fixed service time behind a fixed fabric delay, so that latency grows linearly with
 * outstanding IOs (L ≈ service·Q + delay, Pesto Eq. 1). It can also play a thin-provisioned
 * device whose unallocated reads return zeros after {@link #ZERO_READ}. No file is touched.
 *
 * <p>The device lives in its own simulated time ({@link #nanoTime()}), as the testbed's emulated
 * devices do, so what the injector measures does not depend on how busy the machine running it
 * is. Time advances only when every IO the injector's closed loop owes has arrived: the level's
 * first {@code oio} IOs ({@link #startLevel}), and the next IO of each thread whose read completed
 * before its {@code continueUntilNanos} ({@link #timedRead}), until that thread withdraws the
 * promise ({@link #withdrawPromise}). The clock then jumps to the earliest completion. A device on
 * the wall clock saw Little's law off by 60 % on a loaded machine, as threads waited for a core.
 */
public final class SyntheticIoTarget implements IoTarget {

    /** How long a read of an unallocated thin region takes (a LUN answering from its map). */
    public static final Duration ZERO_READ = Duration.ofNanos(50_000);

    private final long serviceNanos;
    private final long delayNanos;
    private final boolean zeros;
    private final PriorityQueue<Io> inFlight = new PriorityQueue<>();
    private long now;
    private long nextFreeNanos;
    private long sequence;
    /** IOs owed at the current instant: the clock stands still until they have arrived. */
    private int owed;
    private final java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();

    private static final class Io implements Comparable<Io> {
        final long doneNanos;
        final long order;
        final long continueUntilNanos;
        boolean completed;

        Io(long doneNanos, long order, long continueUntilNanos) {
            this.doneNanos = doneNanos;
            this.order = order;
            this.continueUntilNanos = continueUntilNanos;
        }

        @Override
        public int compareTo(Io o) {
            int c = Long.compare(doneNanos, o.doneNanos);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

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
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized long startLevel(int oio) {
        owed = oio;
        return now;
    }

    @Override
    public synchronized void withdrawPromise() {
        if (owed > 0) {
            owed--;
            notifyAll();
        }
    }

    @Override
    public int read(ByteBuffer buffer, long offset) {
        int n = buffer.remaining();
        timedRead(buffer, offset, Long.MIN_VALUE);
        return n;
    }

    /** A write takes the device's one service time, as a read does. */
    @Override
    public Timing timedWrite(ByteBuffer buffer, long offset, long continueUntilNanos) {
        ByteBuffer scratch = ByteBuffer.allocate(buffer.remaining());
        return timedRead(scratch, offset, continueUntilNanos);
    }

    @Override
    public int write(ByteBuffer buffer, long offset) {
        int n = buffer.remaining();
        timedWrite(buffer, offset, Long.MIN_VALUE);
        return n;
    }

    @Override
    public Timing timedRead(ByteBuffer buffer, long offset, long continueUntilNanos) {
        reads.incrementAndGet();
        long arrived;
        Io io;
        synchronized (this) {
            if (owed > 0) {
                owed--;
            }
            arrived = now;
            long done;
            if (zeros) {
                done = now + ZERO_READ.toNanos(); // answered from the LUN's map, beside the queue
            } else {
                long start = Math.max(now, nextFreeNanos);
                nextFreeNanos = start + serviceNanos;
                done = nextFreeNanos + delayNanos;
            }
            io = new Io(done, sequence++, continueUntilNanos);
            inFlight.add(io);
            while (!io.completed) {
                if (owed == 0) {
                    Io next = inFlight.poll();
                    now = Math.max(now, next.doneNanos);
                    next.completed = true;
                    if (next.doneNanos < next.continueUntilNanos) {
                        owed++; // its thread issues again at this instant
                    }
                    notifyAll();
                } else {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted waiting for a synthetic IO", e);
                    }
                }
            }
        }
        byte fill = zeros ? 0 : (byte) 0x5A;
        while (buffer.hasRemaining()) {
            buffer.put(fill);
        }
        return new Timing(io.doneNanos - arrived, io.doneNanos);
    }
}
