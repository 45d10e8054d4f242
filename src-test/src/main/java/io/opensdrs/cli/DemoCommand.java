package io.opensdrs.cli;

import io.opensdrs.demo.DemoRun;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * The demo: the whole loop on one machine ({@link DemoRun}). The world is loaded, validated and
 * printed first, so a broken scenario fails before anything starts.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the whole loop on one machine: vcsim, the storage testbed, the server (embedded H2),",
                "one host agent per host; models per datastore, a Storage DRS run with its recommendations,",
                "the storage vMotions, and per-datastore latency before and after. Ctrl-C stops everything.",
                "With --world-only it only validates and prints the scenario's world."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = {"-s", "--scenario"}, defaultValue = "demo", paramLabel = "FILE|NAME",
            description = "Scenario file, or the name of a shipped example (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--exit-when-done", description = "Exit after the before/after table (0 if the worst datastore's p90"
            + " latency fell, 1 if not) instead of running on for the UI.")
    boolean exitWhenDone;

    @Option(names = "--world-only", description = "Validate and print the world, start nothing.")
    boolean worldOnly;

    @Option(names = "--speed", defaultValue = "30",
            description = "Simulated seconds per wall second in the testbed (compressed time); default ${DEFAULT-VALUE}.")
    double speed;

    /** Where the server reads every disk's IO. */
    enum StatsSource { vcenter }

    @Option(names = "--stats", defaultValue = "vcenter", paramLabel = "SOURCE",
            description = "Where the server reads every disk's IO: vcenter, the realtime performance counters of vCenter's"
                    + " PerformanceManager, the one source a real vSphere has (the testbed publishes each 20-s window's IO"
                    + " there); default ${DEFAULT-VALUE}.")
    StatsSource stats;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where logs, the H2 database and the datastores' directories go (emptied first);"
                    + " default: target/demo at the repository root.")
    Path workDir;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        out.println("sdrs demo: loading scenario '" + scenario + "' (schema and consistency checks)...");
        Scenario world = ScenarioCatalog.resolve(scenario);
        out.println("ok: the scenario is valid.");
        out.println();
        new WorldReport(world).print(out);
        if (worldOnly) {
            return 0;
        }
        if (!world.events().isEmpty()) {
            // the world's timeline is printed as the scenario defines it; say plainly which part the demo plays
            out.println("The demo plays the loop once (models, one Storage DRS run, its moves), not the timed events"
                    + " above: `sdrs testbed run` plays them in virtual time, and the system tests DatastoreAddedIT and"
                    + " WholeLoopIT play a datastore added and maintenance mode with real processes.");
            out.println();
        }
        Path root = repositoryRoot();
        Path dir = workDir != null ? workDir : root.resolve("target/demo");
        empty(dir);
        LocalLoop.Settings settings = LocalLoop.Settings.defaults(root, dir).withSpeed(speed);
        out.println("Statistics: the server reads every disk's IO from vCenter's realtime performance counters"
                + " (PerformanceManager.QueryPerf, 20-s samples); the agents only keep heartbeat blocks and run the injector.");
        DemoRun.Outcome outcome = new DemoRun(world, settings, out).run(exitWhenDone);
        return outcome.improved() ? 0 : 1;
    }

    /** The checkout this CLI was built in: the jar (or classes) is in src-test/target. */
    static Path repositoryRoot() throws Exception {
        Path here = Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
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
