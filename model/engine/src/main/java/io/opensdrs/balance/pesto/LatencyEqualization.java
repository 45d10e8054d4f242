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
                java.util.function.Supplier<String> name = () -> p.unitName(u) + " → " + p.datastoreName(dst);
                double[] dp = p.percentiles(dst);
                if (sourceBetterSomewhere(sp, dp)) {
                    refused.add(Refusals.FILTER, () -> String.format(Locale.ROOT, "%s: p50/p70/p90 %s vs %s ms", name.get(), triple(sp), triple(dp)));
                    continue;
                }
                java.util.Optional<String> violation = RuleChecker.violation(p, u.vm(), u.disks(), dst, false);
                if (violation.isPresent()) {
                    refused.add(Refusals.RULES, () -> name.get() + ": " + violation.get());
                    continue;
                }
                if (srcAfter == null) {
                    srcAfter = p.load(src).predictWith(null, u.disks(), null);
                }
                CostBenefit.Result r = costBenefit.evaluate(u, src, dst, srcAfter);
                if (!r.worthwhile()) {
                    refused.add(Refusals.COST_BENEFIT, () -> name.get() + ": " + CostBenefit.describeRefusal(r));
                } else if (overshoots(r)) {
                    refused.add(Refusals.OVERSHOOT, () -> String.format(Locale.ROOT, "%s: destination %s ms with it, source %s ms now", name.get(),
                            Estimate.ms(r.destination().latencyAfterMs().value()), Estimate.ms(r.source().latencyBeforeMs().value())));
                } else if (costBenefit.raisesPerIoLatency(u, src, dst, r)) {
                    refused.add(Refusals.PER_IO, () -> {
                        double[] rates = costBenefit.pairRates(u, src, dst, r);
                        return String.format(Locale.ROOT, "%s: the pair's IO rate %.0f → %.0f IOPS, source %s, destination %s (%s)", name.get(),
                                rates[0], rates[1], r.source().latencyChange(), r.destination().latencyChange(), r.destination().model());
                    });
                } else if (best == null || r.margin() > best.result.margin()) {
                    best = new Candidate(u, dst, r);
                }
            }
        }
        return best;
    }

    /**
     * "13.60/14.58/30.43": p50/p70/p90 as the run believes them. A percentile the model's predicted fall has
     * shifted below zero is floored there ({@link WorkingPlacement#percentilesFor}), which is no latency: "0 (floored)".
     */
    static String triple(double[] v) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < v.length; k++) {
            b.append(k == 0 ? "" : "/").append(v[k] > 0 ? Estimate.ms(v[k]) : "0 (floored)");
        }
        return b.toString();
    }

    /**
     * Why the candidate moves of one step were refused, for the run's note: per check, how many, and the
     * first {@link #EXAMPLES} with the numbers the check read, so that an administrator sees which check
     * holds a datastore where it is.
     */
    static final class Refusals {
        static final int EXAMPLES = 3;
        static final int FILTER = 0;
        static final int RULES = 1;
        static final int COST_BENEFIT = 2;
        static final int OVERSHOOT = 3;
        static final int PER_IO = 4;
        private static final String[][] WHAT = {
                {"fails Pesto's percentile filter", "fail Pesto's percentile filter"},
                {"breaks a rule", "break a rule"},
                {"does not pay (Eqs. 10–11 on bounds)", "do not pay (Eqs. 10–11 on bounds)"},
                {"overshoots (the destination would be slower with it than the source is)",
                        "overshoot (the destination would be slower with them than the source is)"},
                {"would raise per-IO latency", "would raise per-IO latency"}};

        int candidates;
        int noDestination;
        private final int[] counts = new int[WHAT.length];
        private final List<List<String>> examples = new java.util.ArrayList<>();

        Refusals() {
            for (int i = 0; i < WHAT.length; i++) {
                examples.add(new java.util.ArrayList<>());
            }
        }

        /** Counts a refusal; its example is written only while fewer than {@link #EXAMPLES} are kept (planning stays cheap). */
        void add(int reason, java.util.function.Supplier<String> example) {
            counts[reason]++;
            if (examples.get(reason).size() < EXAMPLES) {
                examples.get(reason).add(example.get());
            }
        }

        int count(int reason) {
            return counts[reason];
        }

        /**
         * "of the 7 candidate moves (unit → destination) from gold-7k1: 4 would raise per-IO latency (VM gold-log4 →
         * gold-ssd1: the pair's IO rate 812 → 790 IOPS, …; …), 2 fail Pesto's percentile filter (…)".
         */
        String describe(String from, double imbalanceMs) {
            List<String> parts = new java.util.ArrayList<>();
            for (int i = 0; i < WHAT.length; i++) {
                if (counts[i] > 0) {
                    int more = counts[i] - examples.get(i).size();
                    parts.add(String.format(Locale.ROOT, "%d %s (%s%s)", counts[i], WHAT[i][counts[i] == 1 ? 0 : 1],
                            String.join("; ", examples.get(i)), more > 0 ? "; " + more + " more" : ""));
                }
            }
            List<String> out = new java.util.ArrayList<>();
            if (candidates > 0) {
                out.add(String.format(Locale.ROOT, "of the %d candidate move%s (unit → destination) from %s: %s", candidates,
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
