package io.opensdrs.balance.baseline;

import io.opensdrs.balance.BalancingRun;
import io.opensdrs.balance.BalancingStrategy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.MovePlan;

/**
 * A baseline, not a balancer of IO: what an administrator runs who leaves IO alone — VMware's
 * Storage DRS with the IO metric off (space balancing only: the 80 % utilization or free-space
 * threshold, the 5 % minimum utilization difference), which is also what OpenStack Watcher's
 * {@code storage_capacity_balance} strategy does for Cinder pools (move volumes off a pool over
 * its capacity threshold). The run fixes broken rules and balances space exactly as every other
 * strategy's run does ({@link BalancingRun}); it never moves a disk for latency.
 */
public final class SpaceOnly implements BalancingStrategy {

    public static final String NAME = "space-only";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MovePlan plan(ClusterState state) {
        ClusterState spaceOnly = state.withSettings(state.settings().toBuilder().ioLoadBalanceEnabled(false).build());
        return BalancingRun.run(spaceOnly, NAME, (builder, costBenefit) -> { });
    }
}
