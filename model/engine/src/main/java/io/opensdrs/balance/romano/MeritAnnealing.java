package io.opensdrs.balance.romano;

import io.opensdrs.balance.BalancingRun;
import io.opensdrs.balance.BalancingStrategy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.MovePlanBuilder;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.romano.MeritMetric;

import java.util.List;
import java.util.Locale;

/**
 * Romano's load balancer (Park, Ahmad, Lilja, SoCC'12, §4.3, Algorithm 1): minimize the merit
 * M = (Σ_i P_i^α)^(1/α), α = 5 (Eq. 25), by {@link SimulatedAnnealing} over placements, then
 * move toward the best placement found with {@link GreedyMoveOrder}, largest merit reduction
 * first, at most the run's move cap. Moves also pass Pesto's cost-benefit on interval bounds
 * (the Romano model's 95 % prediction intervals make it conservative).
 *
 * <p>Iterations: the paper needed fewer than 200 for 8–14 workloads; here 200 + 2 per unit,
 * at most 10,000, so that the run's time stays bounded on clusters of thousands of disks.
 */
public final class MeritAnnealing implements BalancingStrategy {

    public static final String NAME = "romano";

    private final long seed;
    private final int maxIterations;
    private final MeritMetric merit;

    public MeritAnnealing(long seed) {
        this(seed, 10_000, MeritMetric.romano());
    }

    public MeritAnnealing(long seed, int maxIterations, MeritMetric merit) {
        this.seed = seed;
        this.maxIterations = maxIterations;
        this.merit = merit;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MovePlan plan(ClusterState state) {
        return BalancingRun.run(state, NAME, this::balance);
    }

    void balance(MovePlanBuilder b, CostBenefit costBenefit) {
        WorkingPlacement p = b.placement();
        List<MovableUnit> units = p.units();
        int iterations = Math.min(maxIterations, 200 + 2 * units.size());
        SimulatedAnnealing.Result annealed = new SimulatedAnnealing(seed, iterations, merit).minimize(p, units);
        b.note(String.format(Locale.ROOT, "simulated annealing (%d iterations, seed %d): merit %.3f → best %.3f ms",
                iterations, seed, annealed.initialMerit(), annealed.bestMerit()));
        new GreedyMoveOrder(merit, true).apply(b, costBenefit, units, annealed.target());
    }
}
