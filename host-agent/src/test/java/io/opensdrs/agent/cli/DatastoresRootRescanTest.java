package io.opensdrs.agent.cli;

import io.opensdrs.agent.DatastoreAgent;
import io.opensdrs.agent.DatastoreDiscovery;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.HeartbeatFile;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.injector.InjectorSchedule;
import io.opensdrs.shared.agent.v1.InjectorMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --datastores-root}: the root is listed like /vmfs/volumes (directories and symbolic links
 * to directories are datastores, named as the entry), and a rescan gives a datastore mounted
 * later its own running per-datastore agent, drops one unmounted, and tells the server.
 */
class DatastoresRootRescanTest {
    private static final Duration PERIOD = Duration.ofMillis(100);

    @TempDir
    Path tmp;

    private final List<String> events = new ArrayList<>();
    private final AgentEvents log = (ds, type, details) -> {
        synchronized (events) {
            events.add(ds + " " + type);
        }
    };
    private final Map<String, DatastoreAgent> agents = new ConcurrentHashMap<>();

    @AfterEach
    void closeAgents() throws Exception {
        for (DatastoreAgent a : agents.values()) {
            a.close();
        }
    }

    @Test
    void discoveryListsDirectoriesAndLinksToDirectoriesByTheirEntryName() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("volumes"));
        Path storage = Files.createDirectories(tmp.resolve("storage"));
        Files.createDirectories(root.resolve("local-ds"));
        Files.createSymbolicLink(root.resolve("gold-7k1"), Files.createDirectories(storage.resolve("uuid-1")));
        Files.createSymbolicLink(root.resolve("dangling"), storage.resolve("nothing-here"));
        Files.writeString(root.resolve("a-file"), "not a datastore");
        Files.createDirectories(root.resolve(".hidden"));
        DatastoreDiscovery discovery = new DatastoreDiscovery(root);

        DatastoreDiscovery.Changes first = discovery.rescan();
        assertThat(first.added()).containsOnlyKeys("gold-7k1", "local-ds");
        assertThat(first.added().get("gold-7k1")).isEqualTo(root.resolve("gold-7k1"));
        assertThat(first.removed()).isEmpty();
        assertThat(discovery.rescan().isEmpty()).as("nothing changed").isTrue();

        Files.createDirectories(storage.resolve("nothing-here")); // the dangling link now points at a directory
        Files.delete(root.resolve("local-ds"));
        DatastoreDiscovery.Changes second = discovery.rescan();
        assertThat(second.added()).containsOnlyKeys("dangling");
        assertThat(second.removed()).containsExactly("local-ds");
        assertThat(discovery.known()).containsOnlyKeys("dangling", "gold-7k1");
    }

    @Test
    void aDatastoreMountedLaterGetsItsOwnRunningAgentAndTheServerIsTold() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("volumes"));
        Path storage = Files.createDirectories(tmp.resolve("storage"));
        Files.createSymbolicLink(root.resolve("ds1"), Files.createDirectories(storage.resolve("ds1")));
        DatastoreDiscovery discovery = new DatastoreDiscovery(root);
        AgentConnections wiring = new AgentConnections("esx1", "esx1", log, new io.opensdrs.agent.heartbeat.ServerLoads(java.time.Duration.ofMinutes(1)));
        Set<String> fixed = Set.of("pinned");

        AgentCommand.rescan(discovery, fixed, agents, wiring, log, this::agent);
        assertThat(agents).containsOnlyKeys("ds1");
        assertThat(wiring.sees("ds1")).isTrue();

        // the administrator adds a datastore: the host mounts it (a new entry under the root)
        Files.createSymbolicLink(root.resolve("gold-ssd2"), Files.createDirectories(storage.resolve("gold-ssd2")));
        AgentCommand.rescan(discovery, fixed, agents, wiring, log, this::agent);
        assertThat(agents).containsOnlyKeys("ds1", "gold-ssd2");
        assertThat(wiring.sees("gold-ssd2")).as("directives (injector requests) reach it").isTrue();
        DatastoreAgent added = agents.get("gold-ssd2");
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!added.election().isLeader() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(added.election().isLeader()).as("the only host seeing it leads it").isTrue();
        assertThat(Files.size(storage.resolve("gold-ssd2").resolve(".sdrs-heartbeat")))
                .as("its heartbeat block is written in the datastore").isGreaterThanOrEqualTo(512);
        synchronized (events) {
            assertThat(events).contains("gold-ssd2 datastore-added", "- datastores");
        }

        // unmounted: its agent stops and the server is told; nothing else changes
        Files.delete(root.resolve("ds1"));
        DatastoreAgent gone = agents.get("ds1");
        AgentCommand.rescan(discovery, fixed, agents, wiring, log, this::agent);
        assertThat(agents).containsOnlyKeys("gold-ssd2");
        assertThat(wiring.sees("ds1")).isFalse();
        assertThat(gone.election().isLeader()).isFalse();
        synchronized (events) {
            assertThat(events).contains("ds1 datastore-removed");
        }
    }

    private DatastoreAgent agent(String ds, Path dir) throws java.io.IOException {
        LeaderElection election = new LeaderElection(ds, "esx1", HeartbeatFile.open(dir, 16), LeaderElection.Timing.of(PERIOD),
                log, HostIoStatistics.NONE);
        DatastoreAgent a = new DatastoreAgent(election, new InjectorSchedule(Duration.ofDays(1), PERIOD, Duration.ofHours(1),
                System.currentTimeMillis()), List.of(), () -> {
            throw new java.io.IOException("no injector in this test");
        }, InjectorMode.EMULATED, log, r -> { });
        return a;
    }
}
