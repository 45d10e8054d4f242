package io.opensdrs.cli.model;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sdrs model}: fit and score the datastore performance models. */
@Command(name = "model", mixinStandardHelpOptions = true,
        description = "Datastore performance models (BASIL, Pesto, Romano, queueing): fit and score.",
        subcommands = {FitCommand.class, DevicesCommand.class, CommandLine.HelpCommand.class})
public final class ModelCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
