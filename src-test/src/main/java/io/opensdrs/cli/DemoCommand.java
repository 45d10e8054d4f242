package io.opensdrs.cli;

import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * The demo: the whole loop on one machine. What runs grows as the product does; today it
 * loads and validates a world (a shipped example or a file) and prints what it describes.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the demo on one machine.",
                "Loads and validates a scenario (a shipped example by name, or a JSON file) and prints",
                "the world it describes: datastore clusters, datastores and their devices, space and",
                "load per datastore as placed, hosts, VMs, rules and timed events."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = {"-s", "--scenario"}, defaultValue = "demo", paramLabel = "FILE|NAME",
            description = "Scenario file, or the name of a shipped example (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        out.println("sdrs demo: loading scenario '" + scenario + "' (schema and consistency checks)...");
        Scenario world = ScenarioCatalog.resolve(scenario);
        out.println("ok: the scenario is valid.");
        out.println();
        new WorldReport(world).print(out);
        return 0;
    }
}
