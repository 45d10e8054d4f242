package io.opensdrs.testbed.sim;

import java.util.PriorityQueue;

/**
 * The discrete-event engine every emulated IO runs on. Time is in milliseconds of
 * simulated time; events at the same instant run in the order they were scheduled, so a
 * run is a deterministic function of the seed.
 */
public final class Simulation {
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long sequence;
    private double now;

    private static final class Event implements Comparable<Event> {
        final double time;
        final long seq;
        final Runnable action;

        Event(double time, long seq, Runnable action) {
            this.time = time;
            this.seq = seq;
            this.action = action;
        }

        @Override
        public int compareTo(Event o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** Current simulated time, ms. */
    public double now() {
        return now;
    }

    /** Runs {@code action} at simulated time {@code timeMs} (not before now). */
    public void at(double timeMs, Runnable action) {
        queue.add(new Event(Math.max(timeMs, now), sequence++, action));
    }

    /** Runs {@code action} {@code delayMs} from now. */
    public void after(double delayMs, Runnable action) {
        at(now + delayMs, action);
    }

    /** Time of the next event, or +infinity when nothing is scheduled. */
    public double nextEventTime() {
        Event e = queue.peek();
        return e == null ? Double.POSITIVE_INFINITY : e.time;
    }

    /** Processes every event up to and including {@code timeMs}, then sets the clock there. */
    public void runUntil(double timeMs) {
        while (!queue.isEmpty() && queue.peek().time <= timeMs) {
            Event e = queue.poll();
            now = e.time;
            e.action.run();
        }
        now = Math.max(now, timeMs);
    }

    /** Number of pending events (for tests and progress). */
    public int pending() {
        return queue.size();
    }
}
