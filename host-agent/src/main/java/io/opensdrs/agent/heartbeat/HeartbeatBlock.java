package io.opensdrs.agent.heartbeat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * One 512-byte block of a datastore's heartbeat file (Pesto §5.1.1: "each host is assigned a
 * single 512-byte block to deposit its statistics"), and its codec.
 *
 * <p>Byte layout (little-endian):
 * <pre>
 * offset size field
 *      0    4 magic              0x42484453 ("SDHB" in file order)
 *      4    2 version            1
 *      6    2 flags              bit 0: RELEASED (the owner left cleanly; the block is free)
 *      8    8 generation         fencing generation, +1 on every claim of this block
 *     16    8 heartbeat          counter, +1 on every write by the owner
 *     24    8 timestampMs        writer's wall clock (informational; liveness never uses it)
 *     32    8 incarnation        random per agent process, tells two runs of one host apart
 *     40    4 periodMs           the writer's heartbeat period
 *     44    2 hostIdLength       bytes of hostId used (≤ 64)
 *     46    2 reserved           0
 *     48   64 hostId             UTF-8, zero padded
 *    112    8 ioCount            this host's IOs to the datastore in the last period
 *    120    8 outstandingIos     mean outstanding IOs in the last period (IEEE double)
 *    128    8 meanLatencyMs      mean IO latency in the last period (IEEE double)
 *    136  372 reserved           0
 *    508    4 checksum           CRC32C of bytes 0..507
 * </pre>
 *
 * <p>A block is written with one 512-byte write, but a reader must not trust that the device
 * or the network file system made it atomic: {@link #decode} accepts a block only if magic,
 * version and checksum all match, so a block whose first half is new and second half old (a
 * crash in the middle of the write) is rejected as {@link Decoded#invalid()}.
 */
public record HeartbeatBlock(
        String hostId,
        long generation,
        long heartbeat,
        long timestampMs,
        long incarnation,
        int periodMs,
        boolean released,
        long ioCount,
        double outstandingIos,
        double meanLatencyMs) {

    public static final int SIZE = 512;
    public static final int MAGIC = 0x42484453;
    public static final short VERSION = 1;
    public static final int MAX_HOST_ID_BYTES = 64;
    static final int CHECKSUM_OFFSET = SIZE - 4;
    private static final int FLAG_RELEASED = 1;

    public HeartbeatBlock {
        Objects.requireNonNull(hostId, "hostId");
        if (hostId.isEmpty() || hostId.getBytes(StandardCharsets.UTF_8).length > MAX_HOST_ID_BYTES) {
            throw new IllegalArgumentException("hostId must be 1.." + MAX_HOST_ID_BYTES + " UTF-8 bytes: " + hostId);
        }
    }

    /** Same owner and claim: host id, incarnation and generation (the fencing token). */
    public boolean sameClaim(HeartbeatBlock other) {
        return other != null && hostId.equals(other.hostId) && incarnation == other.incarnation
                && generation == other.generation;
    }

    public HeartbeatBlock nextBeat(long nowMs, long ios, double oio, double latencyMs) {
        return new HeartbeatBlock(hostId, generation, heartbeat + 1, nowMs, incarnation, periodMs, false,
                ios, oio, latencyMs);
    }

    public HeartbeatBlock asReleased(long nowMs) {
        return new HeartbeatBlock(hostId, generation, heartbeat + 1, nowMs, incarnation, periodMs, true,
                0, 0, 0);
    }

    /** Encodes into exactly {@link #SIZE} bytes of {@code out} starting at its position. */
    public void encode(ByteBuffer out) {
        ByteBuffer b = out.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < SIZE) {
            throw new IllegalArgumentException("need " + SIZE + " bytes, have " + b.remaining());
        }
        byte[] id = hostId.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < SIZE; i++) {
            b.put(i, (byte) 0);
        }
        b.putInt(0, MAGIC);
        b.putShort(4, VERSION);
        b.putShort(6, (short) (released ? FLAG_RELEASED : 0));
        b.putLong(8, generation);
        b.putLong(16, heartbeat);
        b.putLong(24, timestampMs);
        b.putLong(32, incarnation);
        b.putInt(40, periodMs);
        b.putShort(44, (short) id.length);
        b.put(48, id);
        b.putLong(112, ioCount);
        b.putDouble(120, outstandingIos);
        b.putDouble(128, meanLatencyMs);
        b.putInt(CHECKSUM_OFFSET, checksum(b));
    }

    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        encode(b);
        return b.array();
    }

    /** What a reader found in one block slot. */
    public record Decoded(State state, HeartbeatBlock block, int rawChecksum) {
        public static Decoded invalid(int raw) {
            return new Decoded(State.INVALID, null, raw);
        }

        public boolean valid() {
            return state == State.VALID;
        }

        public Optional<HeartbeatBlock> blockIfValid() {
            return Optional.ofNullable(block);
        }
    }

    public enum State {
        /** All zeros (never written) or beyond the end of the file: free. */
        EMPTY,
        /** Magic, version and checksum match. */
        VALID,
        /** Anything else: torn, garbled or from an unknown version; never trusted. */
        INVALID
    }

    /** Decodes the {@link #SIZE} bytes at {@code in}'s position (not moved). */
    public static Decoded decode(ByteBuffer in) {
        ByteBuffer b = in.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < SIZE) {
            return Decoded.invalid(0);
        }
        int stored = b.getInt(CHECKSUM_OFFSET);
        boolean allZero = true;
        for (int i = 0; i < SIZE && allZero; i += 8) {
            allZero = b.getLong(i) == 0;
        }
        if (allZero) {
            return new Decoded(State.EMPTY, null, 0);
        }
        if (b.getInt(0) != MAGIC || b.getShort(4) != VERSION || stored != checksum(b)) {
            // A torn block's raw checksum is kept so a reader can tell whether it still changes.
            return Decoded.invalid(checksum(b) ^ stored);
        }
        int idLen = b.getShort(44);
        if (idLen <= 0 || idLen > MAX_HOST_ID_BYTES) {
            return Decoded.invalid(stored);
        }
        byte[] id = new byte[idLen];
        b.get(48, id);
        HeartbeatBlock block = new HeartbeatBlock(
                new String(id, StandardCharsets.UTF_8),
                b.getLong(8), b.getLong(16), b.getLong(24), b.getLong(32), b.getInt(40),
                (b.getShort(6) & FLAG_RELEASED) != 0,
                b.getLong(112), b.getDouble(120), b.getDouble(128));
        return new Decoded(State.VALID, block, stored);
    }

    public static Decoded decode(byte[] bytes, int offset) {
        return decode(ByteBuffer.wrap(bytes, offset, Math.min(SIZE, Math.max(0, bytes.length - offset))));
    }

    private static int checksum(ByteBuffer b) {
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(0).limit(CHECKSUM_OFFSET));
        return (int) crc.getValue();
    }
}
