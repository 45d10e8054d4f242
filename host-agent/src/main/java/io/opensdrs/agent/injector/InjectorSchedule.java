package io.opensdrs.agent.injector;

import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;

import java.time.Duration;

/**
 * When the leader runs the injector on one datastore: at once when the datastore is first
 * seen (Pesto §5.4.2 datastore addition needs a model within minutes), then once per
 * {@code interval} (a day by default), and at once on demand (an InjectorRequest from the
 * server). When a run is due but the datastore is busy, or a run was aborted for
 * interference (§5.1.1, "restarted at a later time"), the next try backs off exponentially
 * from {@code initialBackoff} up to {@code maxBackoff}.
 */
public final class InjectorSchedule {

    private final Duration interval;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private long nextDueMs;
    private long backoffMs;
    private int attempt = 1;
    private String reason = "datastore added";

    public InjectorSchedule(Duration interval, Duration initialBackoff, Duration maxBackoff, long nowMs) {
        this.interval = interval;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.nextDueMs = nowMs;
        this.backoffMs = initialBackoff.toMillis();
    }

    public static InjectorSchedule daily(long nowMs) {
        return new InjectorSchedule(Duration.ofDays(1), Duration.ofMinutes(1), Duration.ofHours(1), nowMs);
    }

    public synchronized boolean due(long nowMs) {
        return nowMs >= nextDueMs;
    }

    public synchronized long nextDueMs() {
        return nextDueMs;
    }

    /** Attempt number of the next run (1 for the first try of a scheduled run). */
    public synchronized int attempt() {
        return attempt;
    }

    public synchronized String reason() {
        return reason;
    }

    /** On demand: run as soon as the datastore is idle, not before {@code notBeforeMs}. */
    public synchronized void request(long notBeforeMs, String why) {
        nextDueMs = Math.min(nextDueMs, notBeforeMs);
        backoffMs = initialBackoff.toMillis();
        attempt = 1;
        reason = why;
    }

    /** A run was due but the datastore was busy, or a run was aborted by interference. */
    public synchronized void backOff(long nowMs) {
        nextDueMs = nowMs + backoffMs;
        backoffMs = Math.min(backoffMs * 2, maxBackoff.toMillis());
        attempt++;
    }

    /**
     * A run ended with {@code first} as its first IO size's result. A model, or a thin LUN (reading
     * it again finds it just as unallocated), settles the schedule until the next interval. A fit
     * under the R² gate is tried once more after the back-off: a device whose latency is not linear
     * in its outstanding IOs fails again and is left to the next interval, but a transient cause —
     * the previous leader's injector still running for a moment after a handover (seen in the whole
     * loop: R² 0.917 on a 7.2k spindle, then no model for minutes) — does not leave the datastore
     * without a model for a day. Anything else (interference, lost leadership, an error) backs off.
     */
    public synchronized void finished(InjectorResult first, long nowMs) {
        InvalidReason why = first.getValid() ? null : first.getInvalidReason();
        if (why == null || why == InvalidReason.THIN_PROVISIONED || (why == InvalidReason.R_SQUARED_BELOW_GATE && attempt > 1)) {
            completed(nowMs);
        } else {
            backOff(nowMs);
        }
    }

    /** A run finished with a model (or with an invalid result that retrying soon would not fix). */
    public synchronized void completed(long nowMs) {
        nextDueMs = nowMs + interval.toMillis();
        backoffMs = initialBackoff.toMillis();
        attempt = 1;
        reason = "scheduled";
    }
}
