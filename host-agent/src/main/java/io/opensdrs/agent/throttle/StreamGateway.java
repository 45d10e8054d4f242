package io.opensdrs.agent.throttle;

import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The host agent as a SLEDS gateway (SLEDS §4.1, SPEC §3.5): classifies each IO by stream and
 * decides when it may be released. The IO path never waits for the server: limits arrive
 * asynchronously ({@link #apply}) and replace an immutable table with one volatile write; each
 * IO does one volatile read and one hash lookup, and an unthrottled stream nothing more. When
 * the server is gone the last table simply stays in force (SLEDS §4.1: "the gateway will
 * continue to service I/Os and apply the limits that were in effect").
 */
public final class StreamGateway {

    private record Table(long generation, Map<StreamKey, StreamThrottle> throttles) {
    }

    private volatile Table table = new Table(0, Map.of());

    /**
     * Installs limits from the server unless they are older than those in force (the
     * generation is monotonic). Streams not listed become unthrottled; a stream that stays
     * throttled keeps its release order across the change.
     *
     * @return true if applied
     */
    public synchronized boolean apply(ThrottleLimits limits) {
        Table old = table;
        if (limits.getGeneration() < old.generation()) {
            return false;
        }
        Map<StreamKey, StreamThrottle> next = new HashMap<>();
        for (StreamLimit l : limits.getLimitsList()) {
            if (l.getReadIops() <= 0 && l.getWriteIops() <= 0 && l.getReadBytesPerS() <= 0 && l.getWriteBytesPerS() <= 0
                    && l.getIops() <= 0 && l.getBytesPerS() <= 0) {
                continue; // all dimensions unlimited
            }
            StreamKey key = StreamKey.of(l.getStream());
            StreamThrottle previous = old.throttles().get(key);
            next.put(key, new StreamThrottle(l, previous == null ? Long.MIN_VALUE / 2 : previous.lastRelease()));
        }
        table = new Table(limits.getGeneration(), Map.copyOf(next));
        return true;
    }

    public long generation() {
        return table.generation();
    }

    public boolean throttled(StreamKey key) {
        return table.throttles().containsKey(key);
    }

    /** The admission decision: the {@link System#nanoTime()} at which this IO may be released. */
    public long admit(StreamKey key, boolean write, long bytes, long nowNanos) {
        StreamThrottle t = table.throttles().get(key);
        return t == null ? nowNanos : t.admit(write, bytes, nowNanos);
    }

    /** Admits the IO and parks the calling IO thread until its release time. */
    public void admitAndWait(StreamKey key, boolean write, long bytes) {
        long release = admit(key, write, bytes, System.nanoTime());
        for (long left = release - System.nanoTime(); left > 0; left = release - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
