package io.opensdrs.agent.injector;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the workload injector sends its reads. {@link DirectIoFile} reads a real file with
 * O_DIRECT; an emulated target (the testbed's vSCSI service) implements the same interface.
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

    @Override
    default void close() throws IOException {
    }
}
