package io.opensdrs.balance.romano;

import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.MovePlanBuilder;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.RuleChecker;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.romano.MeritMetric;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Romano's loadBalance (Algorithm 1, second half): walk from the current placement toward the
 * annealed target one move at a time, always taking the move with the largest merit
 * reduction (the text's intent; the listing's "sortDescendingByM, take Mlist[0]" would take
 * the largest M′). Stops when the cap is reached, no remaining move reduces the merit (the
 * product's moves never make the cluster worse by its own measure), or the target is reached.
 * A move that the rules forbid now (its order differs from annealing's) is skipped for this
 * step; a move that does not pay ({@link CostBenefit} on bounds), that is predicted to raise
 * the per-IO latency the VMs see ({@link CostBenefit#raisesPerIoLatency}: the merit, a soft
 * maximum, rewards lowering the worst datastore even where most IOs slow down), or that lowers
 * the merit only at the point predictions and not with its two
 * datastores at their intervals' upper ends (such a move typically buys a hot datastore well
 * under a millisecond and costs a quiet one several) is dropped with a note saying why.
 */
public final class GreedyMoveOrder {

    /** Dropped candidates noted one by one; the rest are counted (a run's notes are read by administrators). */
    static final int NOTED_DROPS = 10;

    private final MeritMetric merit;
    private final boolean costBenefitFilter;

    public GreedyMoveOrder(MeritMetric merit, boolean costBenefitFilter) {
        this.merit = merit;
        this.costBenefitFilter = costBenefitFilter;
    }

    /**
     * The merit after the move with the source's and destination's latencies at their
     * intervals' upper ends, the others as they are: the move must lower the merit even then
     * (the cost-benefit on bounds, applied to Romano's objective). A move that lowers the merit
     * by 1 % at its point prediction — a hot datastore's latency 30.7 → 30.1 ms, a quiet one's
     * 9.3 → 15.3 ms — is a guess, not a reduction.
     */
    private double pessimisticMerit(double[] latency, int src, int dst, CostBenefit.Result r) {
        double[] after = latency.clone();
        after[src] = r.source().latencyAfterMs().upper();
        after[dst] = r.destination().latencyAfterMs().upper();
        return merit.of(after);
    }

    public int apply(MovePlanBuilder b, CostBenefit costBenefit, List<MovableUnit> units, int[] target) {
        WorkingPlacement p = b.placement();
        List<Integer> pending = new ArrayList<>();
        for (int u = 0; u < units.size(); u++) {
            if (target[u] != p.datastoreOf(units.get(u))) {
                pending.add(u);
            }
        }
        int made = 0;
        int dropped = 0;
        // Per pending unit, its source's and destination's latency after the move, valid while
        // both datastores' loads are unchanged: after a move only candidates touching the two
        // datastores it changed are re-predicted (Romano: "updateMerit executes in O(1)").
        int count = units.size();
        double[] srcAfter = new double[count];
        double[] dstAfter = new double[count];
        long[] srcVersion = new long[count];
        long[] dstVersion = new long[count];
        int[] srcOf = new int[count];
        java.util.Arrays.fill(srcVersion, -1);
        while (b.underMoveCap() && !pending.isEmpty()) {
            double[] latency = p.latencies();
            double m = merit.of(latency);
            int bestIndex = -1;
            double bestMerit = m;
            for (int k = 0; k < pending.size(); k++) {
                int uIndex = pending.get(k);
                MovableUnit unit = units.get(uIndex);
                int src = p.datastoreOf(unit);
                int dst = target[uIndex];
                if (b.hasMoved(unit) || !RuleChecker.allows(p, unit.vm(), unit.disks(), dst, false)) {
                    continue;
                }
                if (srcOf[uIndex] != src || srcVersion[uIndex] != p.load(src).version()
                        || dstVersion[uIndex] != p.load(dst).version()) {
                    srcAfter[uIndex] = p.load(src).predictWith(null, unit.disks(), null).latencyMs();
                    dstAfter[uIndex] = p.load(dst).predictWith(unit.disks(), null, null).latencyMs();
                    srcOf[uIndex] = src;
                    srcVersion[uIndex] = p.load(src).version();
                    dstVersion[uIndex] = p.load(dst).version();
                }
                double oldS = latency[src];
                double oldD = latency[dst];
                latency[src] = srcAfter[uIndex];
                latency[dst] = dstAfter[uIndex];
                double candidate = merit.of(latency);
                latency[src] = oldS;
                latency[dst] = oldD;
                if (candidate < bestMerit) {
                    bestMerit = candidate;
                    bestIndex = k;
                }
            }
            if (bestIndex < 0) {
                b.note("no remaining move toward the annealed placement reduces the merit");
                break;
            }
            MovableUnit unit = units.get(pending.get(bestIndex));
            int src = p.datastoreOf(unit);
            int dst = target[pending.get(bestIndex)];
            pending.remove(bestIndex);
            CostBenefit.Result r = costBenefit.evaluate(unit, src, dst);
            if (costBenefitFilter) {
                String refused = !r.worthwhile() ? "benefit's lower bound below the cost's upper bound"
                        : costBenefit.raisesPerIoLatency(unit, src, dst, r) ? "the pair's IO rate would fall: per-IO latency up"
                        : null;
                if (refused == null) {
                    double pessimistic = pessimisticMerit(latency, src, dst, r);
                    if (!(pessimistic < m)) {
                        refused = String.format(Locale.ROOT,
                                "the merit at the intervals' upper ends (%.3f ms) is not below the current %.3f ms", pessimistic, m);
                    }
                }
                if (refused != null) {
                    if (++dropped <= NOTED_DROPS) {
                        b.note(String.format(Locale.ROOT, "not moved: %s from %s to %s (%s)", p.unitName(unit),
                                p.datastoreName(src), p.datastoreName(dst), refused));
                    }
                    continue;
                }
            }
            String summary = String.format(Locale.ROOT,
                    "merit M = (Σ P^%.0f)^(1/%.0f) %.3f → %.3f ms, the largest reduction toward the annealed placement "
                            + "(Romano Eq. 25, Algorithm 1); moving %s from %s to %s: source %s, destination %s "
                            + "(%s, %s); %s",
                    MeritMetric.ROMANO_ALPHA, MeritMetric.ROMANO_ALPHA, m, bestMerit, p.unitName(unit), p.datastoreName(src),
                    p.datastoreName(dst), r.source().latencyChange(), r.destination().latencyChange(), r.source().model(),
                    r.destination().model(), r.describe());
            b.add(unit, dst, ReasonCode.BALANCE_DATASTORE_IO_LOAD, summary, List.of(r.source(), r.destination()), r.cost(),
                    r.benefit(), false);
            made++;
        }
        if (dropped > NOTED_DROPS) {
            b.note((dropped - NOTED_DROPS) + " more moves toward the annealed placement not made for the same reasons");
        }
        return made;
    }
}
