package io.opensdrs.agent.injector;

import io.opensdrs.model.Workload;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;

import java.time.Duration;
import java.util.List;

/**
 * Where the leader is in a datastore's Romano calibration design (Romano §4.1; the design is the
 * model module's {@code ShortCalibrationDesign}) and when it goes on: the design runs in parts of
 * at most {@code pointsPerRun} points, each started only when the datastore is idle (Pesto §5.1.1,
 * the same test as the injector's runs), so that it spreads over as many idle periods as it needs.
 * A point that another workload interfered with (§5.1.1), or that a lost leadership cut short, is
 * run again in a later part after a back-off; any other outcome (a measurement, a thin LUN, an IO
 * error) moves on. The whole design is run again once per {@code interval}, or at once on request
 * (an InjectorRequest asking for Romano's calibration).
 */
public final class CalibrationSchedule {

    private final List<Workload> design;
    private final int pointsPerRun;
    private final Duration interval;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private int next;
    private long nextDueMs;
    private long backoffMs;
    private int attempt = 1;

    public CalibrationSchedule(List<Workload> design, int pointsPerRun, Duration interval, Duration initialBackoff,
                               Duration maxBackoff, long nowMs) {
        if (design.isEmpty()) {
            throw new IllegalArgumentException("a calibration design needs at least one point");
        }
        if (pointsPerRun < 1) {
            throw new IllegalArgumentException("pointsPerRun must be >= 1, got " + pointsPerRun);
        }
        this.design = List.copyOf(design);
        this.pointsPerRun = pointsPerRun;
        this.interval = interval;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.backoffMs = initialBackoff.toMillis();
        this.nextDueMs = nowMs;
    }

    public synchronized boolean due(long nowMs) {
        return nowMs >= nextDueMs;
    }

    public synchronized long nextDueMs() {
        return nextDueMs;
    }

    /** The design's points still to run in this pass, at most one part's worth. */
    public synchronized List<Workload> nextPart() {
        return design.subList(next, Math.min(design.size(), next + pointsPerRun));
    }

    /** Points of the design measured in this pass so far. */
    public synchronized int done() {
        return next;
    }

    public int size() {
        return design.size();
    }

    public synchronized int attempt() {
        return attempt;
    }

    /**
     * One point's result: true when the part may go on with the next point. A point measured (or
     * one that cannot be, on this datastore) moves the design on; the design's last point schedules
     * the next pass after {@code interval}.
     */
    public synchronized boolean finished(InjectorResult r, long nowMs) {
        InvalidReason why = r.getValid() ? null : r.getInvalidReason();
        if (why == InvalidReason.INTERFERENCE || why == InvalidReason.LOST_LEADERSHIP || why == InvalidReason.CANCELLED
                || why == InvalidReason.DATASTORE_BUSY) {
            backOff(nowMs);
            return false;
        }
        next++;
        attempt = 1;
        backoffMs = initialBackoff.toMillis();
        if (next >= design.size()) {
            next = 0;
            nextDueMs = nowMs + interval.toMillis();
            return false;
        }
        return true;
    }

    /** A part was due but the datastore was busy, or a point was cut short. */
    public synchronized void backOff(long nowMs) {
        nextDueMs = nowMs + backoffMs;
        backoffMs = Math.min(backoffMs * 2, maxBackoff.toMillis());
        attempt++;
    }

    /**
     * The server asked for Romano's calibration: the design goes on (or starts again, after a
     * finished pass) as soon as the datastore is idle, not before {@code notBeforeMs}.
     */
    public synchronized void request(long notBeforeMs) {
        attempt = 1;
        backoffMs = initialBackoff.toMillis();
        nextDueMs = Math.min(nextDueMs, notBeforeMs);
    }
}
