package io.opensdrs.bench;

import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code sdrs bench b4v}: the server reads every disk's realtime counters from vCenter (our vcsim)
 * each period; prints the time per period and the server's CPU per period ({@link VCenterStatisticsBenchmark}).
 */
@Command(name = "b4v", mixinStandardHelpOptions = true,
        description = {"B4v vCenter statistics: vcsim with a world of --disks disks (every VM running) and the server jar"
                + " connected to it, configured as in production but for the poll interval; each period one 20-s sample of"
                + " every disk and host is published to vcsim, and the server's read of it is measured.",
                "Prints per period the server's read time, the time from the publish until every window was stored, the"
                        + " server's CPU time over the period, and whether the goal (≤ 5 s per period) is met."})
public final class B4vCommand implements Callable<Integer> {
    /** The goal of the acceptance: a period's read of every disk's counters within 5 s. */
    static final double GOAL_SECONDS = 5;
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)");

    @Option(names = "--scenario", defaultValue = "datastores-64", paramLabel = "FILE|NAME",
            description = "the world's datastores, clusters and hosts (and its VMs, as many as fit in --disks): a scenario"
                    + " file or a shipped name (default ${DEFAULT-VALUE})")
    String scenario;

    @Option(names = "--disks", defaultValue = "9000", paramLabel = "N",
            description = "virtual disks on the scenario's cluster datastores; VMs of 3 disks are generated beyond the"
                    + " scenario's own (default ${DEFAULT-VALUE})")
    int disks;

    @Option(names = "--periods", defaultValue = "6", paramLabel = "N", description = "measured periods, after one warm-up (default ${DEFAULT-VALUE})")
    int periods;

    @Option(names = "--period", defaultValue = "20s", paramLabel = "DURATION",
            description = "the server's poll interval (sdrs.stats.vcenter.poll-interval), e.g. 20s, 2s, 500ms, PT20S;"
                    + " one 20-s sample is published per period (default ${DEFAULT-VALUE}, vCenter's realtime interval)")
    String period;

    @Option(names = "--batch-size", paramLabel = "N",
            description = "VMs or hosts per QueryPerf call (sdrs.stats.vcenter.batch-size; default: the server's, 250)")
    Integer batchSize;

    @Option(names = "--parallel-calls", paramLabel = "N",
            description = "QueryPerf calls of one read in flight at once (sdrs.stats.vcenter.parallel-calls; default: the"
                    + " server's, 2)")
    Integer parallelCalls;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "seed of the published counter values (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--check-disks", defaultValue = "8", paramLabel = "N",
            description = "disks whose stored window is read back through the server each period and compared with the"
                    + " sample (default ${DEFAULT-VALUE})")
    int checkDisks;

    @Option(names = "--server-jvm", paramLabel = "OPTIONS",
            description = "the server JVM's options, space-separated (default: the Docker image's, -XX:MaxRAMPercentage=75)")
    String serverJvm;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "logs, vcsim's inventory and datastores (emptied first); default target/b4v at the repository root")
    Path workDir;

    @Option(names = "--csv", paramLabel = "FILE", description = "write one row per period to this CSV file")
    Path csv;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        if (disks < 1) {
            throw new IllegalArgumentException("--disks must be ≥ 1, was " + disks);
        }
        if (periods < 1) {
            throw new IllegalArgumentException("--periods must be ≥ 1, was " + periods);
        }
        Duration every = parseDuration(period);
        if (every.compareTo(Duration.ofSeconds(1)) < 0 || every.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("--period must be between 1 s and 1 h, was " + period);
        }
        if (batchSize != null && batchSize < 1) {
            throw new IllegalArgumentException("--batch-size must be ≥ 1, was " + batchSize);
        }
        if (parallelCalls != null && (parallelCalls < 1 || parallelCalls > 16)) {
            throw new IllegalArgumentException("--parallel-calls must be between 1 and 16, was " + parallelCalls);
        }
        if (checkDisks < 0) {
            throw new IllegalArgumentException("--check-disks must be ≥ 0, was " + checkDisks);
        }
        Scenario base = ScenarioCatalog.resolve(scenario);
        B4vWorld.Made made = B4vWorld.of(base, disks);

        Path root = repositoryRoot();
        Path dir = workDir != null ? workDir : root.resolve("target/b4v");
        empty(dir);
        List<String> jvm = serverJvm == null ? VCenterStatisticsBenchmark.PRODUCTION_JVM
                : List.of(serverJvm.strip().split("\\s+"));
        VCenterStatisticsBenchmark.Settings settings = new VCenterStatisticsBenchmark.Settings(root, dir, periods, every,
                batchSize, parallelCalls, seed, checkDisks, jvm);
        VCenterStatisticsBenchmark bench = new VCenterStatisticsBenchmark(settings, line -> {
            out.println(line);
            out.flush();
        });
        Thread hook = new Thread(bench::close, "b4v-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        long t0 = System.nanoTime();
        VCenterStatisticsBenchmark.Result result;
        try {
            out.printf(Locale.ROOT, "B4v: %s with %d disks (%d of the scenario's VMs, %d generated), %d periods of %s;"
                            + " logs in %s%n", base.name(), made.disks(), made.scenarioVms(), made.generatedVms(), periods,
                    every, dir.resolve("logs"));
            try {
                result = bench.run(made);
            } catch (Exception | Error e) {
                out.println("b4v failed: " + e.getMessage());
                for (ManagedProcess p : bench.processes()) {
                    out.printf("---- %s (%s) last lines ----%n%s%n", p.name(), p.log(), p.tail(15));
                }
                throw e;
            }
        } finally {
            bench.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook runs or has run
            }
        }
        out.println();
        print(result, out);
        long alive = bench.processes().stream().filter(ManagedProcess::isAlive).count();
        out.printf(Locale.ROOT, "%nelapsed %.1f s; %s%n", (System.nanoTime() - t0) / 1e9,
                alive == 0 ? "vcsim and the server stopped" : alive + " process(es) still running");
        if (csv != null) {
            writeCsv(result, csv);
            out.println("csv: " + csv);
        }
        return result.allStored() ? 0 : 1;
    }

    static Duration parseDuration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SHORT_DURATION.matcher(t);
        try {
            if (m.matches()) {
                double v = Double.parseDouble(m.group(1));
                return Duration.ofMillis(Math.round(v * switch (m.group(2)) {
                    case "ms" -> 1;
                    case "s" -> 1000;
                    default -> 60_000;
                }));
            }
            return Duration.parse(text.strip().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("--period: '" + text + "' is no duration (20s, 500ms, 1m, PT20S)");
        }
    }

    static void print(VCenterStatisticsBenchmark.Result r, PrintStream out) {
        VCenterStatisticsBenchmark.Setup s = r.setup();
        out.println("B4v — the server reads every running VM's virtual-disk counters from vCenter (our vcsim; QueryPerf,"
                + " csv, realtime interval 20 s), one sample per period");
        out.printf(Locale.ROOT, "world: %s — %d disks on %d datastores in %d clusters, %d VMs (%d of the scenario, %d generated"
                        + " with %d disks each), %d hosts; every VM running%n", s.scenario(), s.disks(), s.datastores(),
                s.clusters(), s.vms(), s.scenarioVms(), s.generatedVms(), B4vWorld.GENERATED_DISKS_PER_VM, s.hosts());
        out.printf(Locale.ROOT, "server: sdrs-server.jar on embedded H2 (a temp data dir), JVM %s%s;"
                        + " production settings except sdrs.stats.vcenter.poll-interval=%s; batch size %s; %s calls"
                        + " in flight; no other loop slowed down%n", String.join(" ", s.serverJvm()),
                s.serverJvm().equals(VCenterStatisticsBenchmark.PRODUCTION_JVM) ? " (the Docker image's)" : " (--server-jvm)",
                s.period(),
                s.batchSize() == null ? "250 (the server's default)" : s.batchSize() + " (--batch-size)",
                s.parallelCalls() == null ? "2 (the server's default)" : s.parallelCalls() + " (--parallel-calls)");
        out.printf(Locale.ROOT, "setup: vcsim built the inventory in %.1f s; server healthy in %.1f s, its inventory sync held"
                        + " every disk %.1f s later; %d CPUs, load average %.2f at the start%n", s.vcsimSetupSeconds(),
                s.serverStartSeconds(), s.inventorySeconds(), s.processors(), s.loadAtStart());
        out.printf(Locale.ROOT, "each period: the sample is published at least %.1f s before the server's next read starts (lead s:"
                + " from the POST's start to the read's, longer after a slow POST); 'read' is the"
                + " server's own lastReadMillis, 'publish→stored' runs from the publish until the benchmark saw every window"
                + " stored (statistics endpoint, polled every 0.1 s); CPU = the server JVM's utime+stime (/proc) over the"
                + " period (publish to next publish; less what reading back the checked disks' windows cost it), %% of one"
                + " core; 'CPU read' and 'vcsim read' from the publish until"
                + " stored (vcsim shares the machine's cores: a real vCenter runs on its own)%n", s.lead().toMillis() / 1000.0);
        out.println();
        out.printf(Locale.ROOT, "%-8s %-20s %11s %5s %9s %6s %7s %10s %8s %8s %7s %8s %8s %7s %10s %5s%n", "period", "sample end",
                "stored", "reads", "publish s", "lead s", "read s", "pub→stored", "checked", "cycle s", "CPU s", "% core",
                "CPU read", "vcsim s", "vcsim read", "load");
        for (VCenterStatisticsBenchmark.Period p : r.periods()) {
            out.printf(Locale.ROOT, "%-8s %-20s %5d/%-5d %5d %9.2f %6.2f %7.2f %10.2f %4d/%-3d %8.1f %7.2f %7.1f%% %8.2f %7.2f %10.2f %5.1f%s%n",
                    p.warmUp() ? "warm-up" : Integer.toString(p.index()), p.sampleEnd(), p.windowsStored(), p.windowsExpected(),
                    p.reads(), p.publishSeconds(), p.leadSeconds(), p.serverReadMillis() / 1000.0, p.publishToStored(), p.checkedOk(),
                    p.checked(), p.cycleSeconds(), p.serverCpuSeconds(), p.serverCpuPercent(), p.serverCpuInRead(),
                    p.vcsimCpuSeconds(), p.vcsimCpuInRead(), p.load1(), p.ok() ? "" : "  FAILED: " + p.failure());
        }
        List<VCenterStatisticsBenchmark.Period> m = r.measured();
        summary(out, "mean", m, false);
        summary(out, "max", m, true);
        out.println();
        double slowest = m.stream().mapToDouble(p -> p.serverReadMillis() / 1000.0).max().orElse(Double.NaN);
        double slowestSeen = m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::publishToStored).max().orElse(Double.NaN);
        long failed = r.periods().stream().filter(p -> !p.ok()).count();
        for (VCenterStatisticsBenchmark.Period p : r.periods()) {
            if (!p.ok()) {
                out.printf("FAILED %s: %s%n", p.warmUp() ? "warm-up" : "period " + p.index(), p.failure());
            }
        }
        if (!r.activeFaults().isEmpty()) {
            out.println("faults the server lists as active: " + r.activeFaults().size());
            r.activeFaults().stream().limit(5).forEach(f -> out.println("  " + f));
        }
        boolean met = failed == 0 && slowest <= GOAL_SECONDS;
        out.printf(Locale.ROOT, "goal ≤ %.0f s per period: %s — slowest read %.2f s (the server's lastReadMillis; publish→stored"
                        + " at most %.2f s, the publish's lead before the read included), %s%n", GOAL_SECONDS,
                met ? "met" : "missed", slowest, slowestSeen,
                failed == 0 ? "every published sample stored" : failed + " period(s) without every sample stored");
    }

    private static void summary(PrintStream out, String label, List<VCenterStatisticsBenchmark.Period> m, boolean max) {
        ToDoubleFunction<java.util.stream.DoubleStream> agg = max
                ? s -> s.max().orElse(Double.NaN) : s -> s.average().orElse(Double.NaN);
        double stored = agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::windowsStored));
        out.printf(Locale.ROOT, "%-8s %-20s %11.0f %5.1f %9.2f %6.2f %7.2f %10.2f %8s %8.1f %7.2f %7.1f%% %8.2f %7.2f %10.2f %5.1f%n", label, "",
                stored,
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::reads)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::publishSeconds)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::leadSeconds)),
                agg.applyAsDouble(m.stream().mapToDouble(p -> p.serverReadMillis() / 1000.0)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::publishToStored)),
                "",
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::cycleSeconds)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::serverCpuSeconds)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::serverCpuPercent)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::serverCpuInRead)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::vcsimCpuSeconds)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::vcsimCpuInRead)),
                agg.applyAsDouble(m.stream().mapToDouble(VCenterStatisticsBenchmark.Period::load1)));
    }

    static void writeCsv(VCenterStatisticsBenchmark.Result r, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        VCenterStatisticsBenchmark.Setup s = r.setup();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("period,warm_up,sample_end,windows_expected,windows_stored,reads,publish_s,wait_s,publish_to_stored_s,"
                    + "server_read_s,read_start_to_seen_s,checked,checked_ok,cycle_s,server_cpu_s,server_cpu_pct,"
                    + "server_cpu_in_read_s,vcsim_cpu_s,vcsim_cpu_in_read_s,server_cpu_checks_s,load1,disks,vms,datastores,hosts,"
                    + "batch_size,parallel_calls,period_s,failure");
            for (VCenterStatisticsBenchmark.Period p : r.periods()) {
                w.printf(Locale.ROOT, "%d,%b,%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%.3f,%.3f,%.2f,%.3f,%.3f,%.3f,%.3f,%.2f,%d,%d,%d,%d,%d,%d,%.3f,\"%s\"%n",
                        p.index(), p.warmUp(), p.sampleEnd(), p.windowsExpected(), p.windowsStored(), p.reads(),
                        p.publishSeconds(), p.waitSeconds(), p.publishToStored(), p.serverReadMillis() / 1000.0, p.readToSeen(),
                        p.checked(), p.checkedOk(), p.cycleSeconds(), p.serverCpuSeconds(), p.serverCpuPercent(),
                        p.serverCpuInRead(), p.vcsimCpuSeconds(), p.vcsimCpuInRead(), p.serverCpuChecks(), p.load1(), s.disks(), s.vms(), s.datastores(), s.hosts(),
                        s.batchSize() == null ? 250 : s.batchSize(),
                        s.parallelCalls() == null ? 2 : s.parallelCalls(), s.period().toMillis() / 1000.0,
                        p.failure() == null ? "" : p.failure().replace("\"", "'"));
            }
        }
    }

    /** The checkout this CLI was built in: the jar (or classes) is in src-test/target. */
    static Path repositoryRoot() throws Exception {
        Path here = Path.of(B4vCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return here.getParent().getParent().getParent();
    }

    private static void empty(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
    }
}
