package io.opensdrs.balance.perio;

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
import io.opensdrs.model.Prediction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * IO load balancing for the latency the VMs feel: each move is the one predicted to lower the
 * cluster's per-IO latency most, never raising the worst datastore's p90, and only if it pays.
 * Pesto equalizes datastore latencies and Romano lowers a soft maximum of them (Eq. 25); with
 * closed-loop workloads neither is what the VMs' IOs see. There Σ O is fixed, so per-IO latency
 * Σ O / Σ IOPS falls exactly as the IO rate rises, and the rate is won where a disk's IOs run
 * fastest: moving a busy disk off a hot spindle onto an idle SSD, or a large-IO stream off an SSD
 * whose small random IOs it slows, raises it; spreading load until the datastores' latencies are
 * equal can lower it. The decision per move, in order:
 * <ol>
 *   <li>SDRS's trigger: some datastore is over the IO latency threshold at p90
 *       ({@link IoLoadTrigger}); then any unit may move, to any datastore the rules allow.</li>
 *   <li>The pair's IO rate after the move, from each disk's observed rate and its datastore's model
 *       ({@link WorkingPlacement#rateAfter}); candidates that lose rate at the point predictions
 *       are dropped.</li>
 *   <li>{@link IoRateCostBenefit}: no datastore of the pair above the cluster's worst p90 now, and
 *       the IOs gained over the invocation period, at the bounds' pessimistic ends, above the IOs
 *       the copy costs.</li>
 *   <li>Of those, the largest rate gain; then the next move, on the placement as it will be.</li>
 * </ol>
 * The run stops when no move passes, the cap is reached, or no datastore is over the threshold.
 * The search looks at the busiest units (by IO rate) of each datastore, bounded so that a
 * 64 × 9,000 cluster plans in bounded time.
 */
public final class PerIoLatencyGreedy implements BalancingStrategy {

    public static final String NAME = "per-io";

    /**
     * The smallest predicted drop of the cluster's per-IO latency a move must buy, as a share:
     * the models' predicted changes are uncertain by more than this (B2's after-move checks), and
     * B2 counts changes within it as no change; smaller moves cost a copy for what may be noise.
     */
    static final double MIN_GAIN = 0.02;

    private final int unitsPerDatastore;

    public PerIoLatencyGreedy() {
        this(48);
    }

    public PerIoLatencyGreedy(int unitsPerDatastore) {
        this.unitsPerDatastore = unitsPerDatastore;
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
        IoRateCostBenefit rates = new IoRateCostBenefit(p, costBenefit);
        List<MovableUnit> units = p.units();
        int refusedByWorst = 0;
        int refusedByCost = 0;
        while (b.underMoveCap()) {
            if (IoLoadTrigger.overloaded(p).isEmpty()) {
                break;
            }
            // a rate gain ΔT lowers per-IO latency by ΔT / (T + ΔT)
            double totalNow = p.ioRate();
            double minRateGain = totalNow * MIN_GAIN / (1 - MIN_GAIN);
            MovableUnit best = null;
            int bestDst = -1;
            IoRateCostBenefit.Result bestResult = null;
            for (MovableUnit u : candidates(b, units)) {
                int src = p.datastoreOf(u);
                Prediction srcAfter = p.load(src).predictWith(null, u.disks(), null);
                for (int dst = 0; dst < p.datastoreCount(); dst++) {
                    if (dst == src || !p.acceptsDisks(dst)) {
                        continue;
                    }
                    double gain = rates.pointRateGain(u, src, dst, srcAfter);
                    if (!(gain >= minRateGain) || bestResult != null && gain <= bestResult.rateGain().value()) {
                        continue;
                    }
                    if (!RuleChecker.allows(p, u.vm(), u.disks(), dst, false)) {
                        continue;
                    }
                    IoRateCostBenefit.Result r = rates.evaluate(u, src, dst, srcAfter);
                    if (r.raisesWorstP90()) {
                        refusedByWorst++;
                    } else if (!r.worthwhile() || !(r.rateGain().value() >= minRateGain)) {
                        refusedByCost++;
                    } else {
                        best = u;
                        bestDst = dst;
                        bestResult = r;
                    }
                }
            }
            if (best == null) {
                b.note(String.format(Locale.ROOT, "no further move lowers per-IO latency by %.0f %% without raising the "
                        + "worst p90 (%d candidates refused) and pays for its copy (%d refused)", 100 * MIN_GAIN, refusedByWorst,
                        refusedByCost));
                break;
            }
            int src = p.datastoreOf(best);
            double perIoBefore = p.perIoLatency();
            double totalRate = p.ioRate();
            double perIoAfter = totalRate + bestResult.rateGain().value() > 0
                    ? perIoBefore * totalRate / (totalRate + bestResult.rateGain().value()) : perIoBefore;
            IoRateCostBenefit.Result r = bestResult;
            String summary = String.format(Locale.ROOT,
                    "per-IO latency %.2f → %.2f ms (Σ outstanding IOs ÷ Σ IOPS); moving %s from %s to %s: its IOs "
                            + "and the others' there, %s %s (p90 %s), %s %s (p90 %s); "
                            + "%.0f IOs more before the next run in %.0f h against %.0f fewer during the %.1f-min copy (worst cases)",
                    perIoBefore, perIoAfter, p.unitName(best), p.datastoreName(src), p.datastoreName(bestDst),
                    p.datastoreName(src), r.source().latencyChange(), r.source().p90Change(), p.datastoreName(bestDst),
                    r.destination().latencyChange(), r.destination().p90Change(),
                    r.benefit().lower(), p.settings().invocationPeriodHours(), r.cost().upper(), r.copySeconds() / 60);
            b.add(best, bestDst, ReasonCode.BALANCE_DATASTORE_IO_LOAD, summary, List.of(r.source(), r.destination()), r.cost(),
                    r.benefit(), false);
        }
    }

    /** Per datastore its busiest units by IO rate, not yet moved in this run. */
    private List<MovableUnit> candidates(MovePlanBuilder b, List<MovableUnit> units) {
        WorkingPlacement p = b.placement();
        List<List<MovableUnit>> byDatastore = new ArrayList<>();
        for (int j = 0; j < p.datastoreCount(); j++) {
            byDatastore.add(new ArrayList<>());
        }
        for (MovableUnit u : units) {
            if (!b.hasMoved(u) && rate(p, u) > 0) {
                byDatastore.get(p.datastoreOf(u)).add(u);
            }
        }
        List<MovableUnit> out = new ArrayList<>();
        for (List<MovableUnit> list : byDatastore) {
            list.sort(Comparator.comparingDouble((MovableUnit u) -> -rate(p, u)));
            out.addAll(list.size() > unitsPerDatastore ? list.subList(0, unitsPerDatastore) : list);
        }
        return out;
    }

    private static double rate(WorkingPlacement p, MovableUnit u) {
        double r = 0;
        for (int i : u.disks()) {
            r += p.diskIoRate(i);
        }
        return r;
    }
}
