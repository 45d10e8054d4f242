package io.opensdrs.bench;

import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.PlanInvariants;
import io.opensdrs.balance.StrategyRegistry;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * B3 at one cluster: every strategy plans a 64-datastore × 9,000-disk cluster within 1 s of
 * CPU (measured as thread CPU time so that other load on the machine does not count), and the
 * plan keeps every rule. The 256-cluster figures come from {@code sdrs bench b3}.
 */
class ScaleRunTest {

    @Test
    void eachStrategyPlansA64By9000ClusterWithinOneSecondAndKeepsTheRules() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        for (String name : registry.names()) {
            boolean romano = name.equals("romano");
            // Warm the JIT on a smaller world first: the figure is for a server that has been running.
            registry.create(name, 1).plan(ScaleWorld.generate("warm", 16, 2000, romano, 5));
            ClusterState state = ScaleWorld.generate("b3", 64, 9000, romano, 11);
            long c0 = threads.getCurrentThreadCpuTime();
            MovePlan plan = registry.create(name, 1).plan(state);
            double cpuMs = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
            assertThat(cpuMs).as(name + " CPU ms").isLessThan(1000);
            assertThat(plan.moves()).as(name).isNotEmpty().hasSizeLessThanOrEqualTo(16);
            PlanInvariants.check(state, plan, false);
        }
    }
}
