package io.opensdrs.cli;

import io.opensdrs.scenario.InvalidScenarioException;
import picocli.CommandLine;

/**
 * Turns failures a user can fix (a bad scenario file, a bad option value) into a message
 * and exit code 2 instead of a stack trace; anything else is a bug and keeps its trace.
 */
final class CliErrors implements CommandLine.IExecutionExceptionHandler {
    static final int USER_ERROR = 2;

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parsed) {
        if (ex instanceof InvalidScenarioException || ex instanceof IllegalArgumentException) {
            cmd.getErr().println(cmd.getColorScheme().errorText("error: " + ex.getMessage()));
            return USER_ERROR;
        }
        ex.printStackTrace(cmd.getErr());
        return cmd.getCommandSpec().exitCodeOnExecutionException();
    }
}
