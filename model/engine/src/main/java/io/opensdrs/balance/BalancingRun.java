package io.opensdrs.balance;

import io.opensdrs.balance.pesto.CostBenefit;

/**
 * The shape of every Storage DRS run, whatever the strategy: fix the rules the inventory
 * already breaks, or report them ({@link RuleRepair}); balance space (SDRS corrects space
 * before IO); let the strategy balance IO load; then finish the plan.
 */
public final class BalancingRun {

    /** A strategy's IO load-balancing step. */
    @FunctionalInterface
    public interface IoBalancing {
        void balance(MovePlanBuilder builder, CostBenefit costBenefit);
    }

    private BalancingRun() {
    }

    public static MovePlan run(ClusterState state, String strategy, IoBalancing io) {
        WorkingPlacement placement = new WorkingPlacement(state);
        MovePlanBuilder builder = new MovePlanBuilder(placement, strategy);
        CostBenefit costBenefit = new CostBenefit(placement);
        RuleRepair.repair(builder, costBenefit);
        SpaceBalancer.balance(builder, costBenefit);
        if (!state.settings().ioLoadBalanceEnabled()) {
            builder.note("IO load balancing is disabled");
        } else if (IoLoadTrigger.overloaded(placement).isEmpty()) {
            builder.note("no datastore is above the " + state.settings().ioLatencyThresholdMs() + " ms IO latency threshold at p90");
        } else if (builder.underMoveCap()) {
            io.balance(builder, costBenefit);
        }
        return builder.build();
    }
}
