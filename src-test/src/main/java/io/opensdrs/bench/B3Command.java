package io.opensdrs.bench;

import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.StrategyRegistry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * B3 (SPEC §8): one balancing run on a 64-datastore × 9,000-disk cluster, then on N such
 * clusters (256 = vCenter's maximum), per strategy: planning time per cluster, wall time of
 * the N clusters (generation included), moves, and peak heap. Prints a table, writes a CSV.
 */
@Command(name = "b3", mixinStandardHelpOptions = true,
        description = "B3: balancing scale — one run on DATASTORES × DISKS, then on CLUSTERS such clusters; time and heap.")
public final class B3Command implements java.util.concurrent.Callable<Integer> {

    @Option(names = "--clusters", description = "clusters in the many-cluster run (default ${DEFAULT-VALUE})")
    int clusters = 256;

    @Option(names = "--datastores", description = "datastores per cluster (default ${DEFAULT-VALUE})")
    int datastores = 64;

    @Option(names = "--disks", description = "virtual disks per cluster (default ${DEFAULT-VALUE})")
    int disks = 9000;

    @Option(names = "--strategy", description = "basil, pesto, romano or all (default ${DEFAULT-VALUE})")
    String strategy = "all";

    @Option(names = "--seed", description = "world and annealing seed (default ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--threads", description = "clusters planned in parallel (default: available processors)")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--csv", description = "write the table as CSV to this file")
    Path csv;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One row of the table. */
    record Row(String strategy, String run, int clusters, int datastores, int disks, double meanMoves, double meanPlanMs,
               double maxPlanMs, double meanCpuMs, double maxCpuMs, double wallSeconds, double peakHeapMb, double maxHeapMb) {
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (clusters < 1 || datastores < 2 || disks < 1 || threads < 1) {
            spec.commandLine().getErr().println("error: --clusters, --threads >= 1, --datastores >= 2, --disks >= 1");
            return 2;
        }
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        List<String> names = strategy.equals("all") ? new ArrayList<>(registry.names()) : List.of(strategy);
        for (String n : names) {
            if (!registry.names().contains(n)) {
                spec.commandLine().getErr().println("error: unknown --strategy '" + n + "'; known: all, " + String.join(", ", registry.names()));
                return 2;
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String name : names) {
            rows.add(run(registry, name, 1, 1));
            rows.add(run(registry, name, clusters, threads));
        }
        out.printf(Locale.ROOT, "%-8s %-12s %5s %6s %6s %8s %8s %8s %8s %8s %13s %11s%n", "strategy", "run", "ds",
                "disks", "moves", "plan ms", "max ms", "cpu ms", "max cpu", "wall s", "peak heap MB", "max heap MB");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-8s %-12s %5d %6d %6.1f %8.1f %8.1f %8.1f %8.1f %8.2f %13.0f %11.0f%n", r.strategy, r.run,
                    r.datastores, r.disks, r.meanMoves, r.meanPlanMs, r.maxPlanMs, r.meanCpuMs, r.maxCpuMs, r.wallSeconds,
                    r.peakHeapMb, r.maxHeapMb);
        }
        out.println("plan ms = elapsed time of strategy.plan per cluster; cpu ms = that thread's CPU time (unaffected by other load);"
                + " wall s includes generating the worlds");
        out.println("acceptance: plan ≤ 1000 ms per cluster, " + clusters + " clusters ≤ 60 s wall, peak heap ≤ 2048 MB");
        out.flush();
        if (csv != null) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
                w.println("strategy,run,clusters,datastores,disks,mean_moves,mean_plan_ms,max_plan_ms,mean_cpu_ms,max_cpu_ms,wall_s,"
                        + "peak_heap_mb,max_heap_mb");
                for (Row r : rows) {
                    w.printf(Locale.ROOT, "%s,%s,%d,%d,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f,%.0f,%.0f%n", r.strategy, r.run, r.clusters,
                            r.datastores, r.disks, r.meanMoves, r.meanPlanMs, r.maxPlanMs, r.meanCpuMs, r.maxCpuMs, r.wallSeconds,
                            r.peakHeapMb, r.maxHeapMb);
                }
            } catch (IOException e) {
                spec.commandLine().getErr().println("error: cannot write --csv " + csv + ": " + e.getMessage());
                return 2;
            }
        }
        return 0;
    }

    private Row run(StrategyRegistry registry, String name, int count, int parallel) throws Exception {
        boolean romano = name.equals("romano");
        if (romano) {
            ScaleWorld.romanoPool();
        }
        System.gc();
        resetPeakHeap();
        long wallStart = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        List<Future<double[]>> results = new ArrayList<>();
        try {
            for (int c = 0; c < count; c++) {
                final int index = c;
                results.add(pool.submit(() -> {
                    ClusterState state = ScaleWorld.generate("c" + index, datastores, disks, romano, seed * 1_000_003L + index);
                    java.lang.management.ThreadMXBean threadsBean = ManagementFactory.getThreadMXBean();
                    long c0 = threadsBean.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    MovePlan plan = registry.create(name, seed + index).plan(state);
                    double ms = (System.nanoTime() - t0) / 1e6;
                    double cpuMs = (threadsBean.getCurrentThreadCpuTime() - c0) / 1e6;
                    return new double[] {ms, plan.moves().size(), cpuMs};
                }));
            }
            double sumMs = 0;
            double maxMs = 0;
            double moves = 0;
            double sumCpu = 0;
            double maxCpu = 0;
            for (Future<double[]> f : results) {
                double[] r = f.get();
                sumMs += r[0];
                maxMs = Math.max(maxMs, r[0]);
                moves += r[1];
                sumCpu += r[2];
                maxCpu = Math.max(maxCpu, r[2]);
            }
            double wall = (System.nanoTime() - wallStart) / 1e9;
            return new Row(name, count == 1 ? "1 cluster" : count + " clusters", count, datastores, disks, moves / count,
                    sumMs / count, maxMs, sumCpu / count, maxCpu, wall, peakHeapMb(), Runtime.getRuntime().maxMemory() / 1048576.0);
        } finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    private static void resetPeakHeap() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** Sum of the heap pools' peaks since the reset: an upper bound on the heap in use at any instant. */
    private static double peakHeapMb() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum / 1048576.0;
    }
}
