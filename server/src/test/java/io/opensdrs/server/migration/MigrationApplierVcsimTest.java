package io.opensdrs.server.migration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.vsphere.VcsimProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static io.opensdrs.server.migration.FaithfulVcsim.diskFile;
import static io.opensdrs.server.migration.FaithfulVcsim.diskKeys;
import static io.opensdrs.server.migration.FaithfulVcsim.freeSpace;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance 2, 4 and 5: the migration applier against our simulator (faithful storage vMotion,
 * copies paced by -relocate-rate-mbps), each result checked with govc.
 */
@ServerAgainstVcsim
@TestPropertySource(properties = "sdrs.migration.poll-interval=PT0.1S")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MigrationApplierVcsimTest {

    static final long GIB = 1024L * 1024 * 1024;
    static final ObjectMapper JSON = new ObjectMapper();
    static VcsimProcess vcsim;
    static Path passwordFile;

    static String world() {
        StringBuilder vms = new StringBuilder();
        vms.append("{\"name\":\"two\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":2,\"datastore\":\"ds1\"},"
                + "{\"name\":\"disk2\",\"sizeGB\":3,\"datastore\":\"ds1\"}]}");
        for (int i = 1; i <= 20; i++) {
            vms.append(String.format(",{\"name\":\"q%02d\",\"host\":\"h%d\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]}",
                    i, (i - 1) % 10 + 1));
        }
        for (String[] v : new String[][] {{"big", "h1", "2"}, {"vanish", "h2", "3"}, {"sess", "h3", "1"}, {"relog", "h4", "1"}, {"orph1", "h5", "1"}, {"orph2", "h6", "1"},
                {"k1", "h7", "2"}, {"k2", "h7", "2"}, {"k3", "h7", "2"}, {"gone", "h8", "3"}}) {
            vms.append(String.format(",{\"name\":\"%s\",\"host\":\"%s\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":%s,\"datastore\":\"ds1\"}]}",
                    v[0], v[1], v[2]));
        }
        for (String v : new String[] {"out1", "out2", "out3"}) {
            vms.append(String.format(",{\"name\":\"%s\",\"host\":\"h10\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]}", v));
        }
        // running: powered on with 2 GB of memory, so its home holds a 2-GiB swap file beside its configuration
        vms.append(",{\"name\":\"running\",\"host\":\"h1\",\"powerOn\":true,\"memoryMB\":2048,"
                + "\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]}");
        // roamer: running too, its swap file on h10's swap datastore local1 (host-local placement), not in its home
        vms.append(",{\"name\":\"roamer\",\"host\":\"h10\",\"powerOn\":true,\"memoryMB\":2048,\"swapPlacement\":\"hostLocal\","
                + "\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]}");
        // hog fills most of tight; newcomer's disk fits there only once hog's has left
        vms.append(",{\"name\":\"hog\",\"host\":\"h2\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":3,\"datastore\":\"tight\"}]}");
        vms.append(",{\"name\":\"newcomer\",\"host\":\"h3\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":2,\"datastore\":\"ds1\"}]}");
        // the same on tight2, for a parent that awaits an administrator's approval
        vms.append(",{\"name\":\"hog2\",\"host\":\"h4\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":3,\"datastore\":\"tight2\"}]}");
        vms.append(",{\"name\":\"newcomer2\",\"host\":\"h5\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":2,\"datastore\":\"ds1\"}]}");
        vms.append(",{\"name\":\"s1\",\"host\":\"h9\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"},"
                + "{\"name\":\"disk2\",\"sizeGB\":1,\"datastore\":\"ds1\"}]}");
        StringBuilder hosts = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            hosts.append(i == 1 ? "" : ",").append("{\"name\":\"h").append(i).append("\",\"cluster\":\"C0\"")
                    .append(i == 10 ? ",\"localSwapDatastore\":\"local1\"}" : "}");
        }
        return "{\"datacenter\":\"DC0\",\"storagePods\":[{\"name\":\"POD0\",\"datastores\":[{\"name\":\"ds1\",\"capacityGB\":200},"
                + "{\"name\":\"ds2\",\"capacityGB\":200},{\"name\":\"flaky\",\"capacityGB\":50},"
                + "{\"name\":\"small\",\"capacityGB\":1},{\"name\":\"tight\",\"capacityGB\":4},{\"name\":\"tight2\",\"capacityGB\":4}]}],"
                + "\"datastores\":[{\"name\":\"local1\",\"capacityGB\":20}],\"hosts\":[" + hosts + "],\"vms\":[" + vms + "]}";
    }

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = FaithfulVcsim.start(world(), "applier", "-relocate-rate-mbps", "512", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD);
        passwordFile = FaithfulVcsim.registerAsVCenter(r, vcsim, "applier");
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired TestRestTemplate rest;

    JsonNode call(HttpMethod method, String path, Object body, int expected) throws Exception {
        return new AdminApi(rest).call(method, path, body, expected);
    }

    @Autowired org.springframework.jdbc.core.JdbcTemplate jdbc;
    @Autowired Recommendations recommendations;

    /** The datastore cluster's id as the inventory sync stored it (govc find has no type letter for StoragePods). */
    String podId() {
        return jdbc.queryForObject("SELECT moid FROM datastore_cluster WHERE name = 'POD0'", String.class);
    }

    String moid(String type, String name) throws Exception {
        return FaithfulVcsim.moid(vcsim, type, name);
    }

    long create(List<Map<String, Object>> moves) throws Exception {
        try {
            sync.fullSync();
        } catch (RuntimeException startupSyncRacing) {
            sync.fullSync();
        }
        return call(HttpMethod.POST, "/api/v1/clusters/" + podId() + "/recommendations",
                Map.of("reasonCode", "balanceDatastoreSpaceUsage", "moves", moves), 201).get("id").asLong();
    }

    Map<String, Object> move(String vm, String ds) throws Exception {
        return Map.of("vmId", moid("m", vm), "diskKeys", diskKeys(vcsim, vm), "destinationDatastoreId", moid("s", ds));
    }

    JsonNode applyAndWait(long id) throws Exception {
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 200);
        return awaitEnd(id);
    }

    JsonNode awaitEnd(long id) throws Exception {
        long deadline = System.currentTimeMillis() + 90_000;
        JsonNode r;
        do {
            Thread.sleep(100);
            r = call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200);
        } while ("APPLYING".equals(r.get("state").asText()) && System.currentTimeMillis() < deadline);
        return r;
    }

    /** The cluster's history rows about one recommendation, oldest first, as "action: detail". */
    List<String> historyOf(long recommendationId) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode h : call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/history?limit=1000", null, 200)) {
            if (h.path("recommendationId").asLong(-1) == recommendationId) {
                out.add(0, h.get("action").asText() + ": " + h.get("detail").asText());
            }
        }
        return out;
    }

    /** What govc shows of the datastores and a VM's disks: must be untouched by a failed migration. */
    Map<String, Object> govcState(String vm) throws Exception {
        Map<String, Object> s = new HashMap<>();
        for (String ds : List.of("ds1", "ds2", "flaky", "small")) {
            s.put(ds + ".free", freeSpace(vcsim, ds));
            s.put(ds + ".files", vcsim.govc("datastore.ls", "-ds", ds, "-R").strip());
        }
        for (int key : diskKeys(vcsim, vm)) {
            s.put(vm + "." + key, diskFile(vcsim, vm, key));
        }
        return s;
    }

    @Test
    @Order(1)
    void relocatingOneOfTwoDisksMovesThatDiskOnly() throws Exception {
        List<Integer> keys = diskKeys(vcsim, "two");
        int disk1 = keys.get(0);
        int disk2 = keys.get(1);
        assertThat(diskFile(vcsim, "two", disk1)).isEqualTo("[ds1] two/disk1.vmdk");
        long ds1Before = freeSpace(vcsim, "ds1");
        long ds2Before = freeSpace(vcsim, "ds2");

        long id = create(List.of(Map.of("vmId", moid("m", "two"), "diskKeys", List.of(disk1), "destinationDatastoreId", moid("s", "ds2"))));
        JsonNode done = applyAndWait(id);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("APPLIED");

        assertThat(diskFile(vcsim, "two", disk1)).isEqualTo("[ds2] two/disk1.vmdk");
        assertThat(diskFile(vcsim, "two", disk2)).isEqualTo("[ds1] two/disk2.vmdk");
        assertThat(freeSpace(vcsim, "ds1") - ds1Before).isEqualTo(2 * GIB);
        assertThat(ds2Before - freeSpace(vcsim, "ds2")).isEqualTo(2 * GIB);
        assertThat(vcsim.govc("datastore.ls", "-ds", "ds2", "two")).contains("disk1.vmdk");
        // the history says who applied it and that it is done, naming the disk, the VM and the datastores
        List<String> history = historyOf(id);
        assertThat(history).hasSize(2);
        assertThat(history.get(0)).isEqualTo("applied: applied by user admin: disk " + disk1 + " of VM two from ds1 to ds2");
        assertThat(history.get(1)).matches("completed: done: disk " + disk1 + " of VM two from ds1 to ds2, in \\d+ s");
        System.out.println("history: " + history);
        System.out.printf("acceptance 2: disk %d %s -> %s, disk %d stays %s; ds1 free +%d B, ds2 free -%d B%n", disk1,
                "[ds1] two/disk1.vmdk", diskFile(vcsim, "two", disk1), disk2, diskFile(vcsim, "two", disk2),
                freeSpace(vcsim, "ds1") - ds1Before, ds2Before - freeSpace(vcsim, "ds2"));
    }

    @Test
    @Order(2)
    void twentyMigrationsToOneDatastoreNeverExceedTheLimit() throws Exception {
        List<Map<String, Object>> moves = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            moves.add(move(String.format("q%02d", i), "ds2"));
        }
        long id = create(moves);
        String ds2 = moid("s", "ds2");
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 200);
        // an independent look from outside while they run: never more than 8 in flight towards ds2
        int sampledMax = 0;
        JsonNode r;
        do {
            JsonNode m = call(HttpMethod.GET, "/api/v1/migrations", null, 200);
            int towardsDs2 = 0;
            for (JsonNode a : m.get("inFlight")) {
                if (ds2.equals(a.get("destinationDatastoreId").asText()) && List.of("ISSUING", "RUNNING", "VERIFYING").contains(a.get("state").asText())) {
                    towardsDs2++;
                }
            }
            sampledMax = Math.max(sampledMax, towardsDs2);
            Thread.sleep(50);
            r = call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200);
        } while ("APPLYING".equals(r.get("state").asText()));
        assertThat(r.get("state").asText()).as(r.toString()).isEqualTo("APPLIED");
        JsonNode observed = call(HttpMethod.GET, "/api/v1/migrations", null, 200).get("maxObservedInFlight");
        int recorded = observed.at("/perDatastore/" + ds2).asInt();
        assertThat(recorded).isLessThanOrEqualTo(8).isGreaterThan(1);
        assertThat(sampledMax).isLessThanOrEqualTo(8);
        observed.get("perHost").forEach(n -> assertThat(n.asInt()).isLessThanOrEqualTo(2));
        for (int i = 1; i <= 20; i++) {
            String vm = String.format("q%02d", i);
            assertThat(diskFile(vcsim, vm, diskKeys(vcsim, vm).get(0))).isEqualTo("[ds2] " + vm + "/disk1.vmdk");
        }
        System.out.printf("acceptance 4: 20 migrations to ds2; recorded max in flight per datastore %d (limit 8), sampled %d,"
                + " per host %s (limit 2)%n", recorded, sampledMax, observed.get("perHost"));
    }

    @Test
    @Order(3)
    void insufficientSpaceIsAFaultAndChangesNothing() throws Exception {
        Map<String, Object> before = govcState("big");
        long id = create(List.of(move("big", "small")));
        JsonNode done = applyAndWait(id);
        assertThat(done.get("state").asText()).isEqualTo("FAILED");
        assertThat(done.get("faultType").asText()).isEqualTo("NoDiskSpace");
        assertThat(done.get("faultMessage").asText()).contains("Insufficient disk space on datastore 'small'");
        assertThat(govcState("big")).isEqualTo(before);
        assertThat(historyOf(id)).last().asString().startsWith("failed: failed: NoDiskSpace: disk " + diskKeys(vcsim, "big").get(0)
                + " of VM big from ds1 to small: ").contains("Insufficient disk space on datastore 'small'");
        assertThat(done.get("faultMessage").asText()).as("named as in the vSphere Client").doesNotContain("vm-").doesNotContain("datastore-");
        System.out.println("acceptance 5 (space): " + done.get("faultType").asText() + ": " + done.get("faultMessage").asText());
    }

    /**
     * A running VM's home holds its swap file (memory less reservation): moving the home alone onto a datastore
     * with room for its configuration but not for the swap is refused before anything is issued to vCenter.
     */
    @Test
    @Order(3)
    void aHomeWhoseSwapFileDoesNotFitIsRefusedBeforeVCenterIsAsked() throws Exception {
        Map<String, Object> before = govcState("running");
        String vm = moid("m", "running");
        long id = create(List.of(Map.of("vmId", vm, "diskKeys", List.of(), "destinationDatastoreId", moid("s", "small"), "homeOnly", true)));
        JsonNode done = applyAndWait(id);
        assertThat(done.get("state").asText()).isEqualTo("FAILED");
        assertThat(done.get("faultType").asText()).isEqualTo("NoDiskSpace");
        assertThat(done.get("faultMessage").asText()).as("2 GiB of swap and a few bytes of configuration onto small's 1 GiB")
                .contains("Insufficient disk space on datastore 'small': the move needs 2.00 GiB, 1.00 GiB are free");
        assertThat(govcState("running")).isEqualTo(before);
        assertThat(FaithfulVcsim.relocationTasks(vcsim, vm)).as("nothing issued").isZero();
        System.out.println("home with its swap file: " + done.get("faultType").asText() + ": " + done.get("faultMessage").asText());
    }

    /**
     * A running VM whose swap file the host keeps on its swap datastore: vm.datastore names that datastore
     * too, its home is only its configuration, and a relocation of the whole VM leaves the swap file where
     * it is — and is done, verified in the inventory, though vm.datastore still names two datastores.
     */
    @Test
    @Order(3)
    void aWholeVmWhoseSwapFileIsOnTheHostsSwapDatastoreMovesAndIsVerifiedDone() throws Exception {
        String vm = moid("m", "roamer");
        String swap = FaithfulVcsim.swapFile(vcsim, "roamer");
        assertThat(swap).as("govc: roamer's swap file").startsWith("[local1] roamer-");
        long id = create(List.of(Map.of("vmId", vm, "diskKeys", List.of(), "destinationDatastoreId", moid("s", "ds2"))));
        assertThat(jdbc.queryForObject("SELECT home_bytes FROM vm WHERE moid = ?", Long.class, vm))
                .as("the home's files on its datastore: the swap file is elsewhere").isLessThan(1024 * 1024);
        JsonNode done = applyAndWait(id);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("APPLIED");
        assertThat(historyOf(id)).last().asString().matches("completed: done: VM roamer from ds1 to ds2, in \\d+ s");
        assertThat(FaithfulVcsim.relocationTasks(vcsim, vm)).as("issued once").isEqualTo(1);
        assertThat(diskFile(vcsim, "roamer", diskKeys(vcsim, "roamer").get(0))).startsWith("[ds2] ");
        assertThat(FaithfulVcsim.vmPath(vcsim, "roamer")).startsWith("[ds2] ");
        assertThat(FaithfulVcsim.swapFile(vcsim, "roamer")).as("the swap file stays on the host's swap datastore").isEqualTo(swap);
        assertThat(vcsim.govc("object.collect", "-json", "VirtualMachine:" + vm, "datastore"))
                .as("vm.datastore names both").contains(moid("s", "ds2"), moid("s", "local1"));
    }

    @Test
    @Order(4)
    void aDatastoreVanishingDuringTheCopyIsAFaultAndChangesNothing() throws Exception {
        Map<String, Object> before = govcState("vanish");
        long id = create(List.of(move("vanish", "flaky")));
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 200);
        long deadline = System.currentTimeMillis() + 30_000;
        while (!"RUNNING".equals(call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).at("/actions/0/state").asText())) {
            assertThat(System.currentTimeMillis()).as("action never ran").isLessThan(deadline);
            Thread.sleep(20);
        }
        // the datastore becomes inaccessible under the copy (the simulator's admin endpoint, README
        // "Making a datastore inaccessible"); its storage vanishing is the next test
        flakyAccessible(false);
        JsonNode done;
        try {
            done = awaitEnd(id);
        } finally {
            flakyAccessible(true);
        }
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("FAILED");
        assertThat(done.get("faultType").asText()).isEqualTo("InaccessibleDatastore");
        assertThat(done.get("faultMessage").asText()).contains("flaky");
        // accessible again: compare what govc shows
        assertThat(govcState("vanish")).isEqualTo(before);
        System.out.println("acceptance 5 (vanished datastore): " + done.get("faultType").asText() + ": " + done.get("faultMessage").asText());
    }

    void flakyAccessible(boolean accessible) throws Exception {
        var http = java.net.http.HttpClient.newBuilder().sslContext(trustAll()).build();
        var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create("https://127.0.0.1:" + vcsim.sdkUrl().getPort() + "/opensdrs/datastore"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("name=flaky&accessible=" + accessible)).build();
        var r = http.send(req, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
    }

    static javax.net.ssl.SSLContext trustAll() throws Exception {
        javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
        ctx.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a) { }
            public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a) { }
            public java.security.cert.X509Certificate[] getAcceptedIssuers() { return new java.security.cert.X509Certificate[0]; }
        }}, null);
        return ctx;
    }

    List<String> serverSessions() throws Exception {
        List<String> keys = new ArrayList<>();
        for (JsonNode s : JSON.readTree(vcsim.govc("session.ls", "-json")).get("sessionList")) {
            if (!s.path("userAgent").asText().startsWith("govc")) { // the server's: the JDK's HTTP client
                keys.add(s.get("key").asText());
            }
        }
        return keys;
    }

    @Test
    @Order(5)
    void anExpiredSessionIsRenewedOnce() throws Exception {
        long id = create(List.of(move("sess", "ds2")));
        List<String> old = serverSessions();
        assertThat(old).isNotEmpty();
        for (String k : old) {
            vcsim.govc("session.rm", k);
        }
        JsonNode done = applyAndWait(id);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("APPLIED");
        assertThat(serverSessions()).isNotEmpty().doesNotContainAnyElementsOf(old);
        assertThat(diskFile(vcsim, "sess", diskKeys(vcsim, "sess").get(0))).isEqualTo("[ds2] sess/disk1.vmdk");
    }

    @Test
    @Order(6)
    void anExpiredSessionWhoseReLoginFailsIsAFaultAndChangesNothing() throws Exception {
        Map<String, Object> before = govcState("relog");
        long id = create(List.of(move("relog", "ds2")));
        Files.writeString(passwordFile, "rotated-wrongly");
        JsonNode done;
        try {
            for (String k : serverSessions()) {
                vcsim.govc("session.rm", k);
            }
            done = applyAndWait(id);
        } finally {
            Files.writeString(passwordFile, FaithfulVcsim.PASSWORD);
        }
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("FAILED");
        assertThat(done.get("faultType").asText()).isEqualTo("InvalidLogin");
        assertThat(done.get("faultMessage").asText()).contains("Login");
        assertThat(govcState("relog")).isEqualTo(before);
        System.out.println("acceptance 5 (session, re-login refused): " + done.get("faultType").asText() + ": "
                + done.get("faultMessage").asText());
    }

    @Test
    @Order(7)
    void badRequestsNameTheField() throws Exception {
        sync.fullSync();
        String pod = podId();
        JsonNode p = call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/recommendations", Map.of("reasonCode", "nonsense",
                "moves", List.of(move("two", "ds2"))), 400);
        assertThat(p.get("field").asText()).isEqualTo("reasonCode");
        p = call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/recommendations", Map.of("reasonCode", "storagePlacement",
                "moves", List.of(Map.of("vmId", "vm-999999", "destinationDatastoreId", moid("s", "ds2")))), 400);
        assertThat(p.get("field").asText()).isEqualTo("moves[0].vmId");
        p = call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/recommendations", Map.of("reasonCode", "storagePlacement",
                "moves", List.of(Map.of("vmId", moid("m", "two"), "diskKeys", List.of(4242), "destinationDatastoreId", moid("s", "ds2")))), 400);
        assertThat(p.get("field").asText()).isEqualTo("moves[0].diskKeys[0]");
        p = call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/recommendations", Map.of("reasonCode", "storagePlacement",
                "moves", List.of()), 400);
        assertThat(p.get("field").asText()).isEqualTo("moves");
        call(HttpMethod.POST, "/api/v1/recommendations/abc/apply", null, 400);
        call(HttpMethod.POST, "/api/v1/recommendations/999999/apply", null, 404);
        long id = create(List.of(move("q01", "ds1")));
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/dismiss", null, 200);
        assertThat(call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 409).get("detail").asText())
                .contains("DISMISSED");
    }
    /**
     * The crash window acceptance 3 cannot aim at: the server died after committing ISSUING and
     * before recording the task id. Reproduced by setting the rows as the dead server left them:
     * the recommendation APPLYING, the action ISSUING, and vCenter's task (a) running or (b) never
     * created.
     */
    @Test
    @Order(8)
    void anActionLeftIssuingIsReattachedToItsTaskOrIssuedOnceIfItNeverReachedVCenter() throws Exception {
        long a = create(List.of(move("orph1", "ds2")));
        long b = create(List.of(move("orph2", "ds2")));
        // (a) the call reached vCenter: its task runs (started here with govc), its id never recorded.
        // The rows are set once the task exists, as the restarted server finds them: set before it,
        // the applier's pass could find no task and rightly issue the move again.
        CompletableFuture<String> relocation = CompletableFuture.supplyAsync(() -> {
            try {
                return vcsim.govc("vm.migrate", "-ds", "ds2", "orph1");
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        long deadline = System.currentTimeMillis() + 30_000;
        while (FaithfulVcsim.relocationTasks(vcsim, moid("m", "orph1")) == 0) {
            assertThat(System.currentTimeMillis()).as("govc's relocation task of orph1 appears").isLessThan(deadline);
            Thread.sleep(20);
        }
        leftIssuing(a);
        // (b) the call never reached vCenter
        leftIssuing(b);
        relocation.get(60, TimeUnit.SECONDS);
        JsonNode ra = awaitEnd(a);
        JsonNode rb = awaitEnd(b);
        assertThat(ra.get("state").asText()).as(ra.toString()).isEqualTo("APPLIED");
        assertThat(rb.get("state").asText()).as(rb.toString()).isEqualTo("APPLIED");
        assertThat(FaithfulVcsim.relocationTasks(vcsim, moid("m", "orph1"))).isEqualTo(1);
        assertThat(FaithfulVcsim.relocationTasks(vcsim, moid("m", "orph2"))).isEqualTo(1);
        assertThat(diskFile(vcsim, "orph1", diskKeys(vcsim, "orph1").get(0))).isEqualTo("[ds2] orph1/disk1.vmdk");
        assertThat(diskFile(vcsim, "orph2", diskKeys(vcsim, "orph2").get(0))).isEqualTo("[ds2] orph2/disk1.vmdk");
    }

    /**
     * A recommendation's rows as a server that died right after committing ISSUING leaves them.
     * The action first: an APPLYING recommendation with a QUEUED action is the applier's to issue.
     */
    void leftIssuing(long recommendationId) {
        jdbc.update("UPDATE migration_action SET state = 'ISSUING', known_task_ids = '', issuing_at = CURRENT_TIMESTAMP,"
                + " attempt = 1 WHERE recommendation_id = ?", recommendationId);
        jdbc.update("UPDATE recommendation SET state = 'APPLYING' WHERE id = ?", recommendationId);
    }

    @Test
    @Order(9)
    void cancelDropsQueuedActionsAndAsksVCenterToCancelRunningOnes() throws Exception {
        long pending = create(List.of(move("k1", "ds2")));
        assertThat(call(HttpMethod.POST, "/api/v1/recommendations/" + pending + "/cancel", null, 200).get("state").asText())
                .isEqualTo("CANCELLED");
        assertThat(call(HttpMethod.POST, "/api/v1/recommendations/" + pending + "/apply", null, 409).get("detail").asText())
                .contains("CANCELLED");
        assertThat(historyOf(pending)).containsExactly("cancelled: cancelled by user admin before it was applied (disk "
                + diskKeys(vcsim, "k1").get(0) + " of VM k1 from ds1 to ds2)");

        // three VMs on one host: two run (per-host limit 2), the third waits and is dropped
        long id = create(List.of(move("k1", "ds2"), move("k2", "ds2"), move("k3", "ds2")));
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 200);
        long deadline = System.currentTimeMillis() + 30_000;
        JsonNode r;
        do {
            assertThat(System.currentTimeMillis()).as("two running").isLessThan(deadline);
            Thread.sleep(20);
            r = call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200);
        } while (!("RUNNING".equals(r.at("/actions/0/state").asText()) && "RUNNING".equals(r.at("/actions/1/state").asText())));
        assertThat(r.at("/actions/2/state").asText()).isEqualTo("QUEUED");
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/cancel", null, 200);
        JsonNode done = awaitEnd(id);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("CANCELLED");
        assertThat(done.at("/actions/2/state").asText()).isEqualTo("CANCELLED");
        assertThat(FaithfulVcsim.relocationTasks(vcsim, moid("m", "k3"))).isZero();
        assertThat(diskFile(vcsim, "k3", diskKeys(vcsim, "k3").get(0))).isEqualTo("[ds1] k3/disk1.vmdk");
        // The running two: our simulator's relocation tasks are not cancelable (TaskInfo.cancelable
        // false, its README), so no CancelTask is sent, the copies finish and are recorded as done
        for (int i = 0; i < 2; i++) {
            String vm = "k" + (i + 1);
            assertThat(done.at("/actions/" + i + "/state").asText()).isEqualTo("SUCCEEDED");
            assertThat(done.at("/actions/" + i + "/faultMessage").asText()).contains("not cancelable");
            assertThat(diskFile(vcsim, vm, diskKeys(vcsim, vm).get(0))).isEqualTo("[ds2] " + vm + "/disk1.vmdk");
        }
        List<String> history = historyOf(id);
        assertThat(history).hasSize(3);
        assertThat(history.get(1)).startsWith("cancel-requested: cancel requested by user admin: moves not started are dropped");
        assertThat(history.get(2)).startsWith("cancelled: cancelled: 2 of 3 moves done (").contains("of VM k3 from ds1 to ds2");
        System.out.println("cancel: k3 " + done.at("/actions/2/state").asText() + "; k1 " + done.at("/actions/0/state").asText()
                + " (" + done.at("/actions/0/faultMessage").asText() + ")");
    }
    @Test
    @Order(10)
    void aDatastoreWhoseStorageVanishesDuringTheCopyIsAFaultAndChangesNothing() throws Exception {
        Map<String, Object> before = govcState("gone");
        Path flaky = Path.of(FaithfulVcsim.url(vcsim, "flaky").replaceFirst("^ds://", ""));
        Path hidden = flaky.resolveSibling(flaky.getFileName() + ".hidden");
        long id = create(List.of(move("gone", "flaky")));
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 200);
        long deadline = System.currentTimeMillis() + 30_000;
        while (!"RUNNING".equals(call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).at("/actions/0/state").asText())) {
            assertThat(System.currentTimeMillis()).as("action never ran").isLessThan(deadline);
            Thread.sleep(20);
        }
        Files.move(flaky, hidden); // the datastore's directory disappears under the copy
        JsonNode done;
        try {
            done = awaitEnd(id);
        } finally {
            Files.move(hidden, flaky);
        }
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("FAILED");
        assertThat(done.get("faultType").asText()).isEqualTo("InaccessibleDatastore");
        assertThat(done.get("faultMessage").asText()).contains("flaky");
        Thread.sleep(600); // the simulator polls the directory every 200 ms
        assertThat(govcState("gone")).isEqualTo(before);
        System.out.println("acceptance 5 (vanished storage): " + done.get("faultType").asText() + ": " + done.get("faultMessage").asText());
    }

    /**
     * Two recommendations made for the same disk (two runs, or an administrator's and the
     * engine's): once one has moved it, the other was made for where the disk no longer is and is
     * dismissed, as vCenter replaces its list after an apply; one for the VM's other disk stays.
     */
    @Test
    @Order(11)
    void applyingOneRecommendationDismissesThoseMadeForTheSameDiskWhereItWas() throws Exception {
        List<Integer> keys = diskKeys(vcsim, "s1");
        String s1 = moid("m", "s1");
        long first = create(List.of(Map.of("vmId", s1, "diskKeys", List.of(keys.get(0)), "destinationDatastoreId", moid("s", "ds2"))));
        long second = create(List.of(Map.of("vmId", s1, "diskKeys", List.of(keys.get(0)), "destinationDatastoreId", moid("s", "flaky"))));
        long other = create(List.of(Map.of("vmId", s1, "diskKeys", List.of(keys.get(1)), "destinationDatastoreId", moid("s", "ds2"))));
        JsonNode done = applyAndWait(first);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("APPLIED");
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + second, null, 200).get("state").asText()).isEqualTo("DISMISSED");
        assertThat(historyOf(second)).containsExactly("superseded: dismissed: recommendation " + first + " moved disk " + keys.get(0)
                + " of VM s1 from ds1 to ds2 (disk " + keys.get(0) + " of VM s1 from ds1 to flaky)");
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + other, null, 200).get("state").asText())
                .as("the VM's other disk is still where its recommendation was made for").isEqualTo("PENDING");
        assertThat(diskFile(vcsim, "s1", keys.get(0))).isEqualTo("[ds2] s1/disk1.vmdk");

        assertThat(call(HttpMethod.POST, "/api/v1/recommendations/" + other + "/dismiss", null, 200).get("state").asText())
                .isEqualTo("DISMISSED");
        assertThat(historyOf(other)).containsExactly("dismissed: dismissed by user admin (disk " + keys.get(1) + " of VM s1 from ds1 to ds2)");
        System.out.println("superseded: " + historyOf(second));
    }

    /**
     * Changes made outside Storage DRS — a VM moved with govc as from the vSphere Client, a VM
     * destroyed — overtake the pending recommendations made for them: the sync that reads the
     * change withdraws each, naming what is gone, and nothing is issued; a recommendation whose
     * placement holds stays. Applying a withdrawn one is refused.
     */
    @Test
    @Order(12)
    void aRecommendationOvertakenOutsideStorageDrsIsWithdrawnAtTheNextSync() throws Exception {
        long moved = create(List.of(move("out1", "ds2")));
        long destroyed = create(List.of(move("out2", "ds2")));
        long holds = create(List.of(move("out3", "ds2")));
        int key = diskKeys(vcsim, "out1").get(0);
        int key2 = diskKeys(vcsim, "out2").get(0);
        vcsim.govc("vm.migrate", "-ds", "flaky", "out1");
        vcsim.govc("vm.destroy", "out2");
        sync.incrementalSync();

        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + moved, null, 200).get("state").asText()).isEqualTo("DISMISSED");
        assertThat(historyOf(moved)).containsExactly("outdated: dismissed: made for a placement that is gone: disk " + key
                + " of VM out1 is now on flaky, no longer on its source [ds1] (disk " + key + " of VM out1 from ds1 to ds2)");
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + destroyed, null, 200).get("state").asText()).isEqualTo("DISMISSED");
        // out2 left the inventory, and the history still names it as it was read
        assertThat(historyOf(destroyed)).containsExactly("outdated: dismissed: made for a placement that is gone: VM out2 no longer"
                + " exists (disk " + key2 + " of VM out2 from ds1 to ds2)");
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + holds, null, 200).get("state").asText())
                .as("out3 is still where its recommendation was made for").isEqualTo("PENDING");
        assertThat(call(HttpMethod.POST, "/api/v1/recommendations/" + moved + "/apply", null, 409).get("detail").asText())
                .contains("is DISMISSED, only a PENDING one can be applied");
        Thread.sleep(500);
        assertThat(diskFile(vcsim, "out1", key)).as("nothing issued: out1 stays where govc put it").isEqualTo("[flaky] out1/disk1.vmdk");
        System.out.println("outdated: " + historyOf(moved) + " " + historyOf(destroyed));
    }

    /**
     * An action plan of two waves: newcomer's disk goes to tight, which has room for it only once hog's
     * disk has left, so its action is the child of hog's. An administrator applies the child alone: its
     * pending parent is queued with it (a prerequisite, as vCenter applies one first), the child says
     * what it waits for while the parent's copy runs, then starts once the parent has ended and
     * completes without NoDiskSpace (issue 40, acceptance 3 at the applier).
     */
    @Test
    @Order(13)
    void applyingAChildQueuesItsPendingParentAndTheChildSaysItWaitsForIt() throws Exception {
        long tightFree = freeSpace(vcsim, "tight");
        assertThat(tightFree).as("tight cannot take newcomer's 2 GiB before hog's disk leaves").isLessThan(2 * GIB);
        long parent = create(List.of(move("hog", "ds2")));
        long child = create(List.of(move("newcomer", "tight")));
        long parentAction = recommendations.actions(parent).get(0).id();
        long childAction = recommendations.actions(child).get(0).id();
        recommendations.addParents(childAction, List.of(parentAction));
        call(HttpMethod.POST, "/api/v1/recommendations/" + child + "/apply", null, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + parent, null, 200).get("state").asText())
                .as("the parent, never applied, is queued with its child").isIn("APPLYING", "APPLIED");
        String waitReason = awaitWaitReason(child);
        assertThat(waitReason).as("the child's action while hog's copy runs")
                .startsWith("waiting for its parent, action " + parentAction + " of recommendation " + parent + ", to end");
        JsonNode childDone = awaitEnd(child);
        JsonNode parentDone = awaitEnd(parent);
        assertThat(parentDone.get("state").asText()).as(parentDone.toString()).isEqualTo("APPLIED");
        assertThat(childDone.get("state").asText()).as(childDone.toString()).isEqualTo("APPLIED");
        JsonNode childView = childDone.get("actions").get(0);
        assertThat(childView.get("parentActionIds")).hasSize(1);
        assertThat(childView.get("parentActionIds").get(0).asLong()).isEqualTo(parentAction);
        assertThat(childView.get("waitReason").isNull()).as("started: it waits for nothing").isTrue();
        Instant parentEnd = Instant.parse(parentDone.get("actions").get(0).get("finishedAt").asText());
        Instant childStart = Instant.parse(childView.get("startedAt").asText());
        assertThat(childStart).as("the child started after its parent ended").isAfterOrEqualTo(parentEnd);
        assertThat(diskFile(vcsim, "hog", diskKeys(vcsim, "hog").get(0))).isEqualTo("[ds2] hog/disk1.vmdk");
        assertThat(diskFile(vcsim, "newcomer", diskKeys(vcsim, "newcomer").get(0))).isEqualTo("[tight] newcomer/disk1.vmdk");
        assertThat(historyOf(parent)).anyMatch(h -> h.startsWith("applied: applied by user " + AdminApi.USER
                + " as a prerequisite of recommendation " + child + ": "));
        assertThat(historyOf(child)).anyMatch(h -> h.startsWith("applied: ") && h.endsWith("(with its prerequisite, recommendation " + parent + ")"));
        System.out.printf("action plan: child applied alone, parent queued with it; child waited: \"%s\"; hog's disk tight -> ds2"
                + " ended %s; newcomer's disk ds1 -> tight started %s, %s; tight free before %d B, after %d B%n", waitReason, parentEnd,
                childStart, childDone.get("state").asText(), tightFree, freeSpace(vcsim, "tight"));
    }

    /**
     * An automated apply does not apply a parent that awaits an administrator's approval (a VM set to
     * manual): the child waits, and its action says for what, until the administrator applies the parent.
     */
    @Test
    @Order(14)
    void anAutomatedChildLeavesAParentAwaitingApprovalAndSaysItWaitsForIt() throws Exception {
        long parent = create(List.of(move("hog2", "ds2")));
        long child = create(List.of(move("newcomer2", "tight2")));
        long parentAction = recommendations.actions(parent).get(0).id();
        recommendations.addParents(recommendations.actions(child).get(0).id(), List.of(parentAction));
        recommendations.applyAutomatically(child, "balanceDatastoreSpaceUsage");
        String waitReason = awaitWaitReason(child);
        assertThat(waitReason).isEqualTo("waiting for its parent, action " + parentAction + " of recommendation " + parent
                + ", which has not been applied: the plan counted on it (apply it, or dismiss it to let this one go on)");
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + parent, null, 200).get("state").asText()).isEqualTo("PENDING");
        Thread.sleep(1000);
        JsonNode waiting = call(HttpMethod.GET, "/api/v1/recommendations/" + child, null, 200);
        assertThat(waiting.get("actions").get(0).get("state").asText()).as("nothing issued for the child").isEqualTo("QUEUED");
        assertThat(diskFile(vcsim, "newcomer2", diskKeys(vcsim, "newcomer2").get(0))).isEqualTo("[ds1] newcomer2/disk1.vmdk");
        call(HttpMethod.POST, "/api/v1/recommendations/" + parent + "/apply", null, 200);
        assertThat(awaitEnd(parent).get("state").asText()).isEqualTo("APPLIED");
        assertThat(awaitEnd(child).get("state").asText()).isEqualTo("APPLIED");
        assertThat(diskFile(vcsim, "newcomer2", diskKeys(vcsim, "newcomer2").get(0))).isEqualTo("[tight2] newcomer2/disk1.vmdk");
        System.out.println("automated child, parent awaiting approval: \"" + waitReason + "\"; both applied once the parent was");
    }

    /** The wait reason of the recommendation's first action, once the applier has given one (90 s at most). */
    String awaitWaitReason(long recommendationId) throws Exception {
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            JsonNode a = call(HttpMethod.GET, "/api/v1/recommendations/" + recommendationId, null, 200).get("actions").get(0);
            if (!a.get("waitReason").isNull()) {
                return a.get("waitReason").asText();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("recommendation " + recommendationId + "'s action never said why it waits");
    }
}
