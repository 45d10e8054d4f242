package io.opensdrs.agent.injector;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the workload injector sends its IOs (reads; a Romano calibration point also writes).
 * {@link DirectIoFile} reads and writes a real file with O_DIRECT; an emulated target (the testbed's vSCSI service) implements the same interface.
 * Implementations must be safe for concurrent {@link #read} calls from many threads, each
 * with its own buffer.
 */
public interface IoTarget extends Closeable {

    /** Human-readable description for logs and results. */
    String describe();

    /** Readable size in bytes; offsets are drawn from [0, size - ioSize]. */
    long sizeBytes();

    /** Offsets, sizes and buffer addresses must be multiples of this. */
    int alignment();

    /** A buffer of {@code ioSize} bytes suitable for {@link #read}. */
    ByteBuffer newBuffer(int ioSize);

    /** Reads {@code buffer.remaining()} bytes at {@code offset}; returns the bytes read. */
    int read(ByteBuffer buffer, long offset) throws IOException;

    /** How long one IO took and when it completed, on this target's clock. */
    record Timing(long latencyNanos, long completedAtNanos) {
    }

    /**
     * This target's clock, in nanoseconds: {@link System#nanoTime()} for a real device; the
     * emulator's simulated time for the testbed's devices, so that latencies, level durations
     * and Little's law (Pesto §5.1.1) are all measured in the time the device lives in.
     */
    default long nanoTime() {
        return System.nanoTime();
    }

    /**
     * The start of an injector level of {@code oio} outstanding IOs, on this target's clock. An
     * emulated target also stops its clock until those first IOs have arrived, so that the level
     * starts with its full queue however long the threads take to get going.
     */
    default long startLevel(int oio) throws IOException {
        return nanoTime();
    }

    /**
     * Reads like {@link #read} and reports the IO's latency and completion time. The caller
     * promises to issue its next IO at once if this one completes before
     * {@code continueUntilNanos} (the injector's closed loop); an emulated target uses the
     * promise to keep the device's queue exactly as deep as the caller's threads.
     */
    default Timing timedRead(ByteBuffer buffer, long offset, long continueUntilNanos) throws IOException {
        long t0 = System.nanoTime();
        read(buffer, offset);
        long t1 = System.nanoTime();
        return new Timing(t1 - t0, t1);
    }

    /**
     * Writes {@code buffer.remaining()} bytes at {@code offset} (a Romano calibration point's writes,
     * only ever to the injector's own file); returns the bytes written. A target that takes no
     * writes says so.
     */
    default int write(ByteBuffer buffer, long offset) throws IOException {
        throw new IOException(describe() + " takes no writes");
    }

    /** Writes like {@link #write}, timed and with the closed-loop promise of {@link #timedRead}. */
    default Timing timedWrite(ByteBuffer buffer, long offset, long continueUntilNanos) throws IOException {
        long t0 = System.nanoTime();
        write(buffer, offset);
        long t1 = System.nanoTime();
        return new Timing(t1 - t0, t1);
    }

    /**
     * Withdraws the promise of one completed {@link #timedRead}: its caller ended its closed loop
     * without the next IO (an emulated target would otherwise hold its clock for that IO).
     */
    default void withdrawPromise() throws IOException {
    }

    @Override
    default void close() throws IOException {
    }
}
