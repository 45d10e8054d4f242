package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.loop.ServerApi;
import io.opensdrs.testbed.vscsi.PacedWorld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One loop (the demo world: vcsim, testbed, server on H2, four agents; VM IO running) shared by
 * the faults it survives: the server killed mid-migration, agent and server cut apart, a
 * datastore put in maintenance, an agent leading a datastore killed. Ordered, because each
 * leaves the world changed for the next.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WholeLoopIT {
    private static final Pattern LEADER = Pattern.compile("EVENT (\\d+) host=(\\S+) ds=gold-7k1 type=leader");
    private static LocalLoop loop;

    @BeforeAll
    static void startLoop() throws Exception {
        loop = SystemLoops.startDemoWorldWithVmIo("whole-loop");
    }

    @AfterAll
    static void stopLoop() {
        SystemLoops.closeAndCheckStopped(loop);
    }

    @Test
    @Order(1)
    void theServerKilledMidMigrationCompletesEachMigrationExactlyOnce() throws Exception {
        ServerApi api = loop.api();
        String oltp = SystemLoops.vmId(loop, "gold-oltp1");
        String backup = SystemLoops.vmId(loop, "gold-backup3");
        JsonNode rec = api.post("/api/v1/clusters/" + SystemLoops.clusterId(loop, "gold") + "/recommendations", Map.of(
                "reasonCode", "balanceDatastoreIOLoad",
                "moves", List.of(
                        Map.of("vmId", oltp, "diskKeys", List.of(SystemLoops.diskKey(loop, "gold-oltp1", "data")), "destinationDatastoreId", SystemLoops.datastoreId(loop, "gold-ssd1")),
                        Map.of("vmId", backup, "diskKeys", List.of(SystemLoops.diskKey(loop, "gold-backup3", "system")), "destinationDatastoreId", SystemLoops.datastoreId(loop, "gold-15k1")))));
        long id = rec.path("id").asLong();
        api.post("/api/v1/recommendations/" + id + "/apply", Map.of());
        SystemLoops.await("a migration RUNNING", Duration.ofSeconds(60), () -> {
            for (JsonNode a : api.get("/api/v1/recommendations/" + id).path("actions")) {
                if (a.path("state").asText().equals("RUNNING")) {
                    return true;
                }
            }
            return false;
        });
        loop.server().kill();
        SystemLoops.say("server killed (SIGKILL) with a migration running; restarting it");
        Thread.sleep(1000);
        loop.server().restart();
        loop.awaitServerHealthy(Duration.ofSeconds(120));
        SystemLoops.await("recommendation " + id + " APPLIED", Duration.ofMinutes(3),
                () -> api.get("/api/v1/recommendations/" + id).path("state").asText().equals("APPLIED"));
        assertThat(loop.govc().relocateTasks(oltp)).as("RelocateVM tasks of gold-oltp1").isEqualTo(1);
        assertThat(loop.govc().relocateTasks(backup)).as("RelocateVM tasks of gold-backup3").isEqualTo(1);
        assertThat(loop.govc().diskFiles("gold-oltp1")).anyMatch(f -> f.startsWith("[gold-ssd1] gold-oltp1/data"));
        assertThat(loop.govc().diskFiles("gold-backup3")).anyMatch(f -> f.startsWith("[gold-15k1] gold-backup3/system"));
        SystemLoops.await("the testbed followed both moves", Duration.ofMinutes(2), () ->
                loop.follower().status("gold-oltp1", 2001).getDatastoreNow().equals("gold-ssd1")
                        && loop.follower().status("gold-backup3", 2000).getDatastoreNow().equals("gold-15k1"));
        SystemLoops.say("server killed mid-migration: both migrations completed once (1 RelocateVM task each), testbed followed");
    }

    /**
     * The server frozen (SIGSTOP) for 8 s, then resumed: the agents' reports buffered meanwhile all
     * arrive, each once (messages = last sequence number, none dropped), and every 20-s window the
     * testbed published to vCenter meanwhile is read from vCenter's counters afterwards, once.
     */
    @Test
    @Order(2)
    void agentAndServerCutApartAndRejoinedCountEverySampleOnce() throws Exception {
        ServerApi api = loop.api();
        JsonNode before = api.get("/api/v1/agents/esx3");
        String vm = SystemLoops.vmId(loop, "silver-oltp1");
        int key = SystemLoops.diskKey(loop, "silver-oltp1", "data");
        Set<Long> windowsDuringCut = new HashSet<>();
        Consumer<PacedWorld.WindowReport> counter = r -> {
            synchronized (windowsDuringCut) {
                // as the server reads it: vCenter's sample time (the window's end) in whole seconds, less the 20-s interval
                long endMs = loop.world().epochBaseMs() + Math.round(r.startMs() + 20_000);
                windowsDuringCut.add(Math.floorDiv(endMs, 1000) * 1000 - 20_000);
            }
        };
        loop.server().suspend();
        loop.world().addWindowListener(counter);
        Thread.sleep(8000);
        loop.world().removeWindowListener(counter);
        loop.server().resume();
        SystemLoops.say("server was frozen (SIGSTOP) for 8 s: " + windowsDuringCut.size()
                + " statistics windows went to vCenter meanwhile; agents buffered their reports");
        long periods = 8000 / loop.settings().agentPeriod().toMillis();
        JsonNode[] last = {null};
        try {
            SystemLoops.await("esx3's buffered reports accepted by the server", Duration.ofMinutes(1), () -> {
                last[0] = api.get("/api/v1/agents/esx3");
                // a DatastoreState for each of its three datastores each heartbeat period, at least half of them
                return last[0].path("acceptedMessages").asLong() - before.path("acceptedMessages").asLong() >= 3 * periods / 2;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; ledger before " + before + ", now " + last[0], e);
        }
        JsonNode after = api.get("/api/v1/agents/esx3");
        SystemLoops.say("esx3 ledger before " + before + "\n      after " + after);
        assertThat(after.path("acceptedMessages").asLong()).as("every report accepted once: messages = last seq")
                .isEqualTo(after.path("lastAcceptedSeq").asLong());
        assertThat(after.path("droppedOverflow").asLong()).isZero();
        // vCenter kept the samples: the server, resumed, read every window of the cut from its counters, once
        List<Long> starts = new java.util.ArrayList<>();
        SystemLoops.await("the windows published during the cut stored from vCenter", Duration.ofMinutes(1), () -> {
            starts.clear();
            for (JsonNode w : api.get("/api/v1/disks/" + vm + "/" + key + "/windows?limit=120")) {
                starts.add(java.time.Instant.parse(w.path("windowStart").asText()).toEpochMilli());
            }
            return starts.containsAll(windowsDuringCut);
        });
        assertThat(starts).as("no window stored twice").doesNotHaveDuplicates();
        SystemLoops.say("the " + windowsDuringCut.size() + " windows of the cut were read from vCenter after the resume, once each");
    }

    @Test
    @Order(3)
    void maintenanceModeEmptiesADatastore() throws Exception {
        ServerApi api = loop.api();
        JsonNode answer = api.post("/api/v1/datastores/silver-7k1/maintenance", Map.of("enter", true, "ignoreAffinity", false));
        SystemLoops.say("maintenance: " + answer);
        // the datastore's maintenance mode is vCenter's: entering there (in maintenance once empty), read with govc
        assertThat(loop.govc().json("datastore.info", "-json", "silver-7k1").at("/datastores/0/summary/maintenanceMode").asText())
                .isIn("enteringMaintenance", "inMaintenance");
        String cluster = SystemLoops.clusterId(loop, "silver");
        SystemLoops.await("silver-7k1 empty in vCenter, or faults reported", Duration.ofMinutes(4), () -> {
            for (JsonNode r : api.get("/api/v1/clusters/" + cluster + "/recommendations")) {
                if (r.path("state").asText().equals("PENDING")) {
                    api.post("/api/v1/recommendations/" + r.path("id").asLong() + "/apply", Map.of());
                }
            }
            boolean empty = !loop.govc().diskFiles("silver-web6").get(0).startsWith("[silver-7k1]");
            return empty || api.get("/api/v1/clusters/" + cluster + "/faults").size() > 0;
        });
        String file = loop.govc().diskFiles("silver-web6").get(0);
        SystemLoops.say("after maintenance silver-web6's disk is " + file + "; faults "
                + api.get("/api/v1/clusters/" + cluster + "/faults"));
        if (!file.startsWith("[silver-7k1]")) {
            String dest = file.substring(1, file.indexOf(']'));
            SystemLoops.await("the testbed followed the evacuation", Duration.ofMinutes(2),
                    () -> loop.follower().status("silver-web6", 2000).getDatastoreNow().equals(dest));
        }
    }

    @Test
    @Order(4)
    void anotherAgentLeadsWithinThreePeriodsWhenTheLeaderIsKilled() throws Exception {
        Map<String, ManagedProcess> agents = loop.agents();
        String leader = null;
        for (Map.Entry<String, ManagedProcess> e : agents.entrySet()) {
            Matcher m = LEADER.matcher(Files.readString(e.getValue().log()));
            while (m.find()) {
                leader = m.group(2);
            }
        }
        assertThat(leader).as("gold-7k1 has a leader").isNotNull();
        long killedAt = System.currentTimeMillis();
        agents.get(leader).kill();
        SystemLoops.say("killed (SIGKILL) " + leader + ", the leader of gold-7k1");
        try {
            awaitNewLeader(agents, leader, killedAt);
        } finally {
            // the loop as the next tests need it: every host's agent reporting its VMs' IO and enforcing their limits
            agents.get(leader).restart();
            SystemLoops.say("restarted " + leader + "'s agent");
        }
    }

    private void awaitNewLeader(Map<String, ManagedProcess> agents, String leader, long killedAt) throws Exception {
        long period = loop.settings().agentPeriod().toMillis();
        String old = leader;
        long[] newLeaderAt = {0};
        String[] newLeader = {null};
        SystemLoops.await("a new leader of gold-7k1", Duration.ofMillis(period * 10), () -> {
            for (Map.Entry<String, ManagedProcess> e : agents.entrySet()) {
                if (e.getKey().equals(old)) {
                    continue;
                }
                Matcher m = LEADER.matcher(Files.readString(e.getValue().log()));
                while (m.find()) {
                    if (Long.parseLong(m.group(1)) > killedAt) {
                        newLeaderAt[0] = Long.parseLong(m.group(1));
                        newLeader[0] = m.group(2);
                        return true;
                    }
                }
            }
            return false;
        });
        long took = newLeaderAt[0] - killedAt;
        SystemLoops.say(String.format("%s leads gold-7k1 %d ms after the kill (%.2f periods of %d ms)", newLeader[0], took,
                took / (double) period, period));
        // issue 5: within 3 heartbeat periods — 2 periods of silence make the dead leader's block
        // stale (seen at a quarter-period read), the claim then settles in period/4
        assertThat(took).isLessThanOrEqualTo(3 * period);
    }

    /** The testbed's statistics windows of the next {@code wall} of wall time. */
    private static List<PacedWorld.WindowReport> windowsOf(Duration wall) throws InterruptedException {
        List<PacedWorld.WindowReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        Consumer<PacedWorld.WindowReport> l = reports::add;
        loop.world().addWindowListener(l);
        Thread.sleep(wall.toMillis());
        loop.world().removeWindowListener(l);
        return reports;
    }

    /** {IOPS, IO-weighted mean latency in ms} of a disk ("silver-web2/data") over the windows, as the testbed measured it. */
    private static double[] measured(List<PacedWorld.WindowReport> reports, String disk) {
        double ios = 0;
        double seconds = 0;
        double latency = 0;
        for (PacedWorld.WindowReport r : reports) {
            for (io.opensdrs.testbed.stats.DiskWindow w : r.disks()) {
                if (w.disk().equals(disk)) {
                    ios += w.ios();
                    seconds += w.seconds();
                    latency += w.ios() * w.meanLatencyMs();
                }
            }
        }
        assertThat(seconds).as("windows of " + disk).isPositive();
        return new double[] {ios / seconds, ios == 0 ? 0 : latency / ios};
    }

    /**
     * SLEDS on the whole loop (SPEC §3.5, SLEDS §6.3's Fig. 5 in miniature): on silver-10k1, a
     * single 10k spindle, silver-web2 is a transaction class whose delivery bound (1 ms) no disk
     * can meet, silver-oltp1 and silver-oltp5 (8 outstanding 8-KiB IOs, 70 % reads) a bulk class
     * with a demand bound of 5 IOPS, the class's (SLEDS §3: its streams together). The server's
     * controller tightens the bulk streams until together they are at that bound, each at its
     * share, their hosts' agents pass the limits to the testbed's IO path, and the testbed
     * measures them at their limits — reads and writes together, not a limit on each — while
     * web2's response time falls. Removing the classes lifts the limits.
     */
    @Test
    @Order(5)
    void sledsClassesThrottleTheBulkStreamsToTheirDemandBoundAndLiftWhenRemoved() throws Exception {
        ServerApi api = loop.api();
        String cluster = SystemLoops.clusterId(loop, "silver");
        String settingsPath = "/api/v1/clusters/" + cluster + "/settings";
        String sledsPath = "/api/v1/clusters/" + cluster + "/sleds";
        // their hosts' agents report the streams and enforce the limits (the leader test killed one and restarted it)
        assertThat(loop.agents().get("esx3").isAlive()).as("esx3's agent").isTrue();
        assertThat(loop.agents().get("esx4").isAlive()).as("esx4's agent").isTrue();
        // the streams compete for one datastore: SLEDS tightens only streams sharing one with the stream that misses its SLO
        for (String vm : List.of("silver-web2", "silver-oltp1", "silver-oltp5")) {
            assertThat(loop.govc().diskFiles(vm).get(0)).as(vm + "'s disk in vCenter").startsWith("[silver-10k1]");
        }
        double[] oltpBefore = measured(windowsOf(Duration.ofSeconds(6)), "silver-oltp1/data");
        double[] webBefore = measured(windowsOf(Duration.ofSeconds(6)), "silver-web2/data");
        SystemLoops.say(String.format("unthrottled: silver-oltp1 %.1f IOPS, silver-web2 %.1f ms", oltpBefore[0], webBefore[1]));

        Map<String, Object> settings = new java.util.LinkedHashMap<String, Object>(
                new com.fasterxml.jackson.databind.ObjectMapper().convertValue(api.get(settingsPath), Map.class));
        Map<String, Object> original = new java.util.LinkedHashMap<>(settings);
        settings.put("serviceClasses", List.of(
                Map.of("id", "tp", "deliveryBoundMs", 1, "demandBoundIops", 10_000, "demandBoundBytesPerSecond", 1e9),
                Map.of("id", "bulk", "deliveryBoundMs", 10_000, "demandBoundIops", 5, "demandBoundBytesPerSecond", 1e9)));
        settings.put("vmOverrides", List.of(
                Map.of("vmId", SystemLoops.vmId(loop, "silver-web2"), "behavior", "default", "serviceClass", "tp"),
                Map.of("vmId", SystemLoops.vmId(loop, "silver-oltp1"), "behavior", "default", "serviceClass", "bulk"),
                Map.of("vmId", SystemLoops.vmId(loop, "silver-oltp5"), "behavior", "default", "serviceClass", "bulk")));
        api.put(settingsPath, settings);
        JsonNode[] sleds = {null};
        try {
            SystemLoops.await("the bulk streams limited to the class's demand bound together", Duration.ofSeconds(90), () -> {
                sleds[0] = api.get(sledsPath);
                int limited = 0;
                double sum = 0;
                for (JsonNode st : sleds[0].path("streams")) {
                    if (st.path("classId").asText().equals("bulk") && st.path("iopsLimit").isNumber()) {
                        limited++;
                        sum += st.path("iopsLimit").asDouble();
                    }
                }
                return limited == 2 && Math.abs(sum - 5) < 1e-6;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; SLEDS now " + sleds[0], e);
        }
        SystemLoops.say("SLEDS: " + sleds[0]);
        // the controller steps on each stream's newest 20-s sample, which the server read from vCenter's
        // realtime counters: no host on vSphere sends per-second samples
        JsonNode[] sampled = {null};
        try {
            SystemLoops.await("every classified stream sampled from vCenter's 20-s counters", Duration.ofSeconds(30), () -> {
                sampled[0] = api.get(sledsPath);
                int windows = 0;
                for (JsonNode st : sampled[0].path("streams")) {
                    windows += st.path("windowSeconds").asInt() == 20 ? 1 : 0;
                }
                return windows == 3;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; SLEDS now " + sampled[0], e);
        }
        JsonNode tp = null;
        for (JsonNode c : sleds[0].path("classes")) {
            if (c.path("id").asText().equals("tp")) {
                tp = c;
            }
        }
        assertThat(tp).isNotNull();
        assertThat(tp.path("meetsSlo").asBoolean(true)).as("tp misses its 1-ms bound").isFalse();
        assertThat(tp.path("latencyMs").asDouble()).isGreaterThan(1);
        // tp still misses: the step holds a bulk stream back, at the floor now
        assertThat(sleds[0].path("actions").toString()).contains("tighten esx3/");
        // the limits reach the testbed through the agents of esx3 (oltp1, oltp5) and the statistics window then under way ends
        Thread.sleep(2000);
        List<PacedWorld.WindowReport> throttled = windowsOf(Duration.ofSeconds(8));
        double[] oltp = measured(throttled, "silver-oltp1/data");
        double[] oltp5 = measured(throttled, "silver-oltp5/data");
        double[] web = measured(throttled, "silver-web2/data");
        SystemLoops.say(String.format("throttled to 5 IOPS together: silver-oltp1 %.1f IOPS, silver-oltp5 %.1f IOPS; silver-web2 %.1f ms"
                + " (was %.1f)", oltp[0], oltp5[0], web[1], webBefore[1]));
        // each near its half; reads and writes together: per-direction buckets would let these 70 %-read streams through at ~7
        assertThat(oltp[0]).isBetween(1.5, 3.5);
        assertThat(oltp5[0]).isBetween(1.5, 3.5);
        assertThat(oltp[0] + oltp5[0]).isBetween(4.0, 5.75);
        assertThat(web[1]).as("silver-web2's response time with the bulk streams held back").isLessThan(0.8 * webBefore[1]);

        api.put(settingsPath, original);
        SystemLoops.await("no SLEDS class left in silver", Duration.ofSeconds(30), () -> api.get(sledsPath).path("streams").isEmpty()
                && api.get(sledsPath).path("classes").isEmpty());
        Thread.sleep(2000);
        double[] lifted = measured(windowsOf(Duration.ofSeconds(6)), "silver-oltp1/data");
        SystemLoops.say(String.format("classes removed: silver-oltp1 %.1f IOPS", lifted[0]));
        assertThat(lifted[0]).as("the limit lifted on the testbed's IO path").isGreaterThan(20);
    }
}
