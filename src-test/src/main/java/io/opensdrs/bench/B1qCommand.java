package io.opensdrs.bench;

import io.opensdrs.model.queueing.RequestClass;
import io.opensdrs.testbed.device.DeviceProfiles;
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
import java.util.function.Predicate;

/** {@code sdrs bench b1q}: the queueing model's validation (Noorshams et al. §V) on the emulated devices. */
@Command(name = "b1q", mixinStandardHelpOptions = true,
        description = {"B1q queueing-model accuracy (Noorshams et al. §V): calibrate the queueing network per request class "
                + "from response times (threads x sizes x working sets), then predict held-out runs: random configurations "
                + "inside the calibrated ranges, more threads, and 2 and 3 VMs. Pesto's LQ line and Romano (agent design) predict the same points.",
                "Prints the mean and worst relative error of response time per scenario and model."})
public final class B1qCommand implements Callable<Integer> {
    @Option(names = {"--devices", "--device"}, split = ",", description = "device profiles (default: the four calibrated ones)")
    List<String> deviceNames;

    @Option(names = "--scenario", arity = "1..*",
            description = "scenario files or shipped names: every distinct datastore device of them instead (e.g. romano-testbed)")
    List<String> scenarios;

    @Option(names = "--ios", defaultValue = "400", description = "IOs per measured run (default ${DEFAULT-VALUE})")
    long ios;

    @Option(names = "--interpolation", defaultValue = "10",
            description = "random interpolation runs per request class and device (default ${DEFAULT-VALUE})")
    int interpolation;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(names = "--threads", description = "worker threads (default: available processors)")
    Integer threads;

    @Option(names = "--csv", description = "write every scored run to this CSV file")
    Path csv;

    static final double GOAL_MEAN = 0.05;
    static final double GOAL_WORST_CELL = 0.11;

    @Override
    public Integer call() throws Exception {
        if (ios < 50) {
            throw new IllegalArgumentException("--ios must be ≥ 50, got " + ios);
        }
        if (interpolation < 1) {
            throw new IllegalArgumentException("--interpolation must be ≥ 1, got " + interpolation);
        }
        List<DeviceUnderTest> devices = devices();
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (n < 1) {
            throw new IllegalArgumentException("--threads must be ≥ 1, got " + n);
        }
        ExecutorService executor = Executors.newFixedThreadPool(n);
        long t0 = System.nanoTime();
        QueueingAccuracyBenchmark.Result result;
        try {
            result = new QueueingAccuracyBenchmark(ios, seed, interpolation).run(devices, executor);
        } finally {
            executor.shutdownNow();
        }
        PrintStream out = System.out;
        print(result, out);
        out.printf(Locale.ROOT, "%nelapsed %.1f s, %d threads, %d IOs per run%n", (System.nanoTime() - t0) / 1e9, n, ios);
        if (csv != null) {
            writeCsv(result, csv);
            out.println("csv: " + csv);
        }
        return 0;
    }

    private List<DeviceUnderTest> devices() throws Exception {
        if (scenarios == null || scenarios.isEmpty()) {
            for (String name : deviceNames != null ? deviceNames : List.<String>of()) {
                if (DeviceProfiles.byName(name).isEmpty()) {
                    throw new IllegalArgumentException("--devices: unknown device profile " + name);
                }
            }
        }
        List<DeviceUnderTest> out = DeviceUnderTest.of(scenarios, deviceNames);
        long needed = (long) (3 * QueueingAccuracyBenchmark.VM_WORKING_SET_GB * (1L << 30));
        long largest = (long) (QueueingAccuracyBenchmark.WORKING_SETS_GB[QueueingAccuracyBenchmark.WORKING_SETS_GB.length - 1] * (1L << 30));
        for (DeviceUnderTest d : out) {
            if (d.capacityBytes() < Math.max(needed, largest)) {
                throw new IllegalArgumentException("device " + d.name() + ": LUN of " + (d.capacityBytes() >> 30)
                        + " GiB is smaller than the design's working sets (" + (Math.max(needed, largest) >> 30) + " GiB)");
            }
        }
        return out;
    }

    private static double mean(List<QueueingAccuracyBenchmark.ScoredPoint> ps) {
        return ps.stream().mapToDouble(QueueingAccuracyBenchmark.ScoredPoint::relativeError).average().orElse(Double.NaN);
    }

    private static double repeat(List<QueueingAccuracyBenchmark.ScoredPoint> ps) {
        return ps.stream().mapToDouble(QueueingAccuracyBenchmark.ScoredPoint::repeatError).average().orElse(Double.NaN);
    }

    private static double max(List<QueueingAccuracyBenchmark.ScoredPoint> ps) {
        return ps.stream().mapToDouble(QueueingAccuracyBenchmark.ScoredPoint::relativeError).max().orElse(Double.NaN);
    }

    private static List<QueueingAccuracyBenchmark.ScoredPoint> select(List<QueueingAccuracyBenchmark.ScoredPoint> ps,
                                                                      Predicate<QueueingAccuracyBenchmark.ScoredPoint> p) {
        return ps.stream().filter(p).toList();
    }

    static void print(QueueingAccuracyBenchmark.Result r, PrintStream out) {
        List<QueueingAccuracyBenchmark.ScoredPoint> all = r.points();
        List<String> models = QueueingAccuracyBenchmark.MODELS;
        out.printf(Locale.ROOT, "B1q queueing-model accuracy — %d devices; calibration %d runs per device (threads %s × sizes %s KiB"
                        + " × working sets %s GiB × 4 request classes)%n", r.devices().size(),
                r.calibrationPoints().values().stream().findFirst().orElse(0),
                java.util.Arrays.toString(QueueingAccuracyBenchmark.CALIBRATION_THREADS),
                java.util.Arrays.toString(QueueingAccuracyBenchmark.SIZES_KB),
                java.util.Arrays.toString(QueueingAccuracyBenchmark.WORKING_SETS_GB));
        out.println("devices: " + String.join(", ", r.devices().stream().map(DeviceUnderTest::name).toList()));
        r.calibrationSimulatedSeconds().forEach((d, s) -> out.printf(Locale.ROOT,
                "  %s: calibration takes %.0f s of device time (%.1f min)%n", d, s, s / 60));
        out.println();
        out.println("relative error of mean response time |predicted − measured| / measured, all devices pooled: mean / worst run");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-16s%6s", "scenario", "runs"));
        models.forEach(m -> head.append(String.format(Locale.ROOT, "%20s", m)));
        head.append(String.format(Locale.ROOT, "%16s", "repeat floor"));
        out.println(head);
        List<String> rows = new ArrayList<>(QueueingAccuracyBenchmark.SCENARIOS);
        rows.add("all");
        for (String sc : rows) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-16s%6d", sc,
                    select(all, p -> p.model().equals(models.get(0)) && (sc.equals("all") || p.run().scenario().equals(sc))).size()));
            for (String m : models) {
                var ps = select(all, p -> p.model().equals(m) && (sc.equals("all") || p.run().scenario().equals(sc)));
                line.append(ps.isEmpty() ? String.format(Locale.ROOT, "%20s", "—")
                        : String.format(Locale.ROOT, "%11.1f%% /%5.0f%%", mean(ps) * 100, max(ps) * 100));
            }
            var own = select(all, p -> p.model().equals(models.get(0)) && (sc.equals("all") || p.run().scenario().equals(sc)));
            line.append(String.format(Locale.ROOT, "%15.1f%%", repeat(own) * 100));
            out.println(line);
        }
        out.println("repeat floor: every run measured twice (other seed); mean of |m1 − m2| / (m1 + m2), the error of a model that");
        out.println("knew the two runs' mean — what run-to-run variation alone costs.");
        out.println();
        out.println("calibrated topology (Noorshams Figs. 6, 8; fast mode = responses within "
                + QueueingAccuracyBenchmark.CACHE_MODE_MS + " ms):");
        for (DeviceUnderTest d : r.devices()) {
            StringBuilder line = new StringBuilder("  " + d.name() + ":");
            r.topologies().stream().filter(t -> t.device().equals(d.name())).forEach(t -> line.append(String.format(Locale.ROOT,
                    " %s %s (fast %.0f %%);", t.requestClass().name().toLowerCase(Locale.ROOT), t.raidStation() ? "cache+RAID" : "one station",
                    t.meanFastShare() * 100)));
            out.println(line);
        }
        out.println();
        out.println("per device: mean relative error per scenario, queueing (pesto)");
        StringBuilder h2 = new StringBuilder(String.format(Locale.ROOT, "%-30s", "device"));
        rows.forEach(s -> h2.append(String.format(Locale.ROOT, "%19s", s)));
        out.println(h2);
        for (DeviceUnderTest d : r.devices()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-30s", d.name()));
            for (String sc : rows) {
                Predicate<QueueingAccuracyBenchmark.ScoredPoint> where = p -> p.device().equals(d.name())
                        && (sc.equals("all") || p.run().scenario().equals(sc));
                var q = select(all, p -> p.model().equals(QueueingAccuracyBenchmark.QUEUEING) && where.test(p));
                var pe = select(all, p -> p.model().equals(QueueingAccuracyBenchmark.PESTO) && where.test(p));
                line.append(String.format(Locale.ROOT, "%10.1f%% (%5.1f%%)", mean(q) * 100, mean(pe) * 100));
            }
            out.println(line);
        }
        out.println();
        out.println("queueing, mean relative error per scenario and request class, all devices pooled (cf. Noorshams Fig. 11e)");
        StringBuilder h3 = new StringBuilder(String.format(Locale.ROOT, "%-16s", "scenario"));
        for (RequestClass c : RequestClass.values()) {
            h3.append(String.format(Locale.ROOT, "%18s", c.name().toLowerCase(Locale.ROOT)));
        }
        h3.append(String.format(Locale.ROOT, "%18s", "mean of cells"));
        out.println(h3);
        double worstCell = 0;
        String worstName = "";
        for (String sc : QueueingAccuracyBenchmark.SCENARIOS) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-16s", sc));
            double sum = 0;
            int cells = 0;
            for (RequestClass c : RequestClass.values()) {
                var ps = select(all, p -> p.model().equals(QueueingAccuracyBenchmark.QUEUEING) && p.run().scenario().equals(sc)
                        && p.run().requestClass() == c);
                double m = mean(ps);
                line.append(String.format(Locale.ROOT, "%17.1f%%", m * 100));
                if (!Double.isNaN(m)) {
                    sum += m;
                    cells++;
                    if (m > worstCell) {
                        worstCell = m;
                        worstName = sc + " / " + c.name().toLowerCase(Locale.ROOT);
                    }
                }
            }
            line.append(String.format(Locale.ROOT, "%17.1f%%", sum / cells * 100));
            out.println(line);
        }
        out.println();
        out.println("repeat floor per scenario and request class (same runs, all devices pooled)");
        for (String sc : QueueingAccuracyBenchmark.SCENARIOS) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-16s", sc));
            for (RequestClass c : RequestClass.values()) {
                var ps = select(all, p -> p.model().equals(QueueingAccuracyBenchmark.QUEUEING) && p.run().scenario().equals(sc)
                        && p.run().requestClass() == c);
                line.append(String.format(Locale.ROOT, "%17.1f%%", repeat(ps) * 100));
            }
            out.println(line);
        }
        out.println();
        out.println("sequential reads: share of IOs in the fast mode, 1 VM (calibration mean) / 2 VMs / 3 VMs, and measured ÷ predicted");
        for (DeviceUnderTest d : r.devices()) {
            double alone = r.topologies().stream().filter(t -> t.device().equals(d.name())
                    && t.requestClass() == RequestClass.SEQUENTIAL_READ).mapToDouble(QueueingAccuracyBenchmark.Topology::meanFastShare)
                    .findFirst().orElse(Double.NaN);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-30s %5.0f %%", d.name(), alone * 100));
            for (String sc : List.of("2 VMs", "3 VMs")) {
                var ps = select(all, p -> p.model().equals(QueueingAccuracyBenchmark.QUEUEING) && p.device().equals(d.name())
                        && p.run().scenario().equals(sc) && p.run().requestClass() == RequestClass.SEQUENTIAL_READ);
                double fast = ps.stream().mapToDouble(QueueingAccuracyBenchmark.ScoredPoint::fastShare).average().orElse(Double.NaN);
                double ratio = ps.stream().mapToDouble(p -> p.measuredMs() / p.predictedMs()).average().orElse(Double.NaN);
                line.append(String.format(Locale.ROOT, " / %5.0f %% (× %.2f)", fast * 100, ratio));
            }
            out.println(line);
        }
        r.failures().forEach(f -> out.println("not fitted: " + f));
        var q = select(all, p -> p.model().equals(QueueingAccuracyBenchmark.QUEUEING));
        if (!q.isEmpty()) {
            double m = mean(q);
            out.println();
            out.printf(Locale.ROOT, "goal queueing mean relative error ≤ %.0f %%: %.1f %% — %s%n", GOAL_MEAN * 100, m * 100,
                    m <= GOAL_MEAN ? "met" : "missed");
            out.printf(Locale.ROOT, "goal queueing worst scenario × class mean ≤ %.0f %%: %.1f %% (%s) — %s%n", GOAL_WORST_CELL * 100,
                    worstCell * 100, worstName, worstCell <= GOAL_WORST_CELL ? "met" : "missed");
        }
    }

    static void writeCsv(QueueingAccuracyBenchmark.Result r, Path file) throws java.io.IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("device,model,scenario,request_class,vms,threads_per_vm,io_size_kb,working_set_gb_per_vm,measured_ms,predicted_ms,"
                    + "relative_error,repeat_ms,fast_share");
            for (QueueingAccuracyBenchmark.ScoredPoint p : r.points()) {
                var run = p.run();
                w.printf(Locale.ROOT, "%s,%s,%s,%s,%d,%.0f,%.1f,%.4f,%.4f,%.4f,%.5f,%.4f,%.4f%n", p.device(), p.model(), run.scenario(),
                        run.requestClass().name().toLowerCase(Locale.ROOT), run.vms(), run.threadsPerVm(), run.sizeKb(),
                        run.workingSetGbPerVm(), p.measuredMs(), p.predictedMs(), p.relativeError(), p.repeatMs(), p.fastShare());
            }
        }
    }
}
