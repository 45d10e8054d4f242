package io.opensdrs.system;

import io.opensdrs.demo.DemoRun;
import io.opensdrs.loop.MeasuredLatency;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pesto Fig. 10 in compressed time: the demo world, imbalanced as placed, is balanced by the
 * server's own run and the latency the testbed measures improves — the demo's loop itself. Every
 * disk's IO reaches the server only through vCenter's realtime performance counters (the testbed
 * publishes each window into our vcsim's PerformanceManager; the agents report none): the worst
 * datastore's p90 must improve at least as much as it did when the agents reported the IO (31 %).
 */
class BalancingIT {

    @Test
    void anImbalancedWorldIsBalancedAndTheMeasuredLatencyImproves() throws Exception {
        // Pesto's model, as in Pesto Fig. 10: with the kind left on auto the server takes whichever
        // kind has the lowest held-out error at that moment, and under the queueing model's wider
        // intervals silver's move fails the cost-benefit bounds in some runs (README, system tests)
        DemoRun.Outcome outcome = new DemoRun(SystemLoops.demoWorld(), SystemLoops.settings("balancing"), System.out)
                .withModelKind("pesto").run(true);
        assertThat(outcome.moves()).as("storage vMotions").isNotEmpty();
        double before = MeasuredLatency.worstP90(outcome.before());
        // the demo runs Storage DRS until it converges; the bar is on its first run, as it was set: later runs could
        // give silver the second move that the first run owes to the per-IO guard
        double after = MeasuredLatency.worstP90(outcome.afterEachRun().get(0));
        // issue 39 asks at least the 31 % the agent-path demo reached; the bar sits above what silver's single
        // move gives, so that it fails if the pair guard stops judging per IO (CostBenefit#raisesPerIoLatency)
        // and silver loses its second move (measurements in src-test/README.md)
        assertThat(1 - after / before).as("the worst datastore's p90 improved: %.1f ms before, %.1f ms after", before, after)
                .isGreaterThanOrEqualTo(0.5);
        assertThat(outcome.improved()).isTrue();
    }
}
