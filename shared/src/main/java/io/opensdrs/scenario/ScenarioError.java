package io.opensdrs.scenario;

/**
 * One thing wrong with a scenario file.
 *
 * @param path    JSON path of the offending field, e.g. {@code $.vms[3].disks[0].datastore}
 * @param message what is wrong with it
 */
public record ScenarioError(String path, String message) implements Comparable<ScenarioError> {
    @Override
    public String toString() {
        return path + ": " + message;
    }

    @Override
    public int compareTo(ScenarioError o) {
        int c = path.compareTo(o.path);
        return c != 0 ? c : message.compareTo(o.message);
    }
}
