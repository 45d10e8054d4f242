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
                io.opensdrs.model.cli.ModelCommand.class,
                io.opensdrs.balance.bench.BenchCommand.class,
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
        CommandLine root = new CommandLine(new SdrsCommand());
        // B1 and B2 need the testbed, which module model cannot see: attach them to model's `bench` here.
        CommandLine bench = root.getSubcommands().get("bench");
        bench.addSubcommand("b1", new io.opensdrs.bench.B1Command());
        bench.addSubcommand("b2", new io.opensdrs.bench.B2Command());
        // B4v starts vcsim (src-test) and the server jar as processes
        bench.addSubcommand("b4v", new io.opensdrs.bench.B4vCommand());
        return root
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(new CliErrors());
    }
}
