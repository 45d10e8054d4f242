package io.opensdrs.balance.pesto;

import io.opensdrs.balance.BalancingRun;
import io.opensdrs.balance.BalancingStrategy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.Estimate;
import io.opensdrs.balance.IoLoadTrigger;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.MovePlanBuilder;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.RuleChecker;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.model.Prediction;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Pesto's IO load balancing (Gulati et al., SoCC'11, §5.4): equalize latency across
 * datastores, one move at a time, each move filtered and then judged by cost and benefit.
 * <ol>
 *   <li>Sources: datastores over the SDRS IO threshold at p90, worst first.</li>
 *   <li>Filter (§5.4): skip a move when the source's 50th–90th percentile latencies are lower
 *       than the destination's — read as "lower at any of p50, p70, p90", so that a move
 *       must not make any percentile of the pair worse by design.</li>
 *   <li>{@link CostBenefit} (Eqs. 10–11, on interval bounds): the move must pay.</li>
 *   <li>Beyond the seeds: the pair's IO rate must be predicted to rise, so that the VMs' per-IO
 *       latency falls ({@link CostBenefit#raisesPerIoLatency}); the destination with the disk must
 *       be predicted faster than the source with it ({@link #overshoots}).</li>
 *   <li>Among worthwhile moves, the one with the largest margin (benefit's lower bound minus
 *       cost's upper bound); repeat until no move pays or the move cap is reached.</li>
 * </ol>
 * The search looks at the heaviest units (by outstanding IOs) of each source and the
 * least-loaded destinations, bounded so that a 64 × 9,000 cluster plans in milliseconds.
 */
public final class LatencyEqualization implements BalancingStrategy {

    public static final String NAME = "pesto";

    private final int sourcesPerStep;
    private final int unitsPerSource;
    private final int destinationsPerSource;

    public LatencyEqualization() {
        this(4, 48, 16);
    }

    public LatencyEqualization(int sourcesPerStep, int unitsPerSource, int destinationsPerSource) {
        this.sourcesPerStep = sourcesPerStep;
        this.unitsPerSource = unitsPerSource;
        this.destinationsPerSource = destinationsPerSource;
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
        int made = 0;
        while (b.underMoveCap()) {
            List<Integer> sources = IoLoadTrigger.overloaded(p);
            if (sources.isEmpty()) {
                break;
            }
            Candidate best = null;
            Refusals refused = new Refusals();
            int tried = 0;
            for (int s = 0; s < Math.min(sourcesPerStep, sources.size()) && best == null; s++) {
                best = bestMoveFrom(b, costBenefit, units, sources.get(s), refused);
                tried++;
            }
            if (best == null) {
                b.note(stopNote(p, sources.subList(0, tried), made, refused));
                break;
            }
            CostBenefit.Result r = best.result;
            String summary = String.format(Locale.ROOT,
                    "datastore %s is at %.1f ms p90, over the %.0f ms threshold; moving %s (%.1f GB, %.1f OIO) to %s: "
                            + "source %s, destination %s (%s, %s); %s",
                    p.state().names().datastore(r.source().datastoreId()), r.source().p90BeforeMs(), p.settings().ioLatencyThresholdMs(),
                    p.unitName(best.unit), best.unit.sizeGb(), best.unit.outstandingIos(), p.datastoreName(best.destination),
                    r.source().latencyChange(), r.destination().latencyChange(), r.source().model(), r.destination().model(),
                    r.describe());
            b.add(best.unit, best.destination, ReasonCode.BALANCE_DATASTORE_IO_LOAD, summary,
                    List.of(r.source(), r.destination()), r.cost(), r.benefit(), false);
            made++;
        }
    }

    /**
     * Why the run makes no further IO move, true of the run as a whole: "no IO move passes …" only when
     * none did; after some moves, which sources are still over the threshold. Either way with the
     * counted refusals, so that an administrator sees which check holds the datastore where it is.
     */
    static String stopNote(WorkingPlacement p, List<Integer> sources, int made, Refusals refused) {
        String from = String.join(", ", sources.stream().map(p::datastoreName).toList());
        String why = refused.describe(from, p.settings().ioImbalanceThresholdMs());
        if (made == 0) {
            return "no IO move passes Pesto's percentile filter, the rules, cost-benefit and the per-IO and overshoot guards; " + why;
        }
        String p90 = String.join(", ", sources.stream().map(j -> Estimate.ms(p.p90(j)) + " ms").toList());
        return String.format(Locale.ROOT, "after %d IO move%s %s %s still over the %.0f ms threshold (p90 %s as the run predicts it); %s",
                made, made == 1 ? "" : "s", from, sources.size() == 1 ? "is" : "are", p.settings().ioLatencyThresholdMs(), p90, why);
    }

    private Candidate bestMoveFrom(MovePlanBuilder b, CostBenefit costBenefit, List<MovableUnit> units, int src, Refusals refused) {
        WorkingPlacement p = b.placement();
        double[] sp = p.percentiles(src);
        List<Integer> destinations = IoLoadTrigger.destinations(p, src, destinationsPerSource);
        if (destinations.isEmpty()) {
            refused.noDestination++;
            return null;
        }
        List<MovableUnit> candidates = p.unitsOn(units, src);
        candidates.removeIf(b::hasMoved);
        candidates.sort(Comparator.comparingDouble((MovableUnit u) -> -u.outstandingIos()));
        if (candidates.size() > unitsPerSource) {
            candidates = candidates.subList(0, unitsPerSource);
        }
        Candidate best = null;
        for (MovableUnit u : candidates) {
            if (u.outstandingIos() <= 0) {
                continue;
            }
            Prediction srcAfter = null;
            for (int dst : destinations) {
                refused.candidates++;
                if (sourceBetterSomewhere(sp, p.percentiles(dst))) {
                    refused.filter++;
                    continue;
                }
                if (!RuleChecker.allows(p, u.vm(), u.disks(), dst, false)) {
                    refused.rules++;
                    continue;
                }
                if (srcAfter == null) {
                    srcAfter = p.load(src).predictWith(null, u.disks(), null);
                }
                CostBenefit.Result r = costBenefit.evaluate(u, src, dst, srcAfter);
                if (!r.worthwhile()) {
                    refused.costBenefit++;
                } else if (overshoots(r)) {
                    refused.overshoot++;
                } else if (costBenefit.raisesPerIoLatency(u, src, dst, r)) {
                    refused.perIo++;
                } else if (best == null || r.margin() > best.result.margin()) {
                    best = new Candidate(u, dst, r);
                }
            }
        }
        return best;
    }

    /** Why the candidate moves of one step were refused, counted, for the run's note. */
    static final class Refusals {
        int candidates;
        int noDestination;
        int filter;
        int rules;
        int costBenefit;
        int overshoot;
        int perIo;

        /**
         * "of the 8 candidate moves (unit, destination) from gold-7k1, 4 fail Pesto's percentile filter, 2 do not pay
         * (Eqs. 10–11 on bounds), 2 would raise per-IO latency".
         */
        String describe(String from, double imbalanceMs) {
            List<String> parts = new java.util.ArrayList<>();
            if (filter > 0) {
                parts.add(filter + " fail Pesto's percentile filter");
            }
            if (rules > 0) {
                parts.add(rules + " break a rule");
            }
            if (costBenefit > 0) {
                parts.add(costBenefit + " do not pay (Eqs. 10–11 on bounds)");
            }
            if (overshoot > 0) {
                parts.add(overshoot + " overshoot (the destination would be slower than the source is)");
            }
            if (perIo > 0) {
                parts.add(perIo + " would raise per-IO latency");
            }
            List<String> out = new java.util.ArrayList<>();
            if (candidates > 0) {
                out.add(String.format(Locale.ROOT, "of the %d candidate move%s (unit, destination) from %s, %s", candidates,
                        candidates == 1 ? "" : "s", from, String.join(", ", parts)));
            }
            if (noDestination > 0) {
                out.add(String.format(Locale.ROOT, "%s no destination %.0f ms (the imbalance threshold) lower at p90",
                        noDestination == 1 ? "1 source has" : noDestination + " sources have", imbalanceMs));
            }
            if (out.isEmpty()) {
                out.add("every unit on " + from + " that does IO has moved in this run");
            }
            return String.join("; ", out);
        }
    }

    /**
     * Beyond the seeds: whether the move overshoots — the destination with the disk is predicted
     * slower than the source with it, so the pair's worst latency rises and the disk itself runs
     * slower. Equalization moves load toward the lower latency; Eq. 11 can still pay for such a
     * move because it weighs each latency by outstanding IOs, so many IOs on the source gaining
     * a little outweigh the moved disk losing much. An empty destination is not exempt: an
     * "IO-balanced" start (Pesto Table 2) can leave the slowest devices empty, and a heavy disk
     * moved onto one of them runs slower than where it was. Both sides are the models' means, so that the comparison is of like with like.
     */
    static boolean overshoots(CostBenefit.Result r) {
        return r.destination().latencyAfterMs().value() >= r.source().latencyBeforeMs().value();
    }

    /** Pesto §5.4's filter: true when the source's latency is lower than the destination's at any of p50, p70, p90. */
    static boolean sourceBetterSomewhere(double[] source, double[] destination) {
        for (int k = 0; k < 3; k++) {
            if (source[k] < destination[k]) {
                return true;
            }
        }
        return false;
    }

    private record Candidate(MovableUnit unit, int destination, CostBenefit.Result result) {
    }
}
