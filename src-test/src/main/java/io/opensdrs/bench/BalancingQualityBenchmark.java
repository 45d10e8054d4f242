package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.testbed.world.SteadyStateRun;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * B2, balancing quality (SPEC §8; Pesto Table 2, Romano Fig. 11): every world balanced by
 * every strategy in the testbed ({@link BalancingTrial}), summarized per world group and
 * strategy.
 */
public final class BalancingQualityBenchmark {

    /**
     * A world to balance and the group its row belongs to; {@code ioBalanced}: first re-place its
     * VMs as Pesto Table 2's "IO balanced" setup ({@link BalancingTrial#ioBalanced}).
     */
    public record GroupedWorld(String group, Scenario scenario, boolean ioBalanced) {
        public GroupedWorld(String group, Scenario scenario) {
            this(group, scenario, false);
        }
    }

    /**
     * One row of the B2 table. Changes are pooled over the group's worlds, as Romano Fig. 11
     * pools 50 test cases: Σ after / Σ before − 1 of the per-world per-IO latency, worst
     * datastore p90, mean datastore latency, max datastore latency and variance of datastore
     * latencies.
     *
     * @param worse          worlds made worse: per-IO latency or worst p90 up by more than 2 %
     *                       ({@link DatastoreLatencies#worse})
     * @param worseAny       worlds whose mean datastore latency rose (Pesto Table 2 "any")
     * @param worseOver10    worlds whose mean datastore latency rose by more than 10 %
     * @param worsePerIo     worlds whose per-IO mean latency (what the VMs see) rose at all
     * @param worlds         worlds scored (settled); every other column but {@code unsettled} is over these
     * @param unsettled      worlds whose copies had not finished within the virtual-time budget (not scored)
     * @param captured       the pooled per-IO gain (Σ before − Σ after) over the group's worlds that
     *                       have a {@code measured} reference, ÷ the reference's on the same worlds; an
     *                       unsettled world gains nothing; NaN without a reference
     * @param movedBack      disks moved back to a datastore they had left, over all runs (oscillation)
     */
    public record Row(String group, String strategy, int worlds, int worse, int worseAny, int worseOver10, int worsePerIo,
                      double perIoChange, double worstP90Change, double meanChange, double maxChange,
                      double varianceChange, double captured, double movesMean, int movesMax, int unsettled,
                      int movedBack) {
        public double worseShare() {
            return worlds == 0 ? 0 : (double) worse / worlds;
        }

        public double worseAnyShare() {
            return worlds == 0 ? 0 : (double) worseAny / worlds;
        }

        public double worseOver10Share() {
            return worlds == 0 ? 0 : (double) worseOver10 / worlds;
        }
    }

    /**
     * One group and strategy after run {@code run} of {@code --runs}: worlds that moved anything in
     * that run (not yet converged), moves per world in it, disks moved back in it, the pooled
     * per-IO change since the start and the captured share after it.
     */
    public record RunRow(String group, String strategy, int run, int worlds, int moving, double movesMean, int movedBack,
                         double perIoChange, double captured) {
    }

    /** @param exhaustiveMoves the moves the exhaustive rows searched within (0: none) */
    public record Result(List<Row> rows, List<BalancingTrial.Outcome> outcomes, int exhaustiveMoves, List<RunRow> runRows) {
        public Result(List<Row> rows, List<BalancingTrial.Outcome> outcomes, int exhaustiveMoves) {
            this(rows, outcomes, exhaustiveMoves, List.of());
        }
    }

    private final List<String> strategies;
    private final BalancingSettings settings;
    private final long seed;
    private final long injectorIos;
    private final int referenceMoves;
    private final int exhaustiveMoves;
    private final java.util.Set<String> referenceGroups;
    private final int runs;

    public BalancingQualityBenchmark(List<String> strategies, BalancingSettings settings, long seed, long injectorIos) {
        this(strategies, settings, seed, injectorIos, 0, 0, java.util.Set.of());
    }

    public BalancingQualityBenchmark(List<String> strategies, BalancingSettings settings, long seed, long injectorIos,
                                     int referenceMoves, int exhaustiveMoves, java.util.Set<String> referenceGroups) {
        this(strategies, settings, seed, injectorIos, referenceMoves, exhaustiveMoves, referenceGroups, 1);
    }

    /**
     * @param referenceMoves  moves of the {@link MeasuredGreedyReference} row (0: none)
     * @param exhaustiveMoves moves of the {@link MeasuredExhaustiveReference} rows (0: none)
     * @param referenceGroups the world groups that get those rows
     * @param runs            balancing runs in a row per world and strategy ({@link BalancingTrial#run(Scenario, String, String, long, int)})
     */
    public BalancingQualityBenchmark(List<String> strategies, BalancingSettings settings, long seed, long injectorIos,
                                     int referenceMoves, int exhaustiveMoves, java.util.Set<String> referenceGroups, int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be ≥ 1, was " + runs);
        }
        this.runs = runs;
        this.strategies = List.copyOf(strategies);
        this.settings = settings;
        this.seed = seed;
        this.injectorIos = injectorIos;
        this.referenceMoves = referenceMoves;
        this.exhaustiveMoves = exhaustiveMoves;
        this.referenceGroups = java.util.Set.copyOf(referenceGroups);
    }

    public Result run(List<GroupedWorld> worlds, ExecutorService executor) throws InterruptedException {
        InjectorObservations injector = new InjectorObservations(injectorIos, seed, null);
        BalancingTrial trial = new BalancingTrial(injector, settings);
        List<Future<List<BalancingTrial.Outcome>>> futures = new ArrayList<>();
        for (int i = 0; i < worlds.size(); i++) {
            GroupedWorld gw = worlds.get(i);
            long trialSeed = seed * 1_000_003L + i;
            // this world's runs share their datastores' steady-state samples (released as its tasks finish)
            SteadyStateRun.Samples samples = new SteadyStateRun.Samples();
            for (String strategy : strategies) {
                futures.add(executor.submit(() -> List.of(trial.run(
                        gw.ioBalanced() ? trial.ioBalanced(gw.scenario()) : gw.scenario(), gw.group(), strategy, trialSeed,
                        runs, samples))));
            }
            if (referenceMoves > 0 && referenceGroups.contains(gw.group())) {
                MeasuredGreedyReference reference = new MeasuredGreedyReference(trial, referenceMoves);
                futures.add(executor.submit(() -> List.of(reference.run(
                        gw.ioBalanced() ? trial.ioBalanced(gw.scenario()) : gw.scenario(), gw.group(), trialSeed, samples))));
            }
            if (exhaustiveMoves > 0 && referenceGroups.contains(gw.group())) {
                MeasuredExhaustiveReference bound = new MeasuredExhaustiveReference(trial, exhaustiveMoves);
                futures.add(executor.submit(() -> bound.run(
                        gw.ioBalanced() ? trial.ioBalanced(gw.scenario()) : gw.scenario(), gw.group(), trialSeed, samples)));
            }
        }
        List<BalancingTrial.Outcome> outcomes = new ArrayList<>();
        for (Future<List<BalancingTrial.Outcome>> f : futures) {
            try {
                outcomes.addAll(f.get());
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                throw new IllegalStateException(c.getClass().getSimpleName() + ": " + c.getMessage(), c);
            }
        }
        return new Result(summarize(outcomes), outcomes, exhaustiveMoves, runs > 1 ? summarizeRuns(outcomes, runs) : List.of());
    }

    static List<Row> summarize(List<BalancingTrial.Outcome> outcomes) {
        Map<String, BalancingTrial.Outcome> reference = references(outcomes);
        List<Row> rows = new ArrayList<>();
        for (List<BalancingTrial.Outcome> list : byGroupAndStrategy(outcomes).values()) {
            int worse = 0;
            int worseMean = 0;
            int worse10 = 0;
            int worsePerIo = 0;
            int unsettled = 0;
            int movesMax = 0;
            int movedBack = 0;
            double moves = 0;
            double[] before = new double[5];
            double[] after = new double[5];
            int settled = 0;
            for (BalancingTrial.Outcome o : list) {
                if (!o.settled()) {
                    // A copy that never finishes (the testbed's shortest-seek-first spindles can starve
                    // a stream for good) leaves no "after" state to compare; counted, not scored.
                    unsettled++;
                    continue;
                }
                settled++;
                double b = o.before().mean();
                double a = o.after().mean();
                if (DatastoreLatencies.worse(o.before(), o.after())) {
                    worse++;
                }
                if (a > b) {
                    worseMean++;
                }
                if (a > 1.1 * b) {
                    worse10++;
                }
                if (o.after().perIoMeanMs() > o.before().perIoMeanMs()) {
                    worsePerIo++;
                }
                moves += o.moves();
                movesMax = Math.max(movesMax, o.moves());
                movedBack += o.movedBack();
                before[0] += o.before().perIoMeanMs();
                after[0] += o.after().perIoMeanMs();
                before[1] += o.before().worstP90();
                after[1] += o.after().worstP90();
                before[2] += b;
                after[2] += a;
                before[3] += o.before().max();
                after[3] += o.after().max();
                before[4] += o.before().variance();
                after[4] += o.after().variance();
            }
            BalancingTrial.Outcome first = list.get(0);
            rows.add(new Row(first.group(), first.strategy(), settled, worse, worseMean, worse10, worsePerIo,
                    change(before[0], after[0]), change(before[1], after[1]), change(before[2], after[2]),
                    change(before[3], after[3]), change(before[4], after[4]),
                    captured(list, reference, o -> o.after()), settled == 0 ? 0 : moves / settled, movesMax, unsettled,
                    movedBack));
        }
        return rows;
    }

    /** Per group and strategy, run by run: what each run of {@code --runs} did and where the worlds stood after it. */
    static List<RunRow> summarizeRuns(List<BalancingTrial.Outcome> outcomes, int runs) {
        Map<String, BalancingTrial.Outcome> reference = references(outcomes);
        List<RunRow> rows = new ArrayList<>();
        for (List<BalancingTrial.Outcome> list : byGroupAndStrategy(outcomes).values()) {
            BalancingTrial.Outcome first = list.get(0);
            if (isReference(first.strategy())) {
                continue;
            }
            for (int k = 0; k < runs; k++) {
                int run = k;
                int worlds = 0;
                int moving = 0;
                int movedBack = 0;
                double moves = 0;
                double before = 0;
                double after = 0;
                for (BalancingTrial.Outcome o : list) {
                    if (!o.settled() || o.runs().size() <= run) {
                        continue;
                    }
                    BalancingTrial.Run r = o.runs().get(run);
                    worlds++;
                    moving += r.moves() > 0 ? 1 : 0;
                    moves += r.moves();
                    movedBack += r.movedBack();
                    before += o.before().perIoMeanMs();
                    after += r.after().perIoMeanMs();
                }
                rows.add(new RunRow(first.group(), first.strategy(), run + 1, worlds, moving, worlds == 0 ? 0 : moves / worlds,
                        movedBack, change(before, after), captured(list, reference,
                        o -> o.runs().size() > run ? o.runs().get(run).after() : o.after())));
            }
        }
        return rows;
    }

    private static boolean isReference(String strategy) {
        return strategy.equals(MeasuredGreedyReference.NAME) || strategy.startsWith("best-");
    }

    private static Map<String, List<BalancingTrial.Outcome>> byGroupAndStrategy(List<BalancingTrial.Outcome> outcomes) {
        Map<String, List<BalancingTrial.Outcome>> byKey = new LinkedHashMap<>();
        for (BalancingTrial.Outcome o : outcomes) {
            byKey.computeIfAbsent(o.group() + "\u0000" + o.strategy(), k -> new ArrayList<>()).add(o);
        }
        return byKey;
    }

    /** The {@code measured} reference's outcome of each world, by group and world. */
    private static Map<String, BalancingTrial.Outcome> references(List<BalancingTrial.Outcome> outcomes) {
        Map<String, BalancingTrial.Outcome> out = new LinkedHashMap<>();
        for (BalancingTrial.Outcome o : outcomes) {
            if (o.strategy().equals(MeasuredGreedyReference.NAME)) {
                out.put(o.group() + "\u0000" + o.world(), o);
            }
        }
        return out;
    }

    /**
     * The captured share (issue's goal line): Σ (before − after) of per-IO latency over the
     * worlds that have a reference, a world whose copies never finished gaining nothing, ÷ the
     * reference's Σ (before − after) on the same worlds. NaN without a reference or when the
     * reference gains nothing.
     */
    private static double captured(List<BalancingTrial.Outcome> list, Map<String, BalancingTrial.Outcome> reference,
                                   java.util.function.Function<BalancingTrial.Outcome, DatastoreLatencies> afterOf) {
        double gain = 0;
        double referenceGain = 0;
        int matched = 0;
        for (BalancingTrial.Outcome o : list) {
            BalancingTrial.Outcome r = reference.get(o.group() + "\u0000" + o.world());
            if (r == null) {
                continue;
            }
            matched++;
            referenceGain += r.before().perIoMeanMs() - r.after().perIoMeanMs();
            if (o.settled()) {
                gain += o.before().perIoMeanMs() - afterOf.apply(o).perIoMeanMs();
            }
        }
        return matched == 0 || !(referenceGain > 0) ? Double.NaN : gain / referenceGain;
    }

    private static double change(double before, double after) {
        return before == 0 ? 0 : after / before - 1;
    }
}
