package io.opensdrs.balance.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sdrs bench}: the product's benchmarks (SPEC §8). */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of SPEC §8 (B3: balancing scale).",
        subcommands = {BalanceBenchCommand.class, CommandLine.HelpCommand.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }
}
