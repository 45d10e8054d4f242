package io.opensdrs.balance.sleds;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Whether each service class keeps its SLO over time (SLEDS §3: the delivery bound "may be missed
 * in at most a specified, small, percentage of windows"; SLEDS Table 2 reports the share of
 * 10-s intervals whose QoS was met). One {@link Outcome} per statistics window of a class — the
 * controller steps every second on the newest windows, so a window is counted once, under its
 * key — over the last {@code horizon} windows.
 */
public final class SloCompliance {

    /**
     * A window of a class: its mean response time within the delivery bound; over it while the
     * class's demand stayed within its demand bounds (a miss); or over it with the demand over the
     * bounds, which SLEDS does not count against the SLO ("exceeding the demand limits may result in
     * arbitrarily bad QoS without violating the SLO").
     */
    public enum Outcome { MET, MISSED, OVER_DEMAND }

    /** A class's last {@code windows} windows, {@code missed} of them misses. */
    public record Tally(int windows, int missed) {

        public double missedPct() {
            return windows == 0 ? 0 : 100.0 * missed / windows;
        }

        /** Whether the misses are within what the class allows; null before any window. */
        public Boolean compliant(ServiceClass c) {
            return windows == 0 ? null : missedPct() <= c.allowedMissPct();
        }
    }

    private final int horizon;
    private final Map<String, ArrayDeque<Outcome>> outcomes = new HashMap<>();
    private final Map<String, Long> lastKey = new HashMap<>();

    public SloCompliance(int horizon) {
        if (horizon < 1) {
            throw new IllegalArgumentException("horizon must be at least one window, got " + horizon);
        }
        this.horizon = horizon;
    }

    /** The outcome of a class's window: the class's response time, and its streams' IOPS and bytes/s together. */
    public static Outcome outcome(ServiceClass c, double latencyMs, double iops, double bytesPerSecond) {
        if (latencyMs <= c.deliveryBoundMs()) {
            return Outcome.MET;
        }
        return iops > c.demandBoundIops() || bytesPerSecond > c.demandBoundBytesPerSecond() ? Outcome.OVER_DEMAND : Outcome.MISSED;
    }

    /** Counts the class's window {@code windowKey} once: a key already counted (or older) is ignored. */
    public void record(String classKey, long windowKey, Outcome outcome) {
        Long last = lastKey.get(classKey);
        if (last != null && windowKey <= last) {
            return;
        }
        lastKey.put(classKey, windowKey);
        ArrayDeque<Outcome> q = outcomes.computeIfAbsent(classKey, k -> new ArrayDeque<>());
        q.addLast(outcome);
        while (q.size() > horizon) {
            q.removeFirst();
        }
    }

    public Tally tally(String classKey) {
        ArrayDeque<Outcome> q = outcomes.get(classKey);
        if (q == null) {
            return new Tally(0, 0);
        }
        return new Tally(q.size(), (int) q.stream().filter(o -> o == Outcome.MISSED).count());
    }

    /** Forgets classes no longer defined, so that a class made again under the same name starts afresh. */
    public void retain(Set<String> classKeys) {
        outcomes.keySet().retainAll(classKeys);
        lastKey.keySet().retainAll(classKeys);
    }
}
