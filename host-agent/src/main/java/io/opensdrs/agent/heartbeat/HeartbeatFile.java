package io.opensdrs.agent.heartbeat;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared heartbeat file of one datastore: {@code maxBlocks} slots of
 * {@link HeartbeatBlock#SIZE} bytes, slot {@code i} at offset {@code i * 512} (Pesto §5.1.1).
 *
 * <p>Every write is one positional write of exactly 512 bytes from a 512-aligned direct buffer
 * on a channel opened with {@code DSYNC}, so the block is on stable storage when the write
 * returns and, on every file system we know of, a concurrent reader sees either the old or the
 * new block. Readers do not rely on that: {@link HeartbeatBlock#decode} rejects any block whose
 * checksum does not match. The file is never truncated (a host that truncated it would erase
 * the others' blocks); slots beyond its end read as empty. No advisory locks are used: they do
 * not hold across NFS clients, and the claim protocol in {@link LeaderElection} does not need
 * them.
 *
 * <p>Reads are ordinary positional reads. On a local or clustered file system they see the
 * last completed write; an NFS mount must not cache the file's data (mount with {@code noac},
 * or "actimeo=0"), as for any file used for cross-host liveness.
 */
public final class HeartbeatFile implements Closeable {

    /** File name in the datastore's directory. */
    public static final String FILE_NAME = ".sdrs-heartbeat";

    private final Path path;
    private final int maxBlocks;
    private final FileChannel channel;
    private final ByteBuffer writeBuffer;

    private HeartbeatFile(Path path, int maxBlocks, FileChannel channel) {
        this.path = path;
        this.maxBlocks = maxBlocks;
        this.channel = channel;
        this.writeBuffer = ByteBuffer.allocateDirect(HeartbeatBlock.SIZE * 2).alignedSlice(HeartbeatBlock.SIZE);
        this.writeBuffer.limit(HeartbeatBlock.SIZE);
    }

    /** Opens (creating if needed, never truncating) the heartbeat file in {@code datastoreDir}. */
    public static HeartbeatFile open(Path datastoreDir, int maxBlocks) throws IOException {
        return openFile(datastoreDir.resolve(FILE_NAME), maxBlocks);
    }

    public static HeartbeatFile openFile(Path file, int maxBlocks) throws IOException {
        if (maxBlocks < 1 || maxBlocks > 4096) {
            throw new IllegalArgumentException("maxBlocks must be 1..4096: " + maxBlocks);
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.DSYNC);
        return new HeartbeatFile(file, maxBlocks, ch);
    }

    public Path path() {
        return path;
    }

    public int maxBlocks() {
        return maxBlocks;
    }

    /** Writes {@code block} into slot {@code index} with one aligned 512-byte synchronous write. */
    public synchronized void write(int index, HeartbeatBlock block) throws IOException {
        writeRaw(index, block.toBytes());
    }

    /** Writes raw bytes into a slot; used by tests that simulate garbled or torn blocks. */
    public synchronized void writeRaw(int index, byte[] bytes) throws IOException {
        checkIndex(index);
        if (bytes.length != HeartbeatBlock.SIZE) {
            throw new IllegalArgumentException("a block is " + HeartbeatBlock.SIZE + " bytes");
        }
        writeBuffer.clear().limit(HeartbeatBlock.SIZE);
        writeBuffer.put(bytes).flip();
        long pos = (long) index * HeartbeatBlock.SIZE;
        int written = channel.write(writeBuffer, pos);
        if (written != HeartbeatBlock.SIZE) {
            // A short write leaves a block that fails its checksum; finish it so it heals.
            while (writeBuffer.hasRemaining()) {
                channel.write(writeBuffer, pos + writeBuffer.position());
            }
        }
    }

    /** Reads and decodes every slot with one read of the whole file. */
    public List<HeartbeatBlock.Decoded> readAll() throws IOException {
        byte[] all = readBytes(0, maxBlocks);
        List<HeartbeatBlock.Decoded> out = new ArrayList<>(maxBlocks);
        for (int i = 0; i < maxBlocks; i++) {
            out.add(HeartbeatBlock.decode(all, i * HeartbeatBlock.SIZE));
        }
        return out;
    }

    /** Reads and decodes one slot (the fencing re-read before a leader action). */
    public HeartbeatBlock.Decoded read(int index) throws IOException {
        checkIndex(index);
        return HeartbeatBlock.decode(readBytes(index, 1), 0);
    }

    private byte[] readBytes(int firstBlock, int blocks) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(blocks * HeartbeatBlock.SIZE);
        long pos = (long) firstBlock * HeartbeatBlock.SIZE;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, pos + buf.position());
            if (n < 0) {
                break; // past the end of the file: the rest stays zero, i.e. empty slots
            }
        }
        return buf.array();
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= maxBlocks) {
            throw new IndexOutOfBoundsException("block " + index + " of " + maxBlocks);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
