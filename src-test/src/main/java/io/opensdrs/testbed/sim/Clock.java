package io.opensdrs.testbed.sim;

/**
 * How simulated time advances: as fast as the CPU allows ({@link VirtualClock}, for
 * benchmarks) or paced to the wall clock ({@link WallClock}, for system tests where real
 * agents and the server watch the testbed).
 */
public interface Clock {
    /** Advances {@code sim} to simulated time {@code toMs}, processing the events on the way. */
    void advanceTo(Simulation sim, double toMs) throws InterruptedException;
}
