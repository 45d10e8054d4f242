package io.opensdrs.agent.injector;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * A large file in the datastore's directory read with O_DIRECT ({@link ExtendedOpenOption#DIRECT}),
 * so that the injector's reads reach the device instead of the page cache (Pesto §5.1: for NFS
 * "one could create a large file, issue random IOs, and delete the file").
 *
 * <p>The file must hold written, non-zero data: a file made with {@code fallocate} has unwritten
 * extents and random O_DIRECT reads of it return zeros without touching the device (seen on
 * this machine at 350k IOPS against 11k for written data), the thin-provisioning case of Pesto
 * §5.1.2. {@link #prepare} therefore writes every byte once with O_DIRECT.
 */
public final class DirectIoFile implements IoTarget {

    private static final int WRITE_CHUNK = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final int alignment;

    private DirectIoFile(Path path, FileChannel channel, long size, int alignment) {
        this.path = path;
        this.channel = channel;
        this.size = size;
        this.alignment = alignment;
    }

    public static DirectIoFile open(Path path) throws IOException {
        int alignment = (int) Math.max(512, Files.getFileStore(path).getBlockSize());
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
        return new DirectIoFile(path, ch, Files.size(path), alignment);
    }

    /**
     * Makes sure {@code path} is at least {@code size} bytes of written non-zero data, writing
     * it once with O_DIRECT if it is missing, too short, or reads back zeros; reuses it otherwise.
     *
     * @return true if the file was (re)written
     */
    public static boolean prepare(Path path, long size, LongConsumer progressBytes) throws IOException {
        if (Files.exists(path) && Files.size(path) >= size && looksWritten(path)) {
            return false;
        }
        int alignment = (int) Math.max(512, Files.getFileStore(path.toAbsolutePath().getParent()).getBlockSize());
        long rounded = (size + WRITE_CHUNK - 1) / WRITE_CHUNK * WRITE_CHUNK;
        ByteBuffer buf = ByteBuffer.allocateDirect(WRITE_CHUNK + alignment).alignedSlice(alignment);
        buf.limit(WRITE_CHUNK);
        SplittableRandom random = new SplittableRandom(0x5D125L);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, ExtendedOpenOption.DIRECT)) {
            for (long pos = 0; pos < rounded; pos += WRITE_CHUNK) {
                buf.clear().limit(WRITE_CHUNK);
                while (buf.hasRemaining()) {
                    buf.putLong(random.nextLong() | 0x0101010101010101L); // no zero byte anywhere
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    ch.write(buf, pos + buf.position());
                }
                progressBytes.accept(pos + WRITE_CHUNK);
            }
            ch.force(true);
        }
        return true;
    }

    private static boolean looksWritten(Path path) throws IOException {
        try (DirectIoFile f = open(path)) {
            ByteBuffer b = f.newBuffer(f.alignment());
            long blocks = f.size / f.alignment;
            for (int i = 0; i < 8; i++) {
                long off = (blocks - 1) * i / 7 * f.alignment;
                b.clear();
                f.read(b, off);
                if (ThinProvisioningFilter.allZero(b.flip())) {
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public String describe() {
        return "file " + path + " (" + size / (1 << 20) + " MiB, O_DIRECT, alignment " + alignment + ")";
    }

    @Override
    public long sizeBytes() {
        return size;
    }

    @Override
    public int alignment() {
        return alignment;
    }

    @Override
    public ByteBuffer newBuffer(int ioSize) {
        int n = Math.max(ioSize, alignment);
        ByteBuffer b = ByteBuffer.allocateDirect(n + alignment).alignedSlice(alignment);
        b.limit(n);
        return b;
    }

    @Override
    public int read(ByteBuffer buffer, long offset) throws IOException {
        int total = 0;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, offset + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    @Override
    public int write(ByteBuffer buffer, long offset) throws IOException {
        int total = 0;
        while (buffer.hasRemaining()) {
            total += channel.write(buffer, offset + total);
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
