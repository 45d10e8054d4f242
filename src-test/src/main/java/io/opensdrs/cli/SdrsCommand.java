package io.opensdrs.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sdrs} command line: the root of every subcommand the product has. The
 * {@code sdrs} shell script at the repository root builds what is missing and runs this.
 */
@Command(name = "sdrs",
        mixinStandardHelpOptions = true,
        versionProvider = SdrsVersion.class,
        description = "OpenSDRS: Storage DRS re-made in the open.",
        subcommands = {
                DemoCommand.class,
                CaptureCommand.class,
                io.opensdrs.testbed.cli.TestbedCommand.class,
                io.opensdrs.cli.model.ModelCommand.class,
                io.opensdrs.bench.BenchCommand.class,
                CommandLine.HelpCommand.class
        })
public final class SdrsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and tests. */
    public static CommandLine commandLine() {
        return new CommandLine(new SdrsCommand())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(new CliErrors());
    }
}
