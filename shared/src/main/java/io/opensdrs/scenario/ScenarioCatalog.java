package io.opensdrs.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The example worlds shipped with the product, addressable by name (for example
 * {@code pesto-testbed}) wherever a scenario file is accepted.
 */
public final class ScenarioCatalog {
    private static final String DIR = "/io/opensdrs/scenario/examples/";
    private static final String INDEX = DIR + "index.txt";

    private ScenarioCatalog() {
    }

    /** Names of the shipped examples, in the order of the catalog's index. */
    public static List<String> names() {
        try (InputStream in = ScenarioCatalog.class.getResourceAsStream(INDEX)) {
            if (in == null) {
                throw new IllegalStateException("scenario catalog index missing: " + INDEX);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads a shipped example by name. */
    public static Scenario example(String name) throws InvalidScenarioException {
        if (!names().contains(name)) {
            throw new InvalidScenarioException(name, List.of(new ScenarioError("$",
                    "no shipped scenario named '" + name + "' (shipped: " + String.join(", ", names()) + ")")));
        }
        try (InputStream in = ScenarioCatalog.class.getResourceAsStream(DIR + name + ".json")) {
            if (in == null) {
                throw new IllegalStateException("catalog lists '" + name + "' but its file is missing");
            }
            return ScenarioLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name + ".json");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Resolves what a user typed: an existing file path is loaded from disk, anything else
     * is looked up among the shipped examples.
     */
    public static Scenario resolve(String fileOrName) throws InvalidScenarioException {
        Path p = Path.of(fileOrName);
        if (Files.exists(p) || fileOrName.endsWith(".json")) {
            return ScenarioLoader.load(p);
        }
        return example(fileOrName);
    }
}
