package io.opensdrs.balance;

import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.Prediction;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * SDRS space balancing (SPEC §4) with Pesto's choice of move (Pesto §5.5): while a datastore
 * is over its space threshold (80 % utilization, or under 50 GB free in free-space mode),
 * consider evicting its disks to datastores at least the minimum utilization difference [5 %]
 * emptier after the move and still under their own threshold, and take the move that leaves
 * the best IO balance (least variance of the datastores' predicted latencies). Reason
 * {@code datastoreSpaceOutage} when the source is full, else {@code balanceDatastoreSpaceUsage};
 * a datastore that cannot be brought under its threshold is reported as a fault.
 */
public final class SpaceBalancer {

    /** Largest units tried per source: the biggest disks free space with the fewest migrations. */
    static final int CANDIDATES_PER_SOURCE = 32;

    private SpaceBalancer() {
    }

    public static void balance(MovePlanBuilder b, CostBenefit costBenefit) {
        WorkingPlacement p = b.placement();
        List<MovableUnit> units = p.units();
        for (int src = 0; src < p.datastoreCount(); src++) {
            if (!p.overSpaceThreshold(src)) {
                continue;
            }
            while (p.overSpaceThreshold(src)) {
                if (!b.underMoveCap()) {
                    b.note("move cap reached while datastore " + p.datastoreName(src) + " is over its space threshold");
                    return;
                }
                if (!evictOne(b, costBenefit, units, src)) {
                    b.fault(new Fault(null, null, p.datastoreId(src), ReasonCode.BALANCE_DATASTORE_SPACE_USAGE,
                            String.format(Locale.ROOT, "datastore %s stays at %.1f %% used: no disk can move to a datastore "
                                            + "with room that respects the rules and the %.0f %% minimum difference",
                                    p.datastoreName(src), 100 * p.utilization(src), 100 * p.settings().minSpaceUtilizationDifference())));
                    break;
                }
            }
        }
    }

    private static boolean evictOne(MovePlanBuilder b, CostBenefit costBenefit, List<MovableUnit> units, int src) {
        WorkingPlacement p = b.placement();
        List<MovableUnit> candidates = p.unitsOn(units, src);
        candidates.removeIf(b::hasMoved);
        candidates.sort(Comparator.comparingDouble((MovableUnit u) -> -u.sizeGb()));
        if (candidates.size() > CANDIDATES_PER_SOURCE) {
            candidates = candidates.subList(0, CANDIDATES_PER_SOURCE);
        }
        double[] lat = p.latencies();
        int n = lat.length;
        double s1 = 0;
        double s2 = 0;
        for (double l : lat) {
            s1 += l;
            s2 += l * l;
        }
        MovableUnit best = null;
        int bestDst = -1;
        double bestVariance = Double.POSITIVE_INFINITY;
        Prediction bestSrcAfter = null;
        double srcUtil = p.utilization(src);
        for (MovableUnit u : candidates) {
            if (u.sizeGb() <= 0) {
                continue;
            }
            Prediction srcAfter = p.load(src).predictWith(null, u.disks(), null);
            for (int dst = 0; dst < n; dst++) {
                if (dst == src) {
                    continue;
                }
                double dstUtilAfter = (p.usedGb(dst) + u.sizeGb()) / p.capacityGb(dst);
                if (srcUtil - dstUtilAfter < p.settings().minSpaceUtilizationDifference()) {
                    continue;
                }
                if (!RuleChecker.allows(p, u.vm(), u.disks(), dst, false)) {
                    continue;
                }
                double ls = srcAfter.latencyMs();
                double ld = p.load(dst).predictWith(u.disks(), null, null).latencyMs();
                double t1 = s1 - lat[src] - lat[dst] + ls + ld;
                double t2 = s2 - lat[src] * lat[src] - lat[dst] * lat[dst] + ls * ls + ld * ld;
                double variance = t2 / n - (t1 / n) * (t1 / n);
                if (variance < bestVariance - 1e-12) {
                    bestVariance = variance;
                    best = u;
                    bestDst = dst;
                    bestSrcAfter = srcAfter;
                }
            }
        }
        if (best == null) {
            return false;
        }
        CostBenefit.Result r = costBenefit.evaluate(best, src, bestDst, bestSrcAfter);
        ReasonCode reason = p.usedGb(src) >= p.capacityGb(src) ? ReasonCode.DATASTORE_SPACE_OUTAGE
                : ReasonCode.BALANCE_DATASTORE_SPACE_USAGE;
        String summary = String.format(Locale.ROOT,
                "datastore %s is %.1f %% used, over its space threshold; moving %s (%.1f GB) to %s (%.1f %% used after) "
                        + "keeps latencies most balanced: source %s, destination %s; %s",
                p.datastoreName(src), 100 * srcUtil, p.unitName(best), best.sizeGb(), p.datastoreName(bestDst),
                100 * (p.usedGb(bestDst) + best.sizeGb()) / p.capacityGb(bestDst), r.source().latencyChange(),
                r.destination().latencyChange(), r.describe());
        b.add(best, bestDst, reason, summary, List.of(r.source(), r.destination()), r.cost(), r.benefit(), false);
        return true;
    }
}
