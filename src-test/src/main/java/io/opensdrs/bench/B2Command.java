package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.StrategyRegistry;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.ScenarioCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code sdrs bench b2}: balancing quality in the testbed (SPEC §8 B2; Pesto Table 2, Romano Fig. 11). */
@Command(name = "b2", mixinStandardHelpOptions = true,
        description = {"B2 balancing quality: generated Pesto-like and Romano-like worlds (or given scenario files), "
                + "each balanced once by each strategy in the testbed's virtual time: steady-state datastore "
                + "latencies before, the plan applied with its copy load, steady state after.",
                "Prints per world group and strategy the share of worlds that got worse, the pooled change of "
                        + "mean and max datastore latency and of their variance, and moves per run."})
public final class B2Command implements Callable<Integer> {
    static final String PESTO_LIKE = "pesto-like";
    static final String ROMANO_LIKE = "romano-like";
    static final String GIVEN = "given";
    static final String PESTO_SPACE = "pesto-space";
    static final String PESTO_IO = "pesto-io";
    private static final List<String> PESTO_SETUPS = List.of("space", "io", "none");

    @Option(names = "--worlds", defaultValue = "150",
            description = "generated worlds in all, half Pesto-like and half Romano-like (default ${DEFAULT-VALUE})")
    int worlds;

    @Option(names = "--pesto-setups", split = ",", defaultValue = "space,io",
            description = "Pesto Table 2's initial setups to run the Pesto-like worlds in as well, each its own row: "
                    + "space (pesto-space: space balanced) and io (pesto-io: IO balanced by the product's initial "
                    + "placement); none for neither. The random placement (pesto-like) always runs (default ${DEFAULT-VALUE})")
    List<String> pestoSetups;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(names = "--scenario", arity = "1..*", description = "balance these scenario files (or shipped names) instead")
    List<String> scenarios;

    @Option(names = "--strategy", split = ",", description = "strategies (default: all registered: basil, pesto, romano)")
    List<String> strategies;

    @Option(names = "--injector-ios", defaultValue = "800", description = "IOs per injector point (default ${DEFAULT-VALUE})")
    long injectorIos;

    @Option(names = "--reference-moves", defaultValue = "3",
            description = "moves of the 'measured' reference row on the Romano-like and given worlds: each move the "
                    + "one that lowers the mean datastore latency most when every candidate is measured in the testbed "
                    + "(no model); 0 for no such row (default ${DEFAULT-VALUE})")
    int referenceMoves;

    @Option(names = "--exhaustive-moves", defaultValue = "0",
            description = "measure every placement within this many single-VM moves on the Romano-like and given worlds "
                    + "and add the best by mean, max and variance as rows best-mean, best-max, best-var: what no balancer "
                    + "making that many moves can beat; costly, grows as VMs^k (default ${DEFAULT-VALUE}: none)")
    int exhaustiveMoves;

    @Option(names = "--threads", description = "worker threads (default: available processors)")
    Integer threads;

    @Option(names = "--csv", description = "write one row per world and strategy to this CSV file")
    Path csv;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        List<String> names = strategies != null ? strategies
                : new ArrayList<>(StrategyRegistry.withBuiltInStrategies().names());
        for (String s : names) {
            if (!StrategyRegistry.withBuiltInStrategies().names().contains(s)) {
                throw new IllegalArgumentException("unknown strategy '" + s + "' (--strategy); known: "
                        + String.join(", ", StrategyRegistry.withBuiltInStrategies().names()));
            }
        }
        if (referenceMoves < 0) {
            throw new IllegalArgumentException("--reference-moves must be ≥ 0, was " + referenceMoves);
        }
        if (exhaustiveMoves < 0) {
            throw new IllegalArgumentException("--exhaustive-moves must be ≥ 0, was " + exhaustiveMoves);
        }
        List<BalancingQualityBenchmark.GroupedWorld> list = new ArrayList<>();
        if (scenarios != null && !scenarios.isEmpty()) {
            for (String f : scenarios) {
                list.add(new BalancingQualityBenchmark.GroupedWorld(GIVEN, ScenarioCatalog.resolve(f)));
            }
        } else {
            if (worlds < 1) {
                throw new IllegalArgumentException("--worlds must be ≥ 1");
            }
            for (String setup : pestoSetups) {
                if (!PESTO_SETUPS.contains(setup)) {
                    throw new IllegalArgumentException("unknown Pesto-like setup '" + setup + "' (--pesto-setups); known: "
                            + String.join(", ", PESTO_SETUPS));
                }
            }
            List<DatastoreSpec> romanoDatastores = ScenarioCatalog.example("romano-testbed").datastores();
            int pesto = (worlds + 1) / 2;
            // The random placements and the Romano-like worlds first: their trial seeds do not depend on the setups run.
            for (int i = 0; i < pesto; i++) {
                list.add(new BalancingQualityBenchmark.GroupedWorld(PESTO_LIKE, BalancingWorlds.pestoLike(seed * 10_007L + i)));
            }
            for (int i = 0; i < worlds - pesto; i++) {
                list.add(new BalancingQualityBenchmark.GroupedWorld(ROMANO_LIKE,
                        BalancingWorlds.romanoLike(seed * 10_009L + i, romanoDatastores)));
            }
            if (pestoSetups.contains("space")) {
                for (int i = 0; i < pesto; i++) {
                    list.add(new BalancingQualityBenchmark.GroupedWorld(PESTO_SPACE,
                            BalancingWorlds.spaceBalanced(BalancingWorlds.pestoLike(seed * 10_007L + i))));
                }
            }
            if (pestoSetups.contains("io")) {
                for (int i = 0; i < pesto; i++) {
                    list.add(new BalancingQualityBenchmark.GroupedWorld(PESTO_IO, BalancingWorlds.pestoLike(seed * 10_007L + i),
                            true));
                }
            }
        }
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        ExecutorService executor = Executors.newFixedThreadPool(Math.max(1, n));
        long t0 = System.nanoTime();
        BalancingQualityBenchmark.Result result;
        try {
            result = new BalancingQualityBenchmark(names, BalancingSettings.defaults(), seed, injectorIos,
                    referenceMoves, exhaustiveMoves, java.util.Set.of(ROMANO_LIKE, GIVEN)).run(list, executor);
        } finally {
            executor.shutdownNow();
        }
        print(result, out);
        out.printf(Locale.ROOT, "%nelapsed %.1f s, %d threads%n", (System.nanoTime() - t0) / 1e9, n);
        if (csv != null) {
            writeCsv(result, csv);
            out.println("csv: " + csv);
        }
        return 0;
    }

    static void print(BalancingQualityBenchmark.Result r, PrintStream out) {
        out.println("B2 balancing quality — steady state before and after one balancing run, testbed virtual time");
        out.println("(Δ pooled over the group's worlds: Σ after / Σ before − 1; worse = mean datastore latency rose;"
                + " n = worlds scored; unsettled = worlds whose storage vMotion never finished, not scored)");
        out.println();
        out.printf(Locale.ROOT, "%-12s %-9s %6s %8s %9s %8s %8s %8s %8s %9s %7s %5s %9s%n", "worlds", "strategy", "n",
                "worse", "worse>10%", "Δmean", "Δmax", "Δvar", "Δper-IO", "worse/IO", "moves", "max", "unsettled");
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            out.printf(Locale.ROOT, "%-12s %-9s %6d %7.1f%% %8.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %8.1f%% %7.2f %5d %9d%n",
                    row.group(), row.strategy(), row.worlds(), row.worseAnyShare() * 100, row.worseOver10Share() * 100,
                    row.meanChange() * 100, row.maxChange() * 100, row.varianceChange() * 100, row.perIoChange() * 100,
                    100.0 * row.worsePerIo() / Math.max(1, row.worlds()), row.movesMean(), row.movesMax(),
                    row.unsettled());
        }
        out.println();
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            if (row.strategy().equals("pesto") || row.strategy().equals("romano")) {
                out.printf(Locale.ROOT, "goal %s 0 %% worse (%s): %.1f %% — %s%n", row.strategy(), row.group(),
                        row.worseAnyShare() * 100, row.worseAny() == 0 ? "met" : "missed");
            }
            if (row.strategy().equals("romano") && row.group().equals(ROMANO_LIKE)) {
                out.printf(Locale.ROOT, "goal romano (romano-like) mean ≤ −50 %%: %.1f %% — %s; variance ≤ −80 %%: %.1f %% — %s; "
                                + "max ≤ −75 %%: %.1f %% — %s; moves ≤ 2.6: %.2f — %s%n",
                        row.meanChange() * 100, row.meanChange() <= -0.5 ? "met" : "missed",
                        row.varianceChange() * 100, row.varianceChange() <= -0.8 ? "met" : "missed",
                        row.maxChange() * 100, row.maxChange() <= -0.75 ? "met" : "missed",
                        row.movesMean(), row.movesMean() <= 2.6 ? "met" : "missed");
            }
            if (row.strategy().equals(MeasuredExhaustiveReference.BEST_MEAN)) {
                printBound(r, row.group(), out);
            }
            if (row.strategy().equals(MeasuredGreedyReference.NAME)) {
                for (String model : List.of("romano", "pesto")) {
                    int sides = 0;
                    int inside = 0;
                    for (BalancingTrial.Outcome o : r.outcomes()) {
                        if (o.intervals() != null && o.group().equals(row.group())) {
                            MeasuredGreedyReference.Count c = model.equals("romano") ? o.intervals().romano() : o.intervals().pesto();
                            sides += c.sides();
                            inside += c.inside();
                        }
                    }
                    out.printf(Locale.ROOT, "%s's after-move bounds (%s): every single-VM move from the first placement, each "
                                    + "datastore's measured mean after it inside the cost-benefit's 95 %% bounds in %d of %d (%.1f %%)%n",
                            model, row.group(), inside, sides, sides == 0 ? Double.NaN : 100.0 * inside / sides);
                }
                out.printf(Locale.ROOT, "reference (%s): each move chosen by measuring every candidate in the testbed, at most "
                                + "%d: mean %.1f %%, variance %.1f %%, max %.1f %%, %.2f moves — what single-VM moves can reach "
                                + "on these devices without model error%n",
                        row.group(), row.movesMax(), row.meanChange() * 100, row.varianceChange() * 100,
                        row.maxChange() * 100, row.movesMean());
            }
        }
    }

    /**
     * The exhaustive rows side by side with romano's goals: each is the most any balancer making at
     * most that many single-VM moves per world reaches on the group's worlds, so a goal beyond it is
     * out of reach for every strategy, not only for the product's.
     */
    private static void printBound(BalancingQualityBenchmark.Result r, String group, PrintStream out) {
        BalancingQualityBenchmark.Row mean = null;
        BalancingQualityBenchmark.Row max = null;
        BalancingQualityBenchmark.Row variance = null;
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            if (row.group().equals(group)) {
                switch (row.strategy()) {
                    case MeasuredExhaustiveReference.BEST_MEAN -> mean = row;
                    case MeasuredExhaustiveReference.BEST_MAX -> max = row;
                    case MeasuredExhaustiveReference.BEST_VARIANCE -> variance = row;
                    default -> { }
                }
            }
        }
        if (mean == null || max == null || variance == null) {
            return;
        }
        out.printf(Locale.ROOT, "bound (%s): every placement within %d single-VM move%s measured, the best of each world: "
                        + "mean %.1f %% (goal −50 %%: %s), variance %.1f %% (goal −80 %%: %s), max %.1f %% (goal −75 %%: %s)%n",
                group, r.exhaustiveMoves(), r.exhaustiveMoves() == 1 ? "" : "s",
                mean.meanChange() * 100, mean.meanChange() <= -0.5 ? "within reach" : "beyond any such balancer",
                variance.varianceChange() * 100, variance.varianceChange() <= -0.8 ? "within reach" : "beyond any such balancer",
                max.maxChange() * 100, max.maxChange() <= -0.75 ? "within reach" : "beyond any such balancer");
    }

    static void writeCsv(BalancingQualityBenchmark.Result r, Path file) throws java.io.IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("group,world,strategy,datastores_before,mean_before_ms,mean_after_ms,max_before_ms,max_after_ms,"
                    + "var_before,var_after,per_io_before_ms,per_io_after_ms,moves,settled,copy_hours,interval_sides,"
                    + "interval_inside,pesto_interval_sides,pesto_interval_inside,notes,plan");
            for (BalancingTrial.Outcome o : r.outcomes()) {
                w.printf(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%b,%.3f,%s,%s,%s,%s,\"%s\",\"%s\"%n", o.group(),
                        o.world(), o.strategy(), o.before().byDatastore().size(), o.before().mean(), o.after().mean(),
                        o.before().max(), o.after().max(), o.before().variance(), o.after().variance(),
                        o.before().perIoMeanMs(), o.after().perIoMeanMs(), o.moves(), o.settled(), o.copyHours(),
                        o.intervals() == null ? "" : o.intervals().romano().sides(),
                        o.intervals() == null ? "" : o.intervals().romano().inside(),
                        o.intervals() == null ? "" : o.intervals().pesto().sides(),
                        o.intervals() == null ? "" : o.intervals().pesto().inside(),
                        String.join("; ", o.notes()).replace("\"", "'"),
                        String.join(" | ", o.plan()).replace("\"", "'"));
            }
        }
    }
}
