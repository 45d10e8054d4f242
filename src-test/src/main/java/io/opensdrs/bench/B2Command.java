package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.StrategyRegistry;
import io.opensdrs.balance.baseline.LatencyGreedy;
import io.opensdrs.balance.baseline.SpaceOnly;
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
                + "each balanced by each strategy in the testbed's virtual time (--runs times in a row): steady-state "
                + "latencies before, the plan applied with its copy load, steady state after.",
                "Prints per world group and strategy the share of worlds made worse (per-IO latency or worst datastore "
                        + "p90 up more than 2 %%), the pooled change of per-IO latency, worst p90, mean and max datastore "
                        + "latency and their variance, the share of the measured reference's per-IO gain captured, and "
                        + "moves per run."})
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

    @Option(names = "--strategy", split = ",", description = "strategies: the registry's (basil, pesto, romano, and the "
            + "baselines space-only and latency-greedy) and auto, what the server would run: each datastore's model kind "
            + "by held-out accuracy, the strategy by the registry's default rule (default: auto and all registered)")
    List<String> strategies;

    @Option(names = "--runs", defaultValue = "1",
            description = "balancing runs in a row per world, as the invocation-period schedule makes them, each measured; "
                    + "prints per run the worlds still moving, moves, disks moved back and the captured share (default ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--injector-ios", defaultValue = "800", description = "IOs per injector point (default ${DEFAULT-VALUE})")
    long injectorIos;

    @Option(names = "--reference-moves", defaultValue = "3",
            description = "moves of the 'measured' reference row on every group: each move the one that lowers the "
                    + "per-IO latency most, without the worst datastore p90 rising more than 2 %%, when every candidate "
                    + "is measured in the testbed (no model); the captured share is measured against it; 0 for no such "
                    + "row (default ${DEFAULT-VALUE})")
    int referenceMoves;

    @Option(names = "--exhaustive-moves", defaultValue = "0",
            description = "measure every placement within this many single-VM moves on every group and add the best by "
                    + "per-IO latency (worst p90 guarded), mean, max and variance as rows best-io, best-mean, best-max, "
                    + "best-var: what no balancer making that many moves can beat; costly, grows as VMs^k "
                    + "(default ${DEFAULT-VALUE}: none)")
    int exhaustiveMoves;

    @Option(names = "--threads", description = "worker threads (default: available processors)")
    Integer threads;

    @Option(names = "--csv", description = "write one row per world and strategy to this CSV file")
    Path csv;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        List<String> known = new ArrayList<>();
        known.add(BalancingTrial.AUTO);
        known.addAll(StrategyRegistry.withBuiltInStrategies().names());
        List<String> names = strategies != null ? strategies : known;
        for (String s : names) {
            if (!known.contains(s)) {
                throw new IllegalArgumentException("unknown strategy '" + s + "' (--strategy); known: " + String.join(", ", known));
            }
        }
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be ≥ 1, was " + runs);
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
                    referenceMoves, exhaustiveMoves, java.util.Set.of(PESTO_LIKE, ROMANO_LIKE, GIVEN, PESTO_SPACE, PESTO_IO), runs)
                    .run(list, executor);
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
        out.println("B2 balancing quality — steady state before and after balancing, testbed virtual time");
        out.println("(Δ pooled over the group's worlds: Σ after / Σ before − 1; worse = per-IO latency or worst datastore p90 up"
                + " > 2 %; captured = per-IO gain ÷ the measured reference's on the same worlds; worse-mean = mean datastore"
                + " latency rose; back = disks moved back; n = worlds scored; unsettled = copies never finished, not scored)");
        out.println();
        out.printf(Locale.ROOT, "%-12s %-14s %4s %7s %8s %8s %8s | %10s %9s %8s %8s %8s %8s %6s %4s %4s %9s%n", "worlds",
                "strategy", "n", "worse", "Δper-IO", "Δp90max", "captured", "worse-mean", "worse>10%", "Δmean", "Δmax", "Δvar",
                "worse/IO", "moves", "max", "back", "unsettled");
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            out.printf(Locale.ROOT, "%-12s %-14s %4d %6.1f%% %7.1f%% %7.1f%% %8s | %9.1f%% %8.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %6.2f %4d %4d %9d%n",
                    row.group(), row.strategy(), row.worlds(), row.worseShare() * 100, row.perIoChange() * 100,
                    row.worstP90Change() * 100, share(row.captured()), row.worseAnyShare() * 100, row.worseOver10Share() * 100,
                    row.meanChange() * 100, row.maxChange() * 100, row.varianceChange() * 100,
                    100.0 * row.worsePerIo() / Math.max(1, row.worlds()), row.movesMean(), row.movesMax(), row.movedBack(),
                    row.unsettled());
        }
        if (!r.runRows().isEmpty()) {
            out.println();
            out.println("run by run (moving = worlds with a move in that run; Δper-IO and captured since the start)");
            out.printf(Locale.ROOT, "%-12s %-14s %4s %4s %7s %7s %5s %8s %8s%n", "worlds", "strategy", "run", "n", "moving",
                    "moves", "back", "Δper-IO", "captured");
            for (BalancingQualityBenchmark.RunRow row : r.runRows()) {
                out.printf(Locale.ROOT, "%-12s %-14s %4d %4d %7d %7.2f %5d %7.1f%% %8s%n", row.group(), row.strategy(), row.run(),
                        row.worlds(), row.moving(), row.movesMean(), row.movedBack(), row.perIoChange() * 100,
                        share(row.captured()));
            }
        }
        out.println();
        printAutoKinds(r, out);
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            if (row.strategy().equals(BalancingTrial.AUTO)) {
                printAutoGoal(r, row, out);
            } else if (row.strategy().equals("pesto") || row.strategy().equals("romano")) {
                out.printf(Locale.ROOT, "goal %s 0 %% worse (%s): %.1f %% — %s%n", row.strategy(), row.group(),
                        row.worseShare() * 100, row.worse() == 0 ? "met" : "missed");
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
                MeasuredGreedyReference.PerIoCheck check = new MeasuredGreedyReference.PerIoCheck(0, 0, 0, 0, 0, 0);
                for (BalancingTrial.Outcome o : r.outcomes()) {
                    if (o.intervals() != null && o.group().equals(row.group())) {
                        check = check.plus(o.intervals().perIo());
                    }
                }
                out.printf(Locale.ROOT, "per-IO predictions (%s): every single-VM move from the first placement (%d), the "
                                + "per-IO change predicted with auto's models as per-io screens it, measured minus predicted %+.1f %% "
                                + "± %.1f %% (mean ± SD); of the %d predicted to lower per-IO latency by ≥ 2 %%, %.1f %% measured lower "
                                + "and %.1f %% more than 2 %% higher%n",
                        row.group(), check.moves(), 100 * check.meanError(), 100 * check.errorSd(), check.predictedGains(),
                        check.predictedGains() == 0 ? Double.NaN : 100.0 * check.held() / check.predictedGains(),
                        check.predictedGains() == 0 ? Double.NaN : 100.0 * check.worse() / check.predictedGains());
                out.printf(Locale.ROOT, "reference (%s): each move chosen by measuring every candidate in the testbed, at most "
                                + "%d: per-IO %.1f %%, worst p90 %.1f %%, mean %.1f %%, variance %.1f %%, max %.1f %%, %.2f moves — "
                                + "what single-VM moves can reach on these devices without model error%n",
                        row.group(), row.movesMax(), row.perIoChange() * 100, row.worstP90Change() * 100,
                        row.meanChange() * 100, row.varianceChange() * 100, row.maxChange() * 100, row.movesMean());
            }
        }
    }

    /** Issue 41's goals for what the server would run, per group, against the reference and the baselines. */
    /**
     * The model kind auto chose per datastore (by held-out accuracy, {@link BalancingTrial#autoState}), counted per group
     * over its worlds' first runs, from the plan's "auto ran … on …" note.
     */
    static void printAutoKinds(BalancingQualityBenchmark.Result r, PrintStream out) {
        java.util.Map<String, java.util.Map<String, Integer>> byGroup = new java.util.TreeMap<>();
        for (BalancingTrial.Outcome o : r.outcomes()) {
            if (!o.strategy().equals(BalancingTrial.AUTO)) {
                continue;
            }
            for (String line : o.plan()) {
                int at = line.indexOf("auto ran ");
                int on = at < 0 ? -1 : line.indexOf(" on ", at);
                if (on < 0 || line.startsWith("note: run ") && !line.startsWith("note: run 1: ")) {
                    continue;
                }
                for (String ds : line.substring(on + 4).split(", ")) {
                    String kind = ds.substring(ds.lastIndexOf(' ') + 1);
                    byGroup.computeIfAbsent(o.group(), g -> new java.util.TreeMap<>()).merge(kind, 1, Integer::sum);
                }
            }
        }
        byGroup.forEach((group, kinds) -> {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "auto's model per datastore (%s, held-out accuracy):", group));
            kinds.forEach((kind, n) -> line.append(String.format(Locale.ROOT, " %s %d", kind, n)));
            out.println(line);
        });
    }

    private static void printAutoGoal(BalancingQualityBenchmark.Result r, BalancingQualityBenchmark.Row auto, PrintStream out) {
        List<BalancingQualityBenchmark.Row> baselines = new ArrayList<>();
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            if (row.group().equals(auto.group()) && BASELINES.contains(row.strategy())) {
                baselines.add(row);
            }
        }
        StringBuilder versus = new StringBuilder();
        boolean ahead = !baselines.isEmpty();
        for (BalancingQualityBenchmark.Row b : baselines) {
            boolean gain = auto.perIoChange() < b.perIoChange();
            boolean worse = auto.worseShare() <= b.worseShare();
            ahead &= gain && worse;
            versus.append(String.format(Locale.ROOT, "; vs %s Δper-IO %.1f %% (%s), worse %.1f %% (%s)", b.strategy(),
                    b.perIoChange() * 100, gain ? "ahead" : "not ahead", b.worseShare() * 100, worse ? "not behind" : "behind"));
        }
        out.printf(Locale.ROOT, "goal auto (%s): 0 %% worse: %.1f %% — %s; captured ≥ 70 %%: %s — %s; moves ≤ 3: %.2f — %s; "
                        + "ahead of the baselines: %s%s%n", auto.group(), auto.worseShare() * 100,
                auto.worse() == 0 ? "met" : "missed", share(auto.captured()),
                auto.captured() >= 0.70 ? "met" : "missed", auto.movesMean(), auto.movesMean() <= 3 ? "met" : "missed",
                baselines.isEmpty() ? "not run" : ahead ? "met" : "missed", versus);
        for (BalancingQualityBenchmark.RunRow run : r.runRows()) {
            if (run.group().equals(auto.group()) && run.strategy().equals(auto.strategy())
                    && run.run() == r.runRows().stream().mapToInt(BalancingQualityBenchmark.RunRow::run).max().orElse(0)) {
                out.printf(Locale.ROOT, "goal auto (%s) over %d runs: no oscillation: %d disks moved back — %s; captured after "
                                + "%d runs ≥ 85 %%: %s — %s%n", auto.group(), run.run(), auto.movedBack(),
                        auto.movedBack() == 0 ? "met" : "missed", run.run(), share(run.captured()),
                        run.captured() >= 0.85 ? "met" : "missed");
            }
        }
    }

    private static final List<String> BASELINES = List.of(SpaceOnly.NAME, LatencyGreedy.NAME);

    private static String share(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f%%", v * 100);
    }

    /**
     * The exhaustive rows: each is the most any balancer making at most that many single-VM moves
     * per world reaches on the group's worlds, so a goal beyond it is out of reach for every
     * strategy, not only for the product's.
     */
    private static void printBound(BalancingQualityBenchmark.Result r, String group, PrintStream out) {
        BalancingQualityBenchmark.Row perIo = null;
        BalancingQualityBenchmark.Row mean = null;
        BalancingQualityBenchmark.Row max = null;
        BalancingQualityBenchmark.Row variance = null;
        BalancingQualityBenchmark.Row greedy = null;
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            if (row.group().equals(group)) {
                switch (row.strategy()) {
                    case MeasuredExhaustiveReference.BEST_PER_IO -> perIo = row;
                    case MeasuredExhaustiveReference.BEST_MEAN -> mean = row;
                    case MeasuredExhaustiveReference.BEST_MAX -> max = row;
                    case MeasuredExhaustiveReference.BEST_VARIANCE -> variance = row;
                    case MeasuredGreedyReference.NAME -> greedy = row;
                    default -> { }
                }
            }
        }
        if (perIo == null || mean == null || max == null || variance == null) {
            return;
        }
        out.printf(Locale.ROOT, "bound (%s): every placement within %d single-VM move%s measured, the best of each world: "
                        + "per-IO %.1f %% (worst p90 guarded; the greedy reference reaches %s of it), mean %.1f %%, "
                        + "variance %.1f %%, max %.1f %%%n",
                group, r.exhaustiveMoves(), r.exhaustiveMoves() == 1 ? "" : "s", perIo.perIoChange() * 100,
                greedy == null || perIo.perIoChange() == 0 ? "–" : share(greedy.perIoChange() / perIo.perIoChange()),
                mean.meanChange() * 100, variance.varianceChange() * 100, max.maxChange() * 100);
    }

    static void writeCsv(BalancingQualityBenchmark.Result r, Path file) throws java.io.IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("group,world,strategy,datastores_before,mean_before_ms,mean_after_ms,max_before_ms,max_after_ms,"
                    + "var_before,var_after,per_io_before_ms,per_io_after_ms,worst_p90_before_ms,worst_p90_after_ms,worse,"
                    + "moves,moved_back,moves_per_run,per_io_after_each_run_ms,settled,copy_hours,interval_sides,"
                    + "interval_inside,pesto_interval_sides,pesto_interval_inside,per_io_checked,per_io_error_sum,per_io_error_squares,"
                    + "per_io_predicted_gains,per_io_gains_held,per_io_gains_worse,notes,plan");
            for (BalancingTrial.Outcome o : r.outcomes()) {
                StringBuilder perRun = new StringBuilder();
                StringBuilder perIoRun = new StringBuilder();
                for (BalancingTrial.Run run : o.runs()) {
                    perRun.append(perRun.length() == 0 ? "" : " ").append(run.moves());
                    perIoRun.append(perIoRun.length() == 0 ? "" : " ")
                            .append(String.format(Locale.ROOT, "%.4f", run.after().perIoMeanMs()));
                }
                w.printf(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%b,%d,%d,%s,%s,%b,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\",\"%s\"%n",
                        o.group(), o.world(), o.strategy(), o.before().byDatastore().size(), o.before().mean(), o.after().mean(),
                        o.before().max(), o.after().max(), o.before().variance(), o.after().variance(),
                        o.before().perIoMeanMs(), o.after().perIoMeanMs(), o.before().worstP90(), o.after().worstP90(),
                        DatastoreLatencies.worse(o.before(), o.after()), o.moves(), o.movedBack(), perRun, perIoRun,
                        o.settled(), o.copyHours(),
                        o.intervals() == null ? "" : o.intervals().romano().sides(),
                        o.intervals() == null ? "" : o.intervals().romano().inside(),
                        o.intervals() == null ? "" : o.intervals().pesto().sides(),
                        o.intervals() == null ? "" : o.intervals().pesto().inside(),
                        o.intervals() == null ? "" : o.intervals().perIo().moves(),
                        o.intervals() == null ? "" : String.format(Locale.ROOT, "%.6f", o.intervals().perIo().errorSum()),
                        o.intervals() == null ? "" : String.format(Locale.ROOT, "%.6f", o.intervals().perIo().errorSquares()),
                        o.intervals() == null ? "" : o.intervals().perIo().predictedGains(),
                        o.intervals() == null ? "" : o.intervals().perIo().held(),
                        o.intervals() == null ? "" : o.intervals().perIo().worse(),
                        String.join("; ", o.notes()).replace("\"", "'"),
                        String.join(" | ", o.plan()).replace("\"", "'"));
            }
        }
    }
}
