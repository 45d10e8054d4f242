package io.opensdrs.testbed.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SimulationTest {
    @Test
    void eventsRunInTimeThenSchedulingOrder() {
        Simulation sim = new Simulation();
        List<String> log = new ArrayList<>();
        sim.at(5, () -> log.add("b"));
        sim.at(1, () -> log.add("a"));
        sim.at(5, () -> log.add("c"));
        sim.runUntil(4);
        assertThat(log).containsExactly("a");
        assertThat(sim.now()).isEqualTo(4);
        sim.runUntil(10);
        assertThat(log).containsExactly("a", "b", "c");
    }

    @Test
    void wallClockPacesSimulatedTime() throws InterruptedException {
        Simulation sim = new Simulation();
        long t0 = System.nanoTime();
        new WallClock(10).advanceTo(sim, 1000); // 1 s of simulated time at 10× speed
        double wallMs = (System.nanoTime() - t0) / 1e6;
        assertThat(wallMs).isBetween(90.0, 1000.0);
        long t1 = System.nanoTime();
        new VirtualClock().advanceTo(sim, 1_000_000);
        assertThat((System.nanoTime() - t1) / 1e6).isLessThan(50.0);
    }
}
