package io.opensdrs.agent;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The datastores a host sees, found the way an ESX host mounts them: every entry of a root
 * directory (like {@code /vmfs/volumes}) that is a directory, or a symbolic link to one, is a
 * datastore named as the entry (the link's name, not its target). Hidden entries (a leading
 * dot) are not datastores. {@link #rescan()} compares the root with what it found last time and
 * says what appeared and what went away; the agent calls it every heartbeat period, so a datastore
 * mounted on the host while the agent runs gets its own per-datastore agent within a period.
 */
public final class DatastoreDiscovery {

    /** What one rescan found: datastores new since the last scan and datastores no longer there. */
    public record Changes(Map<String, Path> added, List<String> removed) {
        public boolean isEmpty() {
            return added.isEmpty() && removed.isEmpty();
        }
    }

    private final Path root;
    private final Map<String, Path> known = new TreeMap<>();

    public DatastoreDiscovery(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** The datastores found by the last scan, by name. */
    public synchronized Map<String, Path> known() {
        return new LinkedHashMap<>(known);
    }

    /** Forgets a datastore, so that the next rescan reports it as added again (its set-up failed). */
    public synchronized void forget(String name) {
        known.remove(name);
    }

    /**
     * Lists the root once. A root that cannot be read (missing, unmounted) is an error and
     * changes nothing: a transient failure must not look like every datastore going away.
     */
    public synchronized Changes rescan() throws IOException {
        Map<String, Path> now = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                if (Files.isDirectory(p)) { // follows a symbolic link: a link to a directory counts
                    now.put(name, root.resolve(name));
                }
            }
        }
        Map<String, Path> added = new LinkedHashMap<>();
        now.forEach((name, dir) -> {
            if (!known.containsKey(name)) {
                added.put(name, dir);
            }
        });
        List<String> removed = new ArrayList<>();
        for (String name : known.keySet()) {
            if (!now.containsKey(name)) {
                removed.add(name);
            }
        }
        known.clear();
        known.putAll(now);
        return new Changes(added, removed);
    }
}
