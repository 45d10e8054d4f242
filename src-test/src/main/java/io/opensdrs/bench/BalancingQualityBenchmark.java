package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.scenario.Scenario;

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
     * pools 50 test cases: Σ after / Σ before − 1 of the per-world mean datastore latency, of
     * the per-world max datastore latency, of the per-world variance of datastore latencies,
     * and of the cluster's per-IO mean latency.
     *
     * @param worseAny       worlds whose mean datastore latency rose (Pesto Table 2 "any")
     * @param worseOver10    worlds whose mean datastore latency rose by more than 10 %
     * @param worsePerIo     worlds whose per-IO mean latency (what the VMs see) rose
     * @param worlds         worlds scored (settled); every other column but {@code unsettled} is over these
     * @param unsettled      worlds whose copies had not finished within the virtual-time budget (not scored)
     */
    public record Row(String group, String strategy, int worlds, int worseAny, int worseOver10, int worsePerIo,
                      double meanChange, double maxChange, double varianceChange, double perIoChange,
                      double movesMean, int movesMax, int unsettled) {
        public double worseAnyShare() {
            return worlds == 0 ? 0 : (double) worseAny / worlds;
        }

        public double worseOver10Share() {
            return worlds == 0 ? 0 : (double) worseOver10 / worlds;
        }
    }

    /** @param exhaustiveMoves the moves the exhaustive rows searched within (0: none) */
    public record Result(List<Row> rows, List<BalancingTrial.Outcome> outcomes, int exhaustiveMoves) {
    }

    private final List<String> strategies;
    private final BalancingSettings settings;
    private final long seed;
    private final long injectorIos;
    private final int referenceMoves;
    private final int exhaustiveMoves;
    private final java.util.Set<String> referenceGroups;

    public BalancingQualityBenchmark(List<String> strategies, BalancingSettings settings, long seed, long injectorIos) {
        this(strategies, settings, seed, injectorIos, 0, 0, java.util.Set.of());
    }

    /**
     * @param referenceMoves  moves of the {@link MeasuredGreedyReference} row (0: none)
     * @param exhaustiveMoves moves of the {@link MeasuredExhaustiveReference} rows (0: none)
     * @param referenceGroups the world groups that get those rows
     */
    public BalancingQualityBenchmark(List<String> strategies, BalancingSettings settings, long seed, long injectorIos,
                                     int referenceMoves, int exhaustiveMoves, java.util.Set<String> referenceGroups) {
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
            for (String strategy : strategies) {
                futures.add(executor.submit(() -> List.of(trial.run(
                        gw.ioBalanced() ? trial.ioBalanced(gw.scenario()) : gw.scenario(), gw.group(), strategy, trialSeed))));
            }
            if (referenceMoves > 0 && referenceGroups.contains(gw.group())) {
                MeasuredGreedyReference reference = new MeasuredGreedyReference(trial, referenceMoves);
                futures.add(executor.submit(() -> List.of(reference.run(
                        gw.ioBalanced() ? trial.ioBalanced(gw.scenario()) : gw.scenario(), gw.group(), trialSeed))));
            }
            if (exhaustiveMoves > 0 && referenceGroups.contains(gw.group())) {
                MeasuredExhaustiveReference bound = new MeasuredExhaustiveReference(trial, exhaustiveMoves);
                futures.add(executor.submit(() -> bound.run(
                        gw.ioBalanced() ? trial.ioBalanced(gw.scenario()) : gw.scenario(), gw.group(), trialSeed)));
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
        return new Result(summarize(outcomes), outcomes, exhaustiveMoves);
    }

    static List<Row> summarize(List<BalancingTrial.Outcome> outcomes) {
        Map<String, List<BalancingTrial.Outcome>> byKey = new LinkedHashMap<>();
        for (BalancingTrial.Outcome o : outcomes) {
            byKey.computeIfAbsent(o.group() + "\u0000" + o.strategy(), k -> new ArrayList<>()).add(o);
        }
        List<Row> rows = new ArrayList<>();
        for (List<BalancingTrial.Outcome> list : byKey.values()) {
            int worse = 0;
            int worse10 = 0;
            int worsePerIo = 0;
            int unsettled = 0;
            int movesMax = 0;
            double moves = 0;
            double[] before = new double[4];
            double[] after = new double[4];
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
                if (a > b) {
                    worse++;
                }
                if (a > 1.1 * b) {
                    worse10++;
                }
                if (o.after().perIoMeanMs() > o.before().perIoMeanMs()) {
                    worsePerIo++;
                }
                moves += o.moves();
                movesMax = Math.max(movesMax, o.moves());
                before[0] += b;
                after[0] += a;
                before[1] += o.before().max();
                after[1] += o.after().max();
                before[2] += o.before().variance();
                after[2] += o.after().variance();
                before[3] += o.before().perIoMeanMs();
                after[3] += o.after().perIoMeanMs();
            }
            BalancingTrial.Outcome first = list.get(0);
            rows.add(new Row(first.group(), first.strategy(), settled, worse, worse10, worsePerIo,
                    change(before[0], after[0]), change(before[1], after[1]), change(before[2], after[2]),
                    change(before[3], after[3]), settled == 0 ? 0 : moves / settled, movesMax, unsettled));
        }
        return rows;
    }

    private static double change(double before, double after) {
        return before == 0 ? 0 : after / before - 1;
    }
}
