package io.opensdrs.testbed.device;

import io.opensdrs.testbed.sim.Simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * One spinning disk serving a queue of operations. Each dispatch picks, among the first
 * {@code ncqDepth} queued commands, the one the head reaches soonest (by seek alone, or by
 * seek plus rotation), which is why service time falls as the queue grows — the mechanism
 * behind Pesto Eqs. 5–7 (average seek distance ≈ max/(Q+2)) rather than those equations.
 * A command that has held a tag for {@link #MAX_COMMAND_AGE_MS} is served next (aging).
 */
final class Spindle {
    /** One operation on this disk: a byte range of the disk and what to do when it is done. */
    static final class Op {
        final long offset;
        final int size;
        final boolean read;
        final Runnable done;
        /** The command reached the drive while it was busy: a queued (tagged) command. */
        boolean queuedOnArrival;
        /** When the command entered the drive's command queue, its first ncqDepth slots (ms). */
        double queuedAt = Double.NaN;
        /**
         * Where it lies on this disk, set when it is submitted: the radial position of its start
         * and of its end, and the angle of its start within a track (revolutions) — read for
         * every queued command at every dispatch.
         */
        double radial;
        double endRadial;
        double angle;

        Op(long offset, int size, boolean read, Runnable done) {
            this.offset = offset;
            this.size = size;
            this.read = read;
            this.done = done;
        }

        long offset() {
            return offset;
        }

        int size() {
            return size;
        }

        boolean read() {
            return read;
        }

        Runnable done() {
            return done;
        }

        long end() {
            return offset + size;
        }
    }

    /**
     * Command aging (starvation prevention): a command that has held one of the drive's tags this
     * long is served next, wherever it lies. Without it, shortest-positioning-first serves a
     * sequential stream (a storage vMotion copy, a log) for ever, since its next command is always
     * on the head's track. Drives bound command age in their NCQ/TCQ firmware, and the aged
     * positioning-time-first schedulers (Jacobson and Wilkes, HPL-CSP-91-7, 1991; Worthington,
     * Ganger and Patt, SIGMETRICS 1994) exist for the same reason. The age counts from when the
     * command got a tag (entered the first {@code ncqDepth} slots), not from when the host queued
     * it: at depth 64 on one spindle (fio-plot's HGST and WD runs) commands already wait 750 ms
     * in total, and an age limit counted from host queueing turns the drive into FIFO there (the
     * calibration's depth-32/64 cells then miss by 40 %). 1 s keeps those cells (tested: 0.5 s
     * breaks the depth-32 cells, 0.75–1 s keeps them).
     */
    static final double MAX_COMMAND_AGE_MS = 1000;

    private final Simulation sim;
    private final SpindleMechanics m;
    private final double spanBytes;
    private final double revMs;
    private final double bytesPerMs;
    private final double trackBytes;
    private final double interfaceBytesPerMs;
    private final double readAheadBytes;
    private final double phase;
    private final List<Op> queue = new ArrayList<>();
    private boolean busy;
    private double headRadial;

    // Read-ahead segment: [bufStart, ...). While streaming, data up to
    // streamFrom + (t - streamStart) * rate (capped at streamLimit) is in the buffer.
    private boolean streaming;
    private long bufStart = -1;
    private long streamFrom;
    private double streamStart;
    private long streamLimit;
    private long frozenEnd = -1;

    Spindle(Simulation sim, SpindleMechanics m, long spanBytes, double phase) {
        this.sim = sim;
        this.m = m;
        this.spanBytes = Math.max(1, spanBytes);
        this.revMs = m.revolutionMs();
        this.bytesPerMs = m.mediaMBps() * 1e6 / 1e3;
        // One track holds what passes under the head in one revolution.
        this.trackBytes = bytesPerMs * revMs;
        this.interfaceBytesPerMs = m.interfaceMBps() * 1e6 / 1e3;
        this.readAheadBytes = m.readAheadKB() * 1024;
        this.phase = phase;
    }

    int queued() {
        return queue.size() + (busy ? 1 : 0);
    }

    void submit(Op op) {
        op.radial = radial(op.offset());
        op.endRadial = radial(op.end());
        op.angle = frac(op.offset() / trackBytes);
        op.queuedOnArrival = busy;
        queue.add(op);
        if (queue.size() <= m.ncqDepth()) {
            op.queuedAt = sim.now();
        }
        if (!busy) {
            dispatch();
        }
    }

    private void dispatch() {
        if (queue.isEmpty()) {
            busy = false;
            return;
        }
        busy = true;
        double t = sim.now();
        int window = Math.min(queue.size(), m.ncqDepth());
        int best = 0;
        // Command aging: the queue is in arrival order, so its head is the oldest command; once
        // it has waited maxCommandAgeMs it is served next whatever its position.
        if (window > 1 && t - queue.get(0).queuedAt < MAX_COMMAND_AGE_MS) {
            double bestCost = Double.POSITIVE_INFINITY;
            for (int i = 0; i < window; i++) {
                double c = positioningCost(queue.get(i), t);
                if (c < bestCost) {
                    bestCost = c;
                    best = i;
                }
            }
        }
        Op op = queue.remove(best);
        if (queue.size() >= m.ncqDepth()) {
            // The first command still waiting in the host's queue takes the freed tag.
            queue.get(m.ncqDepth() - 1).queuedAt = t;
        }
        double end = serve(op, t, op.queuedOnArrival);
        sim.at(end, () -> {
            op.done().run();
            dispatch();
        });
    }

    private double radial(long offset) {
        return Math.min(1.0, offset / spanBytes);
    }

    private double seekMs(double fromRadial, double toRadial) {
        double d = Math.abs(toRadial - fromRadial);
        if (d * spanBytes < trackBytes) {
            return 0; // same track
        }
        return m.settleMs() + (m.fullStrokeMs() - m.settleMs()) * Math.sqrt(d);
    }

    /** Time until the start of {@code op} passes under the head, from time {@code t}. */
    private double rotationalWaitMs(double t, Op op) {
        double headAngle = frac(t / revMs + phase);
        return frac(op.angle - headAngle) * revMs;
    }

    private static double frac(double x) {
        return x - Math.floor(x);
    }

    private double streamedUpTo(double t) {
        return Math.min(streamLimit, streamFrom + (t - streamStart) * bytesPerMs);
    }

    private boolean bufferHit(Op op, double t) {
        if (!op.read() || bufStart < 0 || op.offset() < bufStart) {
            return false;
        }
        if (streaming) {
            return op.offset() <= streamedUpTo(Math.max(t, streamStart));
        }
        return op.end() <= frozenEnd;
    }

    private double positioningCost(Op op, double t) {
        if (bufferHit(op, t)) {
            return -1;
        }
        double seek = seekMs(headRadial, op.radial);
        if (!m.rotationAware()) {
            return seek;
        }
        return seek + rotationalWaitMs(t + m.commandMs() + seek, op);
    }

    /** Returns the completion time of {@code op} dispatched at {@code t}. */
    private double serve(Op op, double t, boolean queuedCommand) {
        if (bufferHit(op, t)) {
            if (streaming) {
                // The head is still streaming this region: the IO completes once the stream
                // has passed its end (at once if it already has), and read-ahead goes on.
                streamLimit = (long) Math.max(streamLimit, op.end() + readAheadBytes);
                double reached = streamStart + (op.end() - streamFrom) / bytesPerMs;
                return Math.max(t + m.commandMs() + op.size() / interfaceBytesPerMs, reached);
            }
            return t + m.commandMs() + op.size() / interfaceBytesPerMs;
        }
        if (streaming) {
            // The head leaves: read-ahead stops where it got to; what it read stays buffered.
            frozenEnd = (long) streamedUpTo(Math.max(t, streamStart));
            headRadial = radial(frozenEnd);
            streaming = false;
        }
        double seek = seekMs(headRadial, op.radial);
        double arrive = t + m.commandMs() + seek + (queuedCommand ? m.queuedPenaltyMs() : 0);
        double end = arrive + rotationalWaitMs(arrive, op) + op.size() / bytesPerMs;
        headRadial = op.endRadial;
        if (op.read() && readAheadBytes > 0) {
            streaming = true;
            bufStart = op.offset();
            streamFrom = op.end();
            streamStart = end;
            streamLimit = (long) (op.end() + readAheadBytes);
        } else if (!op.read()) {
            bufStart = -1;
            frozenEnd = -1;
        }
        return end;
    }
}
