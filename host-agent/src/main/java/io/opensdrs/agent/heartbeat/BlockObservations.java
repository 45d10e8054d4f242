package io.opensdrs.agent.heartbeat;

import java.util.List;

/**
 * What this host has seen of every slot over time. Liveness is judged from this host's own
 * monotonic clock — "the block's content has not changed for the reclaim window" — and never
 * from the timestamps other hosts write, so clock skew between hosts cannot make a live host
 * look dead (Pesto §5.1.1: "Liveness is detected using a heartbeat mechanism").
 */
public final class BlockObservations {

    /** How a slot looks to this host now. */
    public enum Liveness {
        /** Never written, or released by its owner on a clean exit: claimable at once. */
        FREE,
        /** Valid and its content changed within the reclaim window. */
        LIVE,
        /** Valid, but its heartbeat has not advanced for the reclaim window: reclaimable. */
        STALE,
        /** Fails its checksum, and changed within the reclaim window: someone may be writing it. */
        INVALID_CHANGING,
        /** Fails its checksum and has stayed so, unchanged, for the reclaim window: reclaimable. */
        INVALID_STALE
    }

    private final long reclaimWindowNanos;
    private final long[] fingerprint;
    private final long[] changedAtNanos;
    private final long[] maxGeneration;
    private final HeartbeatBlock.Decoded[] last;

    public BlockObservations(int slots, long reclaimWindowNanos) {
        this.reclaimWindowNanos = reclaimWindowNanos;
        this.fingerprint = new long[slots];
        this.changedAtNanos = new long[slots];
        this.maxGeneration = new long[slots];
        this.last = new HeartbeatBlock.Decoded[slots];
    }

    public static long fingerprint(HeartbeatBlock.Decoded d) {
        return ((long) d.state().ordinal() << 32) | (d.rawChecksum() & 0xffffffffL);
    }

    /** Records one read of every slot made at {@code nowNanos}. */
    public void observe(List<HeartbeatBlock.Decoded> blocks, long nowNanos) {
        for (int i = 0; i < last.length; i++) {
            observe(i, blocks.get(i), nowNanos);
        }
    }

    public void observe(int i, HeartbeatBlock.Decoded d, long nowNanos) {
        long f = fingerprint(d);
        if (last[i] == null || f != fingerprint[i]) {
            // First sight counts as a change: a host that just started gives every block the
            // full reclaim window before it may take it.
            fingerprint[i] = f;
            changedAtNanos[i] = nowNanos;
        }
        last[i] = d;
        if (d.valid()) {
            maxGeneration[i] = Math.max(maxGeneration[i], d.block().generation());
        }
    }

    public Liveness liveness(int i, long nowNanos) {
        HeartbeatBlock.Decoded d = last[i];
        if (d == null || d.state() == HeartbeatBlock.State.EMPTY) {
            return Liveness.FREE;
        }
        boolean quiet = nowNanos - changedAtNanos[i] >= reclaimWindowNanos;
        if (d.state() == HeartbeatBlock.State.INVALID) {
            return quiet ? Liveness.INVALID_STALE : Liveness.INVALID_CHANGING;
        }
        if (d.block().released()) {
            return Liveness.FREE;
        }
        return quiet ? Liveness.STALE : Liveness.LIVE;
    }

    public boolean claimable(int i, long nowNanos) {
        Liveness l = liveness(i, nowNanos);
        return l == Liveness.FREE || l == Liveness.STALE || l == Liveness.INVALID_STALE;
    }

    public HeartbeatBlock.Decoded last(int i) {
        return last[i];
    }

    public long fingerprint(int i) {
        return fingerprint[i];
    }

    /** Highest generation ever seen in slot {@code i}; a claim uses one more (fencing). */
    public long maxGeneration(int i) {
        return maxGeneration[i];
    }

    public int slots() {
        return last.length;
    }
}
