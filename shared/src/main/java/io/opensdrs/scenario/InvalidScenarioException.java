package io.opensdrs.scenario;

import java.util.List;
import java.util.stream.Collectors;

/** A scenario file that breaks the schema or the world's consistency; nothing was built from it. */
public class InvalidScenarioException extends Exception {
    private final String source;
    private final List<ScenarioError> errors;

    public InvalidScenarioException(String source, List<ScenarioError> errors) {
        super(source + ": invalid scenario:\n" + errors.stream()
                .map(e -> "  " + e).collect(Collectors.joining("\n")));
        this.source = source;
        this.errors = List.copyOf(errors);
    }

    public String source() {
        return source;
    }

    public List<ScenarioError> errors() {
        return errors;
    }
}
