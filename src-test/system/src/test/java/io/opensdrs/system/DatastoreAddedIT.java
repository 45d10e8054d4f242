package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.loop.MeasuredLatency;
import io.opensdrs.loop.ServerApi;
import io.opensdrs.scenario.EventSpec;
import io.opensdrs.testbed.vscsi.PacedWorld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The datastore-add workflow end to end with real processes (SPEC §1/§3, Pesto §5.4.2; issue 8
 * acceptance 4): the demo world runs with models and VM IO, then the demo scenario's event "at
 * hour 8: datastore gold-ssd2 added to cluster gold, seen by esx1, esx2" is played as it happens
 * in reality ({@link LocalLoop#addDatastore}: the testbed gets the device, vCenter the datastore in
 * the storage pod through govc, the two hosts mount it and their agents find it at their next
 * rescan). The server must notice it in the pod, have it modelled from measurements, and a
 * Storage DRS run must move a disk onto it, which vCenter (govc) then shows there.
 */
class DatastoreAddedIT {
    private static final String NEW = "gold-ssd2";
    /**
     * How long the datastore-add workflow may take, from the datastore in vCenter's pod (and
     * mounted) to its leader starting the injector: the agents' rescan (≤ 1 heartbeat period), two
     * idle periods (Pesto §5.1.1), the server's inventory sync and addition check, the
     * InjectorRequest to the agents that registered the datastore, and, since a datastore whose load
     * is unknown is never idle, the server's next read of vCenter's counters that includes it and the
     * loads it then publishes to the agents (src-test README has the measured periods).
     */
    private static final int MAX_PERIODS_TO_INJECTOR_START = 16;
    /**
     * The acceptance (issue 8): a model within 2 minutes of compressed time. The loop compresses its
     * clocks together: the agents' heartbeat period is 0.25 s of wall clock (10 s simulated at 40×;
     * a real host's is 4 s), the server's inventory sync 0.5 s and its addition check 0.25 s, and an
     * injector level stops after 2,048 IOs (each emulated IO is a vSCSI round trip through the
     * testbed's engine thread). Measured 2026-11-21: 43, 50 and 52 s simulated, 3.9–4.1 s of wall clock;
     * 2026-11-27, since the testbed no longer catches up the time the injector held it (one CI run had
     * read 195.7 s after the catch-up): 29, 34 and 32 s simulated, 4.2–5.2 s of wall clock.
     * Before, with 1-s agent periods and uncapped levels, it was 0.1–2.8 min (27 s of wall clock).
     */
    private static final Duration MAX_SIMULATED_TO_MODEL = Duration.ofMinutes(2);
    /** A loose wall-clock bound besides, for a machine so loaded that the testbed falls far behind. */
    private static final Duration MAX_WALL_TO_MODEL = Duration.ofSeconds(90);
    private static LocalLoop loop;

    @BeforeAll
    static void startLoop() throws Exception {
        loop = SystemLoops.startDemoWorldWithVmIo("datastore-added");
    }

    @AfterAll
    static void stopLoop() {
        SystemLoops.closeAndCheckStopped(loop);
    }

    @Test
    void anAddedDatastoreIsModelledWithinBoundAndReceivesDisks() throws Exception {
        ServerApi api = loop.api();
        EventSpec.AddDatastore event = loop.scenario().events().stream()
                .filter(e -> e instanceof EventSpec.AddDatastore a && a.datastore().name().equals(NEW))
                .map(e -> (EventSpec.AddDatastore) e).findFirst().orElseThrow();
        PacedWorld world = loop.world();
        int[] windowsSinceIo = {0};
        List<Double> starts = new ArrayList<>();
        world.addWindowListener(r -> {
            synchronized (starts) {
                if (!starts.contains(r.startMs())) {
                    starts.add(r.startMs());
                    windowsSinceIo[0]++;
                }
            }
        });

        // The cluster runs Pesto (models and strategy) as an administrator may set it: with "auto" the
        // server once picked Romano whenever every model of the cluster was Romano's, and Romano's 95 %
        // bounds block most moves (issue 8, src-test/README) — a CI run got 0 recommendations that way
        // (auto now needs calibrated Romano models, which the injector's reads alone do not give). This
        // test is about the datastore-add workflow, not about which strategy moves.
        String goldId = SystemLoops.clusterId(loop, event.cluster());
        com.fasterxml.jackson.databind.node.ObjectNode settings = (com.fasterxml.jackson.databind.node.ObjectNode)
                api.get("/api/v1/clusters/" + goldId + "/settings");
        settings.put("modelKind", "pesto").put("strategy", "pesto");
        api.put("/api/v1/clusters/" + goldId + "/settings", settings);

        // --- the administrator adds the datastore -------------------------------------------------
        long wall0 = System.nanoTime();
        double sim0 = world.simNowMs();
        loop.addDatastore(event.datastore(), event.cluster(), event.hosts());
        long wallAdded = System.nanoTime();
        long addedMs = System.currentTimeMillis();
        double simAdded = world.simNowMs();

        // (a) vCenter has it in the pod, mounted on both hosts
        String pod = loop.govc().run("find", "/", "-type", "StoragePod", "-name", event.cluster()).strip();
        assertThat(loop.govc().run("ls", pod).lines().map(String::strip)).contains(pod + "/" + NEW);
        JsonNode info = loop.govc().json("datastore.info", NEW).path("datastores").get(0);
        assertThat(info.path("host").size()).as("hosts mounting %s in vCenter", NEW).isEqualTo(event.hosts().size());
        assertThat(info.at("/summary/capacity").asLong()).isEqualTo((long) (event.datastore().capacityGB() * (1L << 30)));
        String clusterId = SystemLoops.clusterId(loop, event.cluster());
        SystemLoops.await("the server's inventory has " + NEW + " in cluster " + event.cluster(), Duration.ofSeconds(60), () -> {
            for (JsonNode d : api.get("/api/v1/datastores?cluster=" + clusterId)) {
                if (d.path("name").asText().equals(NEW)) {
                    return true;
                }
            }
            return false;
        });
        long wallInInventory = System.nanoTime();

        // (b) a measured model, not Pesto's default one
        JsonNode[] model = {null};
        SystemLoops.await("a measured model of " + NEW, Duration.ofMinutes(3), () -> {
            try {
                JsonNode m = api.get("/api/v1/datastores/" + NEW + "/model").path("model");
                if (m.path("valid").asBoolean() && !"default".equals(m.path("source").asText())) {
                    model[0] = m;
                    return true;
                }
            } catch (ServerApi.ApiException e) {
                if (e.status() != 404) {
                    throw e;
                }
            }
            return false;
        });
        long wallModel = System.nanoTime();
        double simModel = world.simNowMs();
        long periodMs = loop.settings().agentPeriod().toMillis();
        long injectStartMs = firstEvent("type=inject-start");
        double toInjectS = (injectStartMs - addedMs) / 1000.0;
        double wallS = (wallModel - wallAdded) / 1e9;
        double simS = (simModel - simAdded) / 1000;
        SystemLoops.say(String.format(Locale.ROOT, "%s: vCenter, testbed and host mounts took %.1f s wall (%.0f s simulated);"
                        + " in the server's inventory after %.1f s wall", NEW, (wallAdded - wall0) / 1e9, (simAdded - sim0) / 1000,
                (wallInInventory - wallAdded) / 1e9));
        SystemLoops.say(String.format(Locale.ROOT, "%s: injector started %.1f s wall = %.1f agent periods after it was added", NEW,
                toInjectS, toInjectS * 1000 / periodMs));
        SystemLoops.say(String.format(Locale.ROOT, "%s: measured model (%s from the %s, R²=%.3f) %.1f s wall after it"
                        + " was added; %.0f s = %.1f min simulated (testbed at %.0fx nominal, %.1fx achieved)", NEW,
                model[0].path("kind").asText(), model[0].path("source").asText(), model[0].path("rSquared").asDouble(Double.NaN), wallS,
                simS, simS / 60, loop.settings().speed(), simS / wallS));
        describeWorkflow(clusterId);
        assertThat(toInjectS * 1000 / periodMs).as("agent periods from the datastore added to its injector run (see MAX_PERIODS_TO_INJECTOR_START)")
                .isLessThanOrEqualTo(MAX_PERIODS_TO_INJECTOR_START);
        assertThat(simS).as("simulated seconds from the datastore added to its measured model (see MAX_SIMULATED_TO_MODEL)")
                .isLessThanOrEqualTo(MAX_SIMULATED_TO_MODEL.toSeconds());
        assertThat(wallS).as("seconds of wall clock from the datastore added to its measured model (see MAX_WALL_TO_MODEL)")
                .isLessThanOrEqualTo(MAX_WALL_TO_MODEL.toSeconds());

        // (c) Storage DRS moves a disk onto it, once the server's statistics hold only the VMs' IO
        int missing;
        synchronized (starts) {
            missing = Math.max(0, LocalLoop.WINDOWS_TO_FILL_STATS - windowsSinceIo[0]);
        }
        if (missing > 0) {
            SystemLoops.say("waiting " + missing + " more statistics windows of VM IO before the balancing run");
            MeasuredLatency.record(world, missing, SystemLoops::say);
        }
        String newId = SystemLoops.datastoreId(loop, NEW);
        JsonNode run = api.post("/api/v1/clusters/" + clusterId + "/run", Map.of());
        SystemLoops.say(String.format("Storage DRS run on %s: strategy %s, %d recommendation(s)", event.cluster(),
                run.path("strategy").asText(), run.path("recommendationIds").size()));
        List<Long> appliedByServer = new ArrayList<>();
        run.path("appliedRecommendationIds").forEach(r -> appliedByServer.add(r.asLong()));
        long onto = -1;
        String vmId = null;
        List<Integer> diskKeys = new ArrayList<>();
        for (JsonNode r : run.path("recommendationIds")) {
            long rid = r.asLong();
            JsonNode rec = api.get("/api/v1/recommendations/" + rid);
            SystemLoops.say(describe(rec));
            for (JsonNode a : rec.path("actions")) {
                if (a.path("destinationDatastoreId").asText().equals(newId) && onto < 0) {
                    onto = rid;
                    vmId = a.path("vmId").asText();
                    a.path("diskKeys").forEach(k -> diskKeys.add(k.asInt())); // none: the whole VM
                }
            }
        }
        assertThat(onto).as("a recommendation moves a disk onto %s (%s)", NEW, newId).isGreaterThanOrEqualTo(0);
        long rid = onto;
        if (!appliedByServer.contains(rid)) { // manual mode: "Apply" as in the UI
            api.post("/api/v1/recommendations/" + rid + "/apply", Map.of());
        }
        SystemLoops.await("recommendation " + rid + " APPLIED", Duration.ofMinutes(4), () -> {
            JsonNode rec = api.get("/api/v1/recommendations/" + rid);
            String state = rec.path("state").asText();
            if (state.equals("FAILED") || state.equals("CANCELLED")) {
                throw new AssertionError("recommendation " + rid + " ended " + state + ": " + rec);
            }
            return state.equals("APPLIED");
        });
        String vmName = vmName(vmId);
        List<String> moved = new ArrayList<>();
        for (JsonNode d : loop.govc().json("device.info", "-vm", vmName, "disk-*").path("devices")) {
            if (diskKeys.isEmpty() || diskKeys.contains(d.path("key").asInt())) {
                String file = d.at("/backing/fileName").asText();
                SystemLoops.say(String.format("vCenter (govc device.info): %s disk %d backing %s", vmName, d.path("key").asInt(), file));
                assertThat(file).as("%s disk %d's backing file in vCenter", vmName, d.path("key").asInt()).startsWith("[" + NEW + "] ");
                moved.add(file.substring(file.lastIndexOf('/') + 1).replaceFirst("(_\\d+)?\\.vmdk$", ""));
            }
        }
        assertThat(moved).as("disks of %s moved onto %s", vmName, NEW).isNotEmpty();
        List<String> scenarioDisks = loop.scenario().vms().stream().filter(v -> v.name().equals(vmName)).findFirst()
                .orElseThrow().disks().stream().map(d -> d.name()).toList();
        for (String disk : moved) {
            int testbedKey = PacedWorld.FIRST_DISK_KEY + scenarioDisks.indexOf(disk);
            SystemLoops.await("the testbed moved " + vmName + "/" + disk + "'s IO to " + NEW, Duration.ofMinutes(2),
                    () -> loop.follower().status(vmName, testbedKey).getDatastoreNow().equals(NEW));
        }
        SystemLoops.say(String.format(Locale.ROOT, "%s received %s's disks %s: the whole workflow took %.0f s wall, %.1f min simulated",
                NEW, vmName, moved, (System.nanoTime() - wall0) / 1e9, (world.simNowMs() - sim0) / 60_000));
    }

    /** The epoch ms of the first agent event on the new datastore containing {@code what}. */
    private static long firstEvent(String what) throws Exception {
        long first = Long.MAX_VALUE;
        for (ManagedProcess a : loop.agents().values()) {
            for (String line : Files.readAllLines(a.log())) {
                if (line.startsWith("EVENT ") && line.contains(" ds=" + NEW + " ") && line.contains(what)) {
                    first = Math.min(first, Long.parseLong(line.split(" ")[1]));
                }
            }
        }
        assertThat(first).as("an agent event %s on %s", what, NEW).isLessThan(Long.MAX_VALUE);
        return first;
    }

    /** Prints what the server and the agents did: the history of the cluster, the agents' events on the new datastore. */
    private static void describeWorkflow(String clusterId) throws Exception {
        for (JsonNode h : loop.api().get("/api/v1/clusters/" + clusterId + "/history")) {
            String action = h.path("action").asText();
            if (action.equals("datastore-added") || action.equals("injector-requested")) {
                SystemLoops.say("  server history: " + action + ": " + h.path("detail").asText());
            }
        }
        for (Map.Entry<String, ManagedProcess> a : loop.agents().entrySet()) {
            for (String line : Files.readAllLines(a.getValue().log())) {
                if (line.contains("ds=" + NEW + " ") && (line.contains("type=datastore-added") || line.contains("type=leader")
                        || line.contains("type=inject-") || line.contains("type=joined"))) {
                    SystemLoops.say("  agent " + a.getKey() + ": " + line);
                }
            }
        }
    }

    private static String describe(JsonNode rec) {
        StringBuilder b = new StringBuilder(String.format("  recommendation %d [%s] %s", rec.path("id").asLong(),
                rec.path("reasonCode").asText(), rec.path("state").asText()));
        for (JsonNode a : rec.path("actions")) {
            b.append(String.format("%n      move %s disks %s from %s to %s", a.path("vmId").asText(), a.path("diskKeys"),
                    a.path("sourceDatastoreIds"), a.path("destinationDatastoreId").asText()));
        }
        return b.toString();
    }

    private static String vmName(String vmId) throws Exception {
        for (JsonNode d : loop.api().get("/api/v1/disks")) {
            if (d.path("vm").asText().equals(vmId)) {
                return d.path("vmName").asText();
            }
        }
        throw new AssertionError("no VM " + vmId);
    }
}
