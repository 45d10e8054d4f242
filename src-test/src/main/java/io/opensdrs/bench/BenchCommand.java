package io.opensdrs.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sdrs bench}: the product's benchmarks (SPEC §8), each a table on standard output and a CSV. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of SPEC §8: B1 model accuracy, B2 balancing quality, B3 balancing scale, "
                + "B4 statistics ingestion, B4v every disk's counters read from vCenter, B5 the host agent's injector against fio, "
                + "B6 the host agent's throttle per IO, B9 the server's restart after kill -9 with a day of statistics.",
        subcommands = {B1Command.class, B1qCommand.class, B2Command.class, B3Command.class, B4Command.class, B4vCommand.class, B5Command.class, B6Command.class, B9Command.class,
                CommandLine.HelpCommand.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
