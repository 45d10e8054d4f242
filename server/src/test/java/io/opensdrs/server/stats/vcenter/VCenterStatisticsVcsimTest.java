package io.opensdrs.server.stats.vcenter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.SdrsProperties;
import io.opensdrs.server.ingest.SimulatedAgent;
import io.opensdrs.server.ingest.AgentGrpcServer;
import io.opensdrs.server.ingest.HostLoadPublisher;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.migration.FaithfulVcsim;
import io.opensdrs.server.migration.ServerAgainstVcsim;
import io.opensdrs.server.models.ModelRepository;
import io.opensdrs.server.stats.DiskWindowIngestion;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.VcsimProcess;
import io.opensdrs.server.vsphere.object.Vim25VSphereClient;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.DatastoreState;
import io.opensdrs.shared.agent.v1.HostDatastoreLoad;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's IO statistics read from vCenter's realtime performance counters, against our vcsim
 * run as a process: samples are published into the simulator's PerformanceManager (as the testbed
 * does), the server reads them with QueryPerf, and what it stored is compared with what govc reads
 * from outside. Then what vCenter may really answer: an instance that names no disk, a value below
 * zero, a value missing, a counter it lacks, vCenter gone; and the loads sent to a host's agent.
 */
@ServerAgainstVcsim
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VCenterStatisticsVcsimTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static VcsimProcess vcsim;
    /** The next sample's end; every publish moves it 20 s on. */
    static Instant clock = Instant.parse("2026-11-27T10:00:00Z");

    static final String WORLD = """
            {"datacenter": "DC0",
             "storagePods": [{"name": "POD0", "datastores": [{"name": "ds1", "capacityGB": 100}, {"name": "ds2", "capacityGB": 100}]}],
             "hosts": [{"name": "h1", "cluster": "C0"}, {"name": "h2", "cluster": "C0"}],
             "vms": [
               {"name": "db", "host": "h1", "powerOn": true, "disks": [
                 {"name": "data", "sizeGB": 2, "datastore": "ds1"}, {"name": "log", "sizeGB": 1, "datastore": "ds1"}]},
               {"name": "web", "host": "h2", "powerOn": true, "disks": [{"name": "root", "sizeGB": 1, "datastore": "ds2"}]},
               {"name": "idle", "host": "h2", "disks": [{"name": "root", "sizeGB": 1, "datastore": "ds2"}]}
             ]}""";

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = FaithfulVcsim.start(WORLD, "perf", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD);
        FaithfulVcsim.registerAsVCenter(r, vcsim, "perf");
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired VCenterStatistics statistics;
    @Autowired TestRestTemplate rest;
    @Autowired JdbcTemplate jdbc;
    @Autowired AgentGrpcServer grpc;
    @Autowired StatisticsInventory inventory;
    @Autowired DiskWindowIngestion ingestion;
    @Autowired ModelRepository observations;
    @Autowired HostLoadPublisher loads;
    @Autowired StatisticsFaults faults;
    @Autowired SdrsProperties properties;

    JsonNode call(HttpMethod method, String path, int expected) throws Exception {
        return new AdminApi(rest).call(method, path, null, expected);
    }

    String podId() {
        return jdbc.queryForObject("SELECT moid FROM datastore_cluster WHERE name = 'POD0'", String.class);
    }

    /** A disk's counters in one sample, as vCenter would hold them (whole numbers). */
    static Map<String, Long> disk(long reads, long writes, long readMs, long writeMs, long kbRead, long kbWritten,
                                  long small, long medium, long large) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("virtualDisk.numberReadAveraged.average", reads);
        c.put("virtualDisk.numberWriteAveraged.average", writes);
        c.put("virtualDisk.totalReadLatency.average", readMs);
        c.put("virtualDisk.totalWriteLatency.average", writeMs);
        c.put("virtualDisk.readLatencyUS.latest", readMs * 1000 + 250);
        c.put("virtualDisk.writeLatencyUS.latest", writeMs * 1000 + 500);
        c.put("virtualDisk.readOIO.latest", reads * readMs / 1000);
        c.put("virtualDisk.writeOIO.latest", writes * writeMs / 1000);
        c.put("virtualDisk.read.average", kbRead);
        c.put("virtualDisk.write.average", kbWritten);
        c.put("virtualDisk.readIOSize.latest", reads == 0 ? 0 : kbRead * 1024 / reads);
        c.put("virtualDisk.writeIOSize.latest", writes == 0 ? 0 : kbWritten * 1024 / writes);
        c.put("virtualDisk.smallSeeks.latest", small);
        c.put("virtualDisk.mediumSeeks.latest", medium);
        c.put("virtualDisk.largeSeeks.latest", large);
        return c;
    }

    /** A disk entry of a published sample: {@code key} a device key, or an instance name given verbatim. */
    static Map<String, Object> entry(Object key, Map<String, Long> counters) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put(key instanceof Integer ? "key" : "instance", key);
        e.put("counters", counters);
        return e;
    }

    /** Publishes one 20-s sample into the simulator's PerformanceManager; returns its end. */
    static Instant publish(Map<String, List<Map<String, Object>>> disksByVm, List<Map<String, Object>> hosts) throws Exception {
        clock = clock.plusSeconds(20);
        List<Map<String, Object>> vms = new ArrayList<>();
        disksByVm.forEach((vm, disks) -> vms.add(Map.of("vm", vm, "disks", disks)));
        Map<String, Object> body = Map.of("timestamp", clock.toString(), "interval", 20, "vms", vms, "hosts", hosts);
        HttpResponse<String> r = admin("/opensdrs/perf", JSON.writeValueAsString(body));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        return clock;
    }

    static HttpResponse<String> admin(String path, String json) throws Exception {
        SSLContext trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) { }
            public void checkServerTrusted(X509Certificate[] c, String a) { }
            public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
        URI base = vcsim.sdkUrl().resolve(path);
        return HttpClient.newBuilder().sslContext(trustAll).build().send(HttpRequest.newBuilder(base)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static List<Integer> keys(String vm) throws Exception {
        return FaithfulVcsim.diskKeys(vcsim, vm);
    }

    static String moid(String vm) throws Exception {
        return FaithfulVcsim.moid(vcsim, "m", vm);
    }

    List<JsonNode> windows(String vm, int key) throws Exception {
        List<JsonNode> list = new ArrayList<>();
        call(HttpMethod.GET, "/api/v1/disks/" + moid(vm) + "/" + key + "/windows?limit=10", 200).forEach(list::add);
        return list;
    }

    JsonNode faultsOf(String kind) throws Exception {
        for (JsonNode f : call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/statistics", 200).get("faults")) {
            if (f.get("kind").asText().equals(kind) && f.get("active").asBoolean()) {
                return f;
            }
        }
        return null;
    }

    /** govc metric.sample's newest value of a counter on the VM's instance (from outside, vCenter's own answer). */
    static long govcSample(String vm, String instance, String counter) throws Exception {
        JsonNode s = JSON.readTree(vcsim.govc("metric.sample", "-json", "-i", "20", "-n", "1", "-instance", instance,
                "vm/" + vm, counter));
        for (JsonNode e : s.path("sample")) {
            for (JsonNode v : e.path("value")) {
                if (v.path("instance").asText().equals(instance) && v.path("name").asText().equals(counter)) {
                    JsonNode values = v.path("value");
                    return values.get(values.size() - 1).asLong();
                }
            }
        }
        throw new AssertionError("govc metric.sample has no " + counter + " of " + vm + " " + instance + ": " + s);
    }

    @Test
    @Order(1)
    void theWindowsStoredForThreeDisksAreWhatGovcReadsFromVCenter() throws Exception {
        sync.fullSync();
        List<Integer> db = keys("db");
        int web = keys("web").get(0);
        // every value compared below is above zero: vcsim's answers in QueryPerf's normal format, which govc reads,
        // drop zero values (Go's XML omitempty on each element; the csv format the server reads keeps them)
        publish(Map.of("db", List.of(entry(db.get(0), disk(120, 40, 7, 3, 960, 640, 10, 20, 130)),
                        entry(db.get(1), disk(2, 300, 1, 1, 16, 1200, 290, 10, 4))),
                "web", List.of(entry(web, disk(50, 5, 12, 9, 3200, 40, 5, 5, 45)))), List.of());
        Instant second = publish(Map.of("db", List.of(entry(db.get(0), disk(130, 45, 8, 4, 1040, 720, 12, 18, 145)),
                        entry(db.get(1), disk(3, 310, 1, 1, 24, 1240, 300, 10, 5))),
                "web", List.of(entry(web, disk(55, 6, 11, 9, 3520, 48, 6, 4, 50)))), List.of());

        assertThat(statistics.read()).as("windows stored by the first read").isEqualTo(6);
        JsonNode status = call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/statistics", 200);
        assertThat(status.get("lastReadWindows").asInt()).isEqualTo(6);
        assertThat(status.get("lastReadVms").asInt()).as("the two running VMs").isEqualTo(2);
        assertThat(statistics.read()).as("read again: nothing new, nothing stored twice").isZero();
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/statistics", 200).get("lastReadWindows").asInt())
                .isZero();

        // from outside: govc reads vCenter's newest sample; the server stored the same numbers
        for (var d : List.of(new Object[] {"db", db.get(0)}, new Object[] {"db", db.get(1)}, new Object[] {"web", web})) {
            String vm = (String) d[0];
            int key = (Integer) d[1];
            String instance = jdbc.queryForObject("SELECT perf_instance FROM virtual_disk WHERE vm_moid = ? AND disk_key = ?",
                    String.class, moid(vm), key);
            JsonNode stored = windows(vm, key).get(0);
            assertThat(Instant.parse(stored.get("windowEnd").asText())).isEqualTo(second);
            long reads = govcSample(vm, instance, "virtualDisk.numberReadAveraged.average");
            long writes = govcSample(vm, instance, "virtualDisk.numberWriteAveraged.average");
            long readUs = govcSample(vm, instance, "virtualDisk.readLatencyUS.latest");
            long writeUs = govcSample(vm, instance, "virtualDisk.writeLatencyUS.latest");
            long kbRead = govcSample(vm, instance, "virtualDisk.read.average");
            System.out.printf("disk %d of %s (%s): govc %d reads/s, %d writes/s, %d/%d µs; stored %s%n", key, vm, instance,
                    reads, writes, readUs, writeUs, stored);
            assertThat(stored.get("reads").asLong()).isEqualTo(reads * 20);
            assertThat(stored.get("writes").asLong()).isEqualTo(writes * 20);
            assertThat(stored.get("bytesRead").asLong()).isEqualTo(kbRead * 1024 * 20);
            double latency = reads + writes == 0 ? 0 : (reads * readUs + writes * writeUs) / 1000.0 / (reads + writes);
            assertThat(stored.get("meanLatencyMs").asDouble()).isCloseTo(latency, org.assertj.core.data.Offset.offset(1e-9));
            // Little's law per direction (the OIO counters are whole numbers)
            assertThat(stored.get("outstandingIos").asDouble())
                    .isCloseTo(reads * readUs / 1e6 + writes * writeUs / 1e6, org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(windows("db", db.get(0))).hasSize(2);
        assertThat(windows("db", db.get(0)).get(0).get("randomness").asDouble())
                .isCloseTo((18 + 145) / 175.0, org.assertj.core.data.Offset.offset(1e-9));
        // the powered-off VM is not read and no fault is raised for it
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/statistics", 200).get("faults")).isEmpty();
    }

    @Test
    @Order(2)
    void anInstanceThatNamesNoDiskIsAFaultAndNothingIsStoredForIt() throws Exception {
        List<Integer> db = keys("db");
        int web = keys("web").get(0);
        long before = count();
        publish(Map.of("db", List.of(entry(db.get(0), disk(100, 0, 5, 0, 400, 0, 0, 0, 100)),
                        entry(db.get(1), disk(0, 100, 0, 2, 0, 400, 100, 0, 0)),
                        entry("scsi3:9", disk(999, 999, 1, 1, 9, 9, 0, 0, 1))),
                "web", List.of(entry(web, disk(10, 0, 3, 0, 40, 0, 0, 0, 10)))), List.of());
        assertThat(statistics.read()).isEqualTo(3);
        assertThat(count() - before).as("no window for the unknown instance").isEqualTo(3);
        JsonNode f = faultsOf("unknown-instance");
        assertThat(f).isNotNull();
        assertThat(f.get("subject").asText()).isEqualTo("instance scsi3:9 of VM db");
        assertThat(f.get("detail").asText()).contains("which names none of the VM's disks");
    }

    @Test
    @Order(3)
    void aValueBelowZeroIsAFaultNamingTheCounterAndNothingIsStoredForThatDisk() throws Exception {
        List<Integer> db = keys("db");
        int web = keys("web").get(0);
        Map<String, Long> bad = disk(100, 0, 5, 0, 400, 0, 0, 0, 100);
        bad.put("virtualDisk.totalReadLatency.average", -5L);
        Instant end = publish(Map.of("db", List.of(entry(db.get(0), bad), entry(db.get(1), disk(0, 100, 0, 2, 0, 400, 100, 0, 0))),
                "web", List.of(entry(web, disk(10, 0, 3, 0, 40, 0, 0, 0, 10)))), List.of());
        assertThat(statistics.read()).as("the other two disks' windows").isEqualTo(2);
        assertThat(Instant.parse(windows("db", db.get(0)).get(0).get("windowEnd").asText())).isBefore(end);
        assertThat(Instant.parse(windows("db", db.get(1)).get(0).get("windowEnd").asText())).isEqualTo(end);
        JsonNode f = faultsOf("bad-value");
        assertThat(f).isNotNull();
        assertThat(f.get("subject").asText()).isEqualTo("disk " + db.get(0) + " of VM db");
        assertThat(f.get("detail").asText()).contains("virtualDisk.totalReadLatency.average is -5, below zero");
    }

    @Test
    @Order(4)
    void aMissingValueIsReadAgainOnceThenAFaultAndNothingIsStoredForThatDisk() throws Exception {
        List<Integer> db = keys("db");
        int web = keys("web").get(0);
        Map<String, Long> partial = disk(0, 100, 0, 2, 0, 400, 100, 0, 0);
        partial.remove("virtualDisk.smallSeeks.latest");
        Instant incomplete = publish(Map.of("db", List.of(entry(db.get(0), disk(100, 0, 5, 0, 400, 0, 0, 0, 100)),
                        entry(db.get(1), partial)),
                "web", List.of(entry(web, disk(10, 0, 3, 0, 40, 0, 0, 0, 10)))), List.of());
        assertThat(statistics.read()).as("db's sample held back: vCenter may still be completing it").isEqualTo(1);
        assertThat(faultsOf("bad-value") == null || !faultsOf("bad-value").get("detail").asText().contains("smallSeeks"))
                .as("no fault while the newest sample may still be completed").isTrue();
        Instant next = publish(Map.of("db", List.of(entry(db.get(0), disk(100, 0, 5, 0, 400, 0, 0, 0, 100)),
                        entry(db.get(1), disk(0, 100, 0, 2, 0, 400, 100, 0, 0))),
                "web", List.of(entry(web, disk(10, 0, 3, 0, 40, 0, 0, 0, 10)))), List.of());
        assertThat(statistics.read()).as("db's held sample (one disk) and the next (both), web's next").isEqualTo(4);
        List<Instant> logEnds = windows("db", db.get(1)).stream().map(w -> Instant.parse(w.get("windowEnd").asText())).toList();
        assertThat(logEnds).contains(next).doesNotContain(incomplete);
        assertThat(windows("db", db.get(0)).stream().map(w -> Instant.parse(w.get("windowEnd").asText()))).contains(incomplete);
        JsonNode f = faultsOf("bad-value");
        assertThat(f).isNotNull();
        assertThat(f.get("subject").asText()).isEqualTo("disk " + db.get(1) + " of VM db");
        assertThat(f.get("detail").asText()).contains("no value of virtualDisk.smallSeeks.latest");
    }

    @Test
    @Order(5)
    void anAgentGetsItsHostsLoadAndTheLoadOfHostsWithoutAnAgent() throws Exception {
        List<Integer> db = keys("db");
        int web = keys("web").get(0);
        String agentId = "agent-" + UUID.randomUUID();
        String token = new AdminApi(rest).call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", agentId), 201)
                .get("token").asText();
        try (SimulatedAgent a = new SimulatedAgent("localhost", grpc.port(), token)) {
            assertThat(a.register(agentId, "h1", List.of("ds1", "ds2")).getAccepted()).isTrue();
            SimulatedAgent.Session s = a.openSession();
            s.send(AgentMessage.newBuilder().setSeq(1).setDatastoreState(DatastoreState.newBuilder().setDatastore("ds1")
                    .setHost("h1").setPeriodEndMs(1).build()).build());
            assertThat(s.take(10_000)).matches(ServerMessage::hasAck);
            // h1's VM db keeps 0.5 + 0.2 outstanding on ds1; h2, which has no agent, issues 300 IOPS to ds2
            publish(Map.of("db", List.of(entry(db.get(0), disk(100, 0, 5, 0, 400, 0, 0, 0, 100)),
                            entry(db.get(1), disk(0, 100, 0, 2, 0, 400, 100, 0, 0))),
                    "web", List.of(entry(web, disk(300, 0, 10, 0, 1200, 0, 0, 0, 300)))),
                    List.of(Map.of("host", "h2", "datastores", List.of(Map.of("datastore", "ds2", "counters",
                            Map.of("datastore.datastoreIops.average", 300L, "datastore.numberReadAveraged.average", 300L,
                                    "datastore.numberWriteAveraged.average", 0L, "datastore.totalReadLatency.average", 10L,
                                    "datastore.totalWriteLatency.average", 0L))))));
            statistics.read();
            ServerMessage m = null;
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); m == null && System.nanoTime() < deadline; ) {
                ServerMessage n = s.take(1_000);
                if (n != null && n.hasHostDatastoreLoads()) {
                    m = n;
                }
            }
            assertThat(m).as("HostDatastoreLoads on h1's agent's session").isNotNull();
            Map<String, HostDatastoreLoad> byDs = new LinkedHashMap<>();
            m.getHostDatastoreLoads().getLoadsList().forEach(l -> byDs.put(l.getDatastore(), l));
            System.out.println("loads sent to h1's agent: " + byDs.values());
            assertThat(byDs.get("ds1").getIops()).isCloseTo(200, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(byDs.get("ds1").getOutstandingIos()).isCloseTo(100 * 0.00525 + 100 * 0.0025,
                    org.assertj.core.data.Offset.offset(1e-6));
            assertThat(byDs.get("ds1").getUnrepresentedIops()).as("h2 issues nothing to ds1").isZero();
            assertThat(byDs.get("ds2").getIops()).as("h1's VMs issue nothing to ds2").isZero();
            assertThat(byDs.get("ds2").getUnrepresentedIops()).as("h2's datastore counter").isEqualTo(300);
            assertThat(byDs.get("ds2").getUnrepresentedOutstandingIos()).isCloseTo(3.0, org.assertj.core.data.Offset.offset(1e-6));
        }
    }

    @Test
    @Order(6)
    void aCounterVCenterLacksAndVCenterGoneAreFaultsAndNothingIsStored() throws Exception {
        try (VcsimProcess lacking = FaithfulVcsim.start(WORLD, "perf-lacking", "-perf-omit-counter",
                "virtualDisk.smallSeeks.latest", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD)) {
            VSphereClient client = Vim25VSphereClient.login(lacking.insecureConnection());
            StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("client", client));
            VCenterStatistics other = new VCenterStatistics(beans.getBeanProvider(VSphereClient.class), inventory, ingestion,
                    observations, loads, faults, properties, Clock.systemUTC());
            long before = count();
            assertThat(other.read()).isZero();
            assertThat(count()).isEqualTo(before);
            JsonNode f = faultsOf("counter-missing");
            assertThat(f).isNotNull();
            assertThat(f.get("subject").asText()).isEqualTo("virtualDisk.smallSeeks.latest");
            assertThat(f.get("detail").asText()).contains("no disk's IO can be read");

            lacking.close(); // vCenter goes away
            assertThat(other.read()).isZero();
            JsonNode gone = faultsOf("vcenter-unavailable");
            assertThat(gone).isNotNull();
            assertThat(gone.get("detail").asText()).contains("read again in");
            SdrsProperties.VCenterCounters c = properties.getStats().getVcenter();
            assertThat(other.status().nextReadIn()).as("the wait doubles, up to the longest backoff")
                    .isEqualTo(java.time.Duration.ofMillis(Math.min(c.getMaxBackoff().toMillis(), c.getPollInterval().toMillis() * 2)));
            client.close();
        }
    }

    /**
     * One VM per call and three calls in flight (the pool's path, as a period's 13 calls of 250 VMs take
     * it): what one call at a time stores is stored, and a VM whose call vCenter refuses is a fault of its own.
     */
    @Test
    @Order(7)
    @SuppressWarnings("unchecked")
    void callsInFlightTogetherStoreEveryWindowAndARefusedVmIsAFault() throws Exception {
        SdrsProperties p = new SdrsProperties();
        p.getStats().getVcenter().setBatchSize(1);
        p.getStats().getVcenter().setParallelCalls(3);
        String web = moid("web");
        try (Vim25VSphereClient real = Vim25VSphereClient.login(vcsim.insecureConnection())) {
            VSphereClient refusing = (VSphereClient) java.lang.reflect.Proxy.newProxyInstance(VSphereClient.class.getClassLoader(),
                    new Class<?>[] {VSphereClient.class}, (proxy, m, args) -> {
                        if (m.getName().equals("queryPerf")
                                && ((List<io.opensdrs.server.vsphere.PerfQuery>) args[0]).stream().anyMatch(q -> q.entityId().equals(web))) {
                            throw new io.opensdrs.server.vsphere.vim25.VimFaultException("QueryPerf", "InvalidArgument",
                                    "refused by the test");
                        }
                        try {
                            return m.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("client", refusing));
            VCenterStatistics other = new VCenterStatistics(beans.getBeanProvider(VSphereClient.class), inventory, ingestion,
                    observations, loads, faults, p, Clock.systemUTC());
            other.read(); // from the samples already read by the server's own instance: nothing new is stored
            List<Integer> db = keys("db");
            Instant end = publish(Map.of("db", List.of(entry(db.get(0), disk(10, 1, 2, 3, 40, 4, 1, 2, 8)),
                            entry(db.get(1), disk(20, 2, 3, 4, 80, 8, 2, 3, 16))),
                    "web", List.of(entry(keys("web").get(0), disk(5, 5, 1, 1, 20, 20, 1, 1, 9)))), List.of());
            assertThat(other.read()).as("db's two windows; web's call refused").isEqualTo(2);
            assertThat(windows("db", db.get(0)).get(0).get("windowEnd").asText()).isEqualTo(end.toString());
            assertThat(windows("db", db.get(1)).get(0).get("reads").asLong()).isEqualTo(20 * 20);
            JsonNode refused = faultsOf("vcenter-unavailable");
            assertThat(refused).isNotNull();
            assertThat(refused.get("subject").asText()).isEqualTo("VirtualMachine " + web);
            assertThat(refused.get("detail").asText()).contains("QueryPerf refused it: InvalidArgument");
            other.stop();
        }
    }

    long count() {
        Long n = jdbc.queryForObject("SELECT COALESCE(SUM(sample_count), 0) FROM sample_batch WHERE agent_id = 'vcenter'", Long.class);
        return n == null ? 0 : n;
    }
}
