package io.opensdrs.cli;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** One `sdrs` command run in this JVM as the launcher runs it: its exit code, standard output and error. */
public record SdrsRun(int exit, String out, String err) {

    public static SdrsRun of(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cli = SdrsCommand.commandLine();
            cli.setErr(new PrintWriter(err, true));
            cli.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
            int exit = cli.execute(args);
            return new SdrsRun(exit, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(old);
        }
    }
}
