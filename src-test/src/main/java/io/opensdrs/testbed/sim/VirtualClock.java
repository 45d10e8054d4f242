package io.opensdrs.testbed.sim;

/** Virtual time: events run back to back, many simulated hours in seconds. */
public final class VirtualClock implements Clock {
    @Override
    public void advanceTo(Simulation sim, double toMs) {
        sim.runUntil(toMs);
    }
}
