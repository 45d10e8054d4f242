package io.opensdrs.balance.sleds;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Whether each service class keeps its SLO over time (SLEDS §3: the delivery bound "may be missed
 * in at most a specified, small, percentage of windows"; SLEDS Table 2 reports the share of
 * 10-s intervals whose QoS was met, while its controller acts on 1-s samples, §5). One
 * {@link Outcome} per recording window of a class (the hypervisor's 20-s statistics windows) —
 * the controller steps every second, so a window is counted once, under its start — over the
 * windows that started within {@code horizonMs} of the newest: a span of time, as an SLO's
 * reader means it ("the last hour"), whatever the windows' length.
 */
public final class SloCompliance {

    /**
     * A window of a class: its mean response time within the delivery bound; over it while the
     * class's demand stayed within its demand bounds (a miss); or over it with the demand over the
     * bounds, which SLEDS does not count against the SLO ("exceeding the demand limits may result in
     * arbitrarily bad QoS without violating the SLO").
     */
    public enum Outcome { MET, MISSED, OVER_DEMAND }

    /** A class's windows within the horizon, {@code missed} of them misses. */
    public record Tally(int windows, int missed) {

        public double missedPct() {
            return windows == 0 ? 0 : 100.0 * missed / windows;
        }

        /** Whether the misses are within what the class allows; null before any window. */
        public Boolean compliant(ServiceClass c) {
            return windows == 0 ? null : missedPct() <= c.allowedMissPct();
        }
    }

    private record Counted(long startMs, Outcome outcome) {
    }

    private final long horizonMs;
    private final Map<String, ArrayDeque<Counted>> outcomes = new HashMap<>();

    public SloCompliance(long horizonMs) {
        if (horizonMs < 1) {
            throw new IllegalArgumentException("horizon must be at least 1 ms, got " + horizonMs);
        }
        this.horizonMs = horizonMs;
    }

    /** The outcome of a class's window: the class's response time, and its streams' IOPS and bytes/s together. */
    public static Outcome outcome(ServiceClass c, double latencyMs, double iops, double bytesPerSecond) {
        if (latencyMs <= c.deliveryBoundMs()) {
            return Outcome.MET;
        }
        return iops > c.demandBoundIops() || bytesPerSecond > c.demandBoundBytesPerSecond() ? Outcome.OVER_DEMAND : Outcome.MISSED;
    }

    /**
     * Counts the class's window starting at {@code windowStartMs} once: a window already counted (or
     * older) is ignored; windows that started {@code horizonMs} or more before it are forgotten.
     */
    public void record(String classKey, long windowStartMs, Outcome outcome) {
        ArrayDeque<Counted> q = outcomes.computeIfAbsent(classKey, k -> new ArrayDeque<>());
        if (!q.isEmpty() && windowStartMs <= q.peekLast().startMs()) {
            return;
        }
        q.addLast(new Counted(windowStartMs, outcome));
        while (q.peekFirst().startMs() <= windowStartMs - horizonMs) {
            q.removeFirst();
        }
    }

    public Tally tally(String classKey) {
        ArrayDeque<Counted> q = outcomes.get(classKey);
        if (q == null) {
            return new Tally(0, 0);
        }
        return new Tally(q.size(), (int) q.stream().filter(c -> c.outcome() == Outcome.MISSED).count());
    }

    /** Forgets classes no longer defined, so that a class made again under the same name starts afresh. */
    public void retain(Set<String> classKeys) {
        outcomes.keySet().retainAll(classKeys);
    }
}
