package io.opensdrs.balance.baseline;

import io.opensdrs.balance.BalancingRun;
import io.opensdrs.balance.BalancingStrategy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.IoLoadTrigger;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.MovePlanBuilder;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.RuleChecker;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;

import java.util.List;
import java.util.Locale;

/**
 * A baseline: the latency balancer an administrator could script without Pesto's or Romano's
 * safeguards, HvDRS-style — a latency score, a minimum improvement, greedy moves. The score is
 * the mean of the datastores' p90 latencies as the run believes them (observed, shifted by the
 * model's predicted change, {@link WorkingPlacement#percentiles}); while a datastore is over the
 * IO latency threshold, take the single move of a unit off an over-threshold datastore that lowers
 * the score most, if it lowers it by at least {@value #MIN_IMPROVEMENT} of itself; repeat up to
 * the move cap. Point predictions only: no interval, no cost-benefit, no guard for the datastores
 * that receive the load.
 */
public final class LatencyGreedy implements BalancingStrategy {

    public static final String NAME = "latency-greedy";

    /** The smallest relative improvement of the score a move must buy. */
    static final double MIN_IMPROVEMENT = 0.05;

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
        int n = p.datastoreCount();
        while (b.underMoveCap()) {
            List<Integer> sources = IoLoadTrigger.overloaded(p);
            if (sources.isEmpty()) {
                break;
            }
            double[] p90 = new double[n];
            double score = 0;
            for (int j = 0; j < n; j++) {
                p90[j] = p.p90(j);
                score += p90[j] / n;
            }
            MovableUnit best = null;
            int bestDst = -1;
            double bestScore = score * (1 - MIN_IMPROVEMENT);
            for (int src : sources) {
                for (MovableUnit u : p.unitsOn(units, src)) {
                    if (b.hasMoved(u) || u.outstandingIos() <= 0) {
                        continue;
                    }
                    double srcAfter = p.percentilesFor(src, p.load(src).predictWith(null, u.disks(), null).latencyMs())[2];
                    for (int dst = 0; dst < n; dst++) {
                        if (dst == src || !p.acceptsDisks(dst) || !RuleChecker.allows(p, u.vm(), u.disks(), dst, false)) {
                            continue;
                        }
                        double dstAfter = p.percentilesFor(dst, p.load(dst).predictWith(u.disks(), null, null).latencyMs())[2];
                        double candidate = score + (srcAfter - p90[src] + dstAfter - p90[dst]) / n;
                        if (candidate < bestScore) {
                            bestScore = candidate;
                            best = u;
                            bestDst = dst;
                        }
                    }
                }
            }
            if (best == null) {
                b.note(String.format(Locale.ROOT, "no move lowers the mean datastore p90 (%.2f ms) by %.0f %%", score,
                        100 * MIN_IMPROVEMENT));
                break;
            }
            int src = p.datastoreOf(best);
            CostBenefit.Result r = costBenefit.evaluate(best, src, bestDst);
            String summary = String.format(Locale.ROOT,
                    "mean datastore p90 %.2f → %.2f ms, the largest drop of any move (at least %.0f %%); moving %s from %s "
                            + "to %s: source %s, destination %s; %s", score, bestScore, 100 * MIN_IMPROVEMENT,
                    p.unitName(best), p.datastoreName(src), p.datastoreName(bestDst), r.source().latencyChange(),
                    r.destination().latencyChange(), r.describe());
            b.add(best, bestDst, ReasonCode.BALANCE_DATASTORE_IO_LOAD, summary, List.of(r.source(), r.destination()),
                    r.cost(), r.benefit(), false);
        }
    }
}
