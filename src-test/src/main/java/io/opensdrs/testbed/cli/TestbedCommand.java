package io.opensdrs.testbed.cli;

import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.scenario.ScenarioLoader;
import io.opensdrs.testbed.fidelity.CalibrationTable;
import io.opensdrs.testbed.fidelity.FidelityChecks;
import io.opensdrs.testbed.sim.VirtualClock;
import io.opensdrs.testbed.sim.WallClock;
import io.opensdrs.testbed.stats.DatastoreWindow;
import io.opensdrs.testbed.vscsi.PacedWorld;
import io.opensdrs.testbed.vscsi.VScsiServer;
import io.opensdrs.testbed.world.SteadyStateRun;
import io.opensdrs.testbed.world.World;
import io.opensdrs.testbed.world.WorldRun;
import io.opensdrs.testbed.worlds.RandomWorldGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code sdrs testbed}: the storage testbed — run worlds, print its fidelity and calibration. */
@Command(name = "testbed", mixinStandardHelpOptions = true,
        description = "The storage testbed: emulated arrays, VM workloads and scenario worlds.",
        subcommands = {TestbedCommand.Run.class, TestbedCommand.Fidelity.class, TestbedCommand.Calibration.class,
                TestbedCommand.Bench.class, TestbedCommand.Generate.class, TestbedCommand.Serve.class})
public final class TestbedCommand implements Runnable {
    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run a scenario (file or shipped name) and print per-datastore latency and IOPS over time.")
    static final class Run implements Callable<Integer> {
        @Parameters(paramLabel = "FILE|NAME", description = "Scenario file, or the name of a shipped example.")
        String scenario;
        @Option(names = "--hours", description = "Simulated hours (default: the scenario's).")
        Double hours;
        @Option(names = "--method", defaultValue = "STEADY_STATE",
                description = "IO_LEVEL (every IO) or STEADY_STATE (sampled; default).")
        WorldRun.Method method;
        @Option(names = "--every-min", defaultValue = "60", description = "Print one row per this many minutes.")
        double everyMin;
        @Option(names = "--csv", description = "Write every 20-s datastore window to this CSV file.")
        Path csv;
        @Option(names = "--wall-speed", description = "Pace to the wall clock at this speed (1 = real time).")
        Double wallSpeed;

        @Override
        public Integer call() throws Exception {
            PrintStream out = System.out;
            // Validate everything first: a bad file starts nothing (acceptance 4).
            Scenario s = ScenarioCatalog.resolve(scenario);
            World world = World.build(s);
            double h = hours != null ? hours : s.hours();
            if (!(h > 0)) {
                throw new IllegalArgumentException("--hours must be > 0");
            }
            if (!(everyMin > 0)) {
                throw new IllegalArgumentException("--every-min must be > 0");
            }
            out.printf("testbed run: %s — %d datastores, %d hosts, %d VMs, %d disks; %.1f h, %s%n", s.name(),
                    s.datastores().size(), s.hosts().size(), s.vms().size(), s.diskCount(), h, method);
            PrintWriter csvOut = csv == null ? null : new PrintWriter(Files.newBufferedWriter(csv));
            if (csvOut != null) {
                csvOut.println("start_s,datastore,ios,iops,mean_oio,mean_latency_ms,worst_disk_p90_ms");
            }
            long windowsPerRow = Math.max(1, Math.round(everyMin * 60_000 / WorldRun.WINDOW_MS));
            Map<String, double[]> acc = new LinkedHashMap<>(); // ios, latency*ios, windows
            long[] count = {0};
            long t0 = System.nanoTime();
            WorldRun run = WorldRun.create(world, method, s.seed());
            run.run(h, wallSpeed != null ? new WallClock(wallSpeed) : new VirtualClock(), (start, disks, dss) -> {
                for (DatastoreWindow d : dss) {
                    double[] a = acc.computeIfAbsent(d.datastore(), k -> new double[3]);
                    a[0] += d.ios();
                    a[1] += d.meanLatencyMs() * d.ios();
                    a[2]++;
                    if (csvOut != null) {
                        csvOut.printf("%.0f,%s,%d,%.1f,%.2f,%.3f,%.3f%n", start / 1000, d.datastore(), d.ios(), d.iops(),
                                d.meanOutstanding(), d.meanLatencyMs(), d.worstDiskP90Ms());
                    }
                }
                if (++count[0] % windowsPerRow == 0) {
                    if (count[0] == windowsPerRow) {
                        StringBuilder hdr = new StringBuilder(String.format("%8s", "hour"));
                        acc.keySet().forEach(k -> hdr.append(String.format(" %22s", k + " ms/IOPS")));
                        out.println(hdr);
                    }
                    StringBuilder row = new StringBuilder(String.format("%8.2f", (start + WorldRun.WINDOW_MS) / 3.6e6));
                    acc.forEach((k, a) -> row.append(a[0] == 0 ? String.format(" %22s", "idle")
                            : String.format(" %12.2f/%9.0f", a[1] / a[0], a[0] / (a[2] * WorldRun.WINDOW_MS / 1000))));
                    out.println(row);
                    acc.clear();
                }
            }, WorldRun.PlacementPolicy.NONE);
            if (csvOut != null) {
                csvOut.close();
                out.println("wrote " + csv);
            }
            world.log().forEach(l -> out.println("  " + l));
            out.printf("done: %.1f simulated hours in %.2f s%s%n", h, (System.nanoTime() - t0) / 1e9,
                    run instanceof SteadyStateRun ss ? " (" + ss.samplesTaken() + " IO-level samples)" : "");
            return 0;
        }
    }

    @Command(name = "fidelity", mixinStandardHelpOptions = true,
            description = {"Print the fidelity table: the testbed against what the seeds measured (acceptance 1).",
                    "Exits 1 when a scored check fails."})
    static final class Fidelity implements Callable<Integer> {
        @Option(names = "--seed", defaultValue = "1")
        long seed;

        @Override
        public Integer call() {
            List<FidelityChecks.Check> rows = new FidelityChecks(seed, p -> System.err.println(p)).all();
            System.out.printf("%-16s %-40s %-6s %s  [criterion]%n", "check", "subject", "result", "measured");
            for (FidelityChecks.Check c : rows) {
                System.out.printf("%-16s %-40s %-6s %s  [%s]%n", c.name(), c.subject(), !c.scored() ? "INFO" : c.pass() ? "PASS" : "FAIL",
                        c.measured(), c.criterion());
            }
            long scored = rows.stream().filter(FidelityChecks.Check::scored).count();
            long failed = rows.stream().filter(c -> c.scored() && !c.pass()).count();
            System.out.printf("%d of %d scored checks pass (%d reported only)%n", scored - failed, scored, rows.size() - scored);
            return failed == 0 ? 0 : 1;
        }
    }

    @Command(name = "calibration", mixinStandardHelpOptions = true,
            description = {"Print emulated vs fio-plot mean latency of 4 KiB random reads at depths 1-64 (acceptance 2).",
                    "Exits 1 when a scored cell is more than 15 % off."})
    static final class Calibration implements Callable<Integer> {
        @Option(names = "--seed", defaultValue = "1")
        long seed;

        @Override
        public Integer call() {
            List<CalibrationTable.Row> rows = CalibrationTable.compute(seed, p -> System.err.println(p));
            System.out.printf("%-24s %5s %12s %12s %10s %8s%n", "profile", "depth", "fio ms", "emulated ms",
                    "emu IOPS", "error");
            int within = 0;
            int scored = 0;
            for (CalibrationTable.Row r : rows) {
                scored += r.scored() ? 1 : 0;
                within += r.scored() && r.within() ? 1 : 0;
                System.out.printf("%-24s %5d %12.4f %12.4f %10.0f %+7.1f%% %s%n", r.profile(), r.depth(), r.measuredMs(),
                        r.emulatedMs(), r.emulatedIops(), 100 * r.error(),
                        !r.scored() ? "not scored (fio-plot bimodal)" : r.within() ? "" : "MISS");
            }
            System.out.printf("%d of %d scored cells within %.0f %% (%d reported only)%n", within, scored,
                    100 * CalibrationTable.TOLERANCE, rows.size() - scored);
            return within == scored ? 0 : 1;
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = "Time a scenario run in virtual time (default: the 18-hour pesto-testbed, acceptance 3).")
    static final class Bench implements Callable<Integer> {
        @Parameters(paramLabel = "FILE|NAME", defaultValue = "pesto-testbed")
        String scenario;

        @Override
        public Integer call() throws Exception {
            Scenario s = ScenarioCatalog.resolve(scenario);
            World world = World.build(s);
            System.out.printf("bench: %s, %.0f simulated hours, steady-state method ...%n", s.name(), s.hours());
            long t0 = System.nanoTime();
            SteadyStateRun run = (SteadyStateRun) WorldRun.create(world, WorldRun.Method.STEADY_STATE, s.seed());
            long[] windows = {0};
            run.run(s.hours(), new VirtualClock(), (t, d, ds) -> {
                if (++windows[0] % 540 == 0) {
                    System.err.printf("  %.0f h simulated%n", (t + WorldRun.WINDOW_MS) / 3.6e6);
                }
            }, WorldRun.PlacementPolicy.NONE);
            double sec = (System.nanoTime() - t0) / 1e9;
            System.out.printf("bench: %d windows of 20 s (%.0f simulated hours) in %.2f s wall (%d IO-level samples); target ≤ 10 s%n",
                    windows[0], s.hours(), sec, run.samplesTaken());
            return 0;
        }
    }

    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Run a scenario IO by IO, paced to the wall clock, and serve it to host agents over the vSCSI gRPC service.")
    static final class Serve implements Callable<Integer> {
        @Parameters(paramLabel = "FILE|NAME", description = "Scenario file, or the name of a shipped example.")
        String scenario;
        @Option(names = "--port", defaultValue = "0", description = "Loopback port (0: a free one); default ${DEFAULT-VALUE}.")
        int port;
        @Option(names = "--speed", defaultValue = "1",
                description = "Simulated seconds per wall second (compressed time); default ${DEFAULT-VALUE}.")
        double speed;
        @Option(names = "--seed", description = "Seed of the run (default: the scenario's).")
        Long seed;

        @Override
        public Integer call() throws Exception {
            Scenario s = ScenarioCatalog.resolve(scenario);
            World world = World.build(s);
            PacedWorld paced = new PacedWorld(world, speed, seed != null ? seed : s.seed());
            VScsiServer server = VScsiServer.start(paced, port);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "vscsi-shutdown"));
            // Tests and scripts read the port from this line.
            System.out.printf("vscsi listening on %s (scenario %s, speed %s)%n", server.target(), s.name(), speed);
            System.out.flush();
            server.awaitTermination();
            return 0;
        }
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Write a random world from a seed as a scenario file.")
    static final class Generate implements Callable<Integer> {
        @Option(names = "--seed", defaultValue = "1")
        long seed;
        @Option(names = "--datastores", defaultValue = "8")
        int datastores;
        @Option(names = "--vms", defaultValue = "40")
        int vms;
        @Option(names = "--hours", defaultValue = "24")
        double hours;
        @Option(names = {"-o", "--output"}, required = true)
        Path output;

        @Override
        public Integer call() throws Exception {
            Scenario s = RandomWorldGenerator.generate(seed, datastores, vms, hours);
            String json = RandomWorldGenerator.toJson(s);
            ScenarioLoader.parse(json, output.toString()); // what we write must load
            Files.writeString(output, json);
            System.out.printf("wrote %s: %d datastores, %d VMs, %d disks%n", output, s.datastores().size(),
                    s.vms().size(), s.diskCount());
            return 0;
        }
    }
}
