package io.opensdrs.testbed.sim;

/**
 * Wall-clock pacing: simulated time never runs ahead of real time multiplied by
 * {@code speed} (1.0 = real time), so that agents polling the vSCSI service see statistics
 * arrive at the rate a hypervisor would produce them.
 */
public final class WallClock implements Clock {
    private final double speed;
    private final long startNanos = System.nanoTime();
    private Double startSimMs;

    public WallClock(double speed) {
        if (!(speed > 0)) {
            throw new IllegalArgumentException("wall-clock speed must be > 0, got " + speed);
        }
        this.speed = speed;
    }

    /** Simulated time the wall clock allows right now. */
    public double allowedSimMs(Simulation sim) {
        if (startSimMs == null) {
            startSimMs = sim.now();
        }
        return startSimMs + (System.nanoTime() - startNanos) / 1e6 * speed;
    }

    @Override
    public void advanceTo(Simulation sim, double toMs) throws InterruptedException {
        while (sim.now() < toMs) {
            double target = Math.min(toMs, allowedSimMs(sim));
            sim.runUntil(target);
            if (sim.now() < toMs) {
                // Sleep until the next event is due in wall time (at most 5 ms, so that a
                // stop request or a newly scheduled event is never far away).
                double waitSimMs = Math.min(sim.nextEventTime(), toMs) - allowedSimMs(sim);
                long sleepMs = (long) Math.max(0, Math.min(5, waitSimMs / speed));
                Thread.sleep(sleepMs);
            }
        }
    }
}
