package io.opensdrs.server.capture;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventorySnapshot;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.stats.DiskWindowIngestion;
import io.opensdrs.server.stats.vcenter.VCenterStatistics;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.LqFit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code GET /api/v1/clusters/{id}/capture} on a real server (H2): an in-memory inventory, an
 * injector run for one datastore's model, and windows stored the way vCenter's are
 * ({@link DiskWindowIngestion#ingest}, source {@code vcenter}) over two UTC hours, with one disk
 * moving between datastores at the second hour.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.plugin.register=false",
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
})
@Import(ClusterCaptureTest.Fixtures.class)
class ClusterCaptureTest {

    @TestConfiguration
    static class Fixtures {
        @Bean
        InMemoryInventorySource inventorySource() {
            return new InMemoryInventorySource();
        }
    }

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) throws IOException {
        String dir = Files.createTempDirectory("sdrs-capture-h2-").toString();
        r.add("sdrs.data-dir", () -> dir);
    }

    @Autowired TestRestTemplate rest;
    @Autowired InMemoryInventorySource inventory;
    @Autowired DiskWindowIngestion ingestion;
    @Autowired DatastoreModels models;

    static final long GB = 1L << 30;
    static final long HOUR_10 = Instant.parse("2026-11-27T10:00:00Z").toEpochMilli();
    static final long HOUR_11 = Instant.parse("2026-11-27T11:00:00Z").toEpochMilli();

    static InventorySnapshot inventory() {
        return new InventorySnapshot("1",
                List.of(new InventorySnapshot.DatacenterInfo("datacenter-1", "dc1")),
                List.of(new InventorySnapshot.StoragePodInfo("group-p1", "pod1", "datacenter-1"),
                        new InventorySnapshot.StoragePodInfo("group-p2", "pod2", "datacenter-1")),
                List.of(InMemoryInventorySource.ds("datastore-11", "ds-a", "group-p1", 1000 * GB, 800 * GB),
                        InMemoryInventorySource.ds("datastore-12", "ds-b", "group-p1", 2000 * GB, 1900 * GB),
                        InMemoryInventorySource.ds("datastore-13", "ds-other", "group-p2", 500 * GB, 500 * GB)),
                List.of(new InventorySnapshot.HostInfo("host-21", "esx1", "datacenter-1", List.of("datastore-11", "datastore-12")),
                        new InventorySnapshot.HostInfo("host-22", "esx2", "datacenter-1", List.of("datastore-12", "datastore-13"))),
                List.of(new InventorySnapshot.VmInfo("vm-31", "web", "host-21", List.of(
                                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] web/web.vmdk", 40 * GB, "datastore-11"),
                                new InventorySnapshot.VirtualDiskInfo(2001, "[ds-a] web/web_1.vmdk", 20 * GB, "datastore-11")), "datastore-11", 0),
                        new InventorySnapshot.VmInfo("vm-32", "db", "host-22", List.of(
                                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-b] db/db.vmdk", 100 * GB, "datastore-12"),
                                new InventorySnapshot.VirtualDiskInfo(2001, "[ds-other] db/logs.vmdk", 10 * GB, "datastore-13")),
                                "datastore-12", 0)));
    }

    /** A 20-s window as {@code VirtualDiskCounters} builds one: O by Little's law. */
    static DiskWindowStats window(String vm, int key, String ds, long startMs, double iops, double latencyMs, double sizeKb,
                                  double readShare, double randomness) {
        long ios = Math.round(iops * 20);
        long reads = Math.round(ios * readShare);
        long bytes = Math.round(ios * sizeKb * 1024);
        return DiskWindowStats.newBuilder().setVm(vm).setDiskKey(key).setDatastore(ds).setDiskFile("[" + ds + "] " + vm + ".vmdk")
                .setWindowStartMs(startMs).setWindowSeconds(20).setIoCount(ios).setReads(reads).setWrites(ios - reads)
                .setBytesRead(Math.round(bytes * readShare)).setBytesWritten(bytes - Math.round(bytes * readShare))
                .setMeanOutstandingIos(iops * latencyMs / 1000).setMeanLatencyMs(ios == 0 ? 0 : latencyMs)
                .setMeanIoSizeKb(ios == 0 ? 0 : sizeKb).setReadShare(ios == 0 ? 0 : readShare).setRandomness(ios == 0 ? 0 : randomness)
                .build();
    }

    static InjectorResult injectorRun(String ds, double slope, double intercept, int sizeKb) {
        InjectorResult.Builder r = InjectorResult.newBuilder().setDatastore(ds).setRunId("run-" + ds + "-" + sizeKb)
                .setStartedMs(1_700_000_000_000L).setFinishedMs(1_700_000_060_000L).setIoSizeKb(sizeKb).setReadShare(1).setRandomness(1)
                .setMode(InjectorMode.EMULATED).setValid(true).setAttempt(1);
        for (int q = 2; q <= 32; q *= 2) {
            double l = slope * q + intercept;
            r.addPoints(InjectorPoint.newBuilder().setTargetOio(q).setMeasuredOio(q).setIoCount(1000).setDurationS(5)
                    .setIops(q / l * 1000).setMeanLatencyMs(l));
        }
        return r.setFit(LqFit.newBuilder().setSlopeMsPerIo(slope).setInterceptMs(intercept).setRSquared(1).setPoints(5)).build();
    }

    @Test
    void aClustersCaptureHasItsDatastoresModelsHostsVmsAndEachDisksWorkloadPerHour() throws Exception {
        AdminApi api = new AdminApi(rest);
        inventory.setSnapshot(inventory());
        api.call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        models.recordInjectorResult("esx1-agent", 1, injectorRun("ds-a", 2.0, 3.0, 4));

        // hour 10: web/2000 at 5 IOPS, web/2001 idle, db/2000 on ds-a; hour 11: db/2000 has moved to ds-b, web/2001 busy;
        // db/2001 (on another cluster's datastore) and a VM the inventory does not have are read and left out
        for (int i = 0; i < 6; i++) {
            ingestion.ingest(VCenterStatistics.SOURCE, DiskStatsBatch.newBuilder().setHost("vcenter")
                    .addSamples(window("vm-31", 2000, "ds-a", HOUR_10 + i * 20_000L, 5, 10, 4, 1, 1))
                    .addSamples(window("vm-31", 2001, "ds-a", HOUR_10 + i * 20_000L, 0, 0, 0, 0, 0))
                    .addSamples(window("vm-32", 2000, "ds-a", HOUR_10 + i * 20_000L, 50, 30, 8, 0.7, 1))
                    .addSamples(window("vm-32", 2001, "ds-other", HOUR_10 + i * 20_000L, 10, 1, 64, 0, 0))
                    .addSamples(window("vm-99", 2000, "ds-x", HOUR_10 + i * 20_000L, 10, 1, 64, 0, 0))
                    .build(), b -> { });
        }
        for (int i = 0; i < 6; i++) {
            ingestion.ingest(VCenterStatistics.SOURCE, DiskStatsBatch.newBuilder().setHost("vcenter")
                    .addSamples(window("vm-31", 2000, "ds-a", HOUR_11 + i * 20_000L, 100, 20, 8, 0.5, 0.5))
                    .addSamples(window("vm-31", 2001, "ds-a", HOUR_11 + i * 20_000L, i < 3 ? 40 : 0, 25, 16, 1, 0))
                    .addSamples(window("vm-32", 2000, "ds-b", HOUR_11 + i * 20_000L, 200, 5, 8, 0.7, 1))
                    .build(), b -> { });
        }

        JsonNode c = api.call(HttpMethod.GET, "/api/v1/clusters/group-p1/capture", null, 200);
        assertThat(c.get("clusterName").asText()).isEqualTo("pod1");
        assertThat(c.get("source").asText()).isEqualTo("vcenter");
        assertThat(c.get("modelKind").asText()).isEqualTo("pesto");
        assertThat(c.get("windowsRead").asLong()).isEqualTo(6 * 5 + 6 * 3);
        // db/2001 belongs to a VM of the cluster but lies on another cluster's datastore: not the cluster's disk
        assertThat(c.get("windowsUsed").asLong()).isEqualTo(6 * 3 + 6 * 3);
        assertThat(c.get("firstWindow").asText()).isEqualTo("2026-11-27T10:00:00Z");

        Map<String, JsonNode> ds = byName(c.get("datastores"));
        assertThat(ds).containsOnlyKeys("ds-a", "ds-b");
        JsonNode a = ds.get("ds-a");
        assertThat(a.get("capacityBytes").asLong()).isEqualTo(1000 * GB);
        assertThat(a.get("model").get("kind").asText()).isEqualTo("pesto");
        assertThat(a.get("model").get("source").asText()).isEqualTo("injector");
        assertThat(a.get("model").get("parameters").get("m").asDouble()).isCloseTo(2.0, within(0.01));
        assertThat(a.get("model").get("parameters").has("C")).isTrue();
        JsonNode predictions = a.get("model").get("predictions");
        assertThat(predictions).hasSize(10);
        assertThat(predictions.get(0).get("oio").asDouble()).isEqualTo(2);
        assertThat(predictions.get(0).get("ioSizeKb").asDouble()).isEqualTo(4);
        assertThat(predictions.get(0).get("readPct").asDouble()).isEqualTo(100);
        for (int i = 0; i < 5; i++) {
            double q = predictions.get(i).get("oio").asDouble();
            assertThat(predictions.get(i).get("latencyMs").asDouble()).as("4 KiB at OIO " + q).isCloseTo(2 * q + 3, within(0.01));
            assertThat(predictions.get(i + 5).get("ioSizeKb").asDouble()).isEqualTo(256);
            assertThat(predictions.get(i + 5).get("latencyMs").isNumber()).isTrue();
        }
        JsonNode injected = a.get("model").get("injectorPoints");
        assertThat(injected).hasSize(5);
        assertThat(injected.get(4).get("oio").asDouble()).isEqualTo(32);
        assertThat(injected.get(4).get("latencyMs").asDouble()).isCloseTo(2.0 * 32 + 3, within(1e-9));
        // ds-b has no model of its own: Pesto's default (the others' mean slope)
        assertThat(ds.get("ds-b").get("model").get("source").asText()).isEqualTo("default");

        // ds-a over everything: hour 10 web 100 IOs × 10 ms + db 1000 × 30 ms; hour 11 web 2000 × 20 ms + web_1 800 × 25 ms
        JsonNode measured = a.get("measured");
        double ios = 6 * (100 + 1000) + 6 * 2000 + 3 * 800;
        double lat = (6 * (100 * 10 + 1000 * 30) + 6 * 2000 * 20 + 3 * 800 * 25) / ios;
        assertThat(measured.get("ios").asLong()).isEqualTo((long) ios);
        assertThat(measured.get("meanLatencyMs").asDouble()).isCloseTo(lat, within(1e-6));
        assertThat(measured.get("windowStarts").asLong()).isEqualTo(12);
        // db left ds-a at 11:00: the current placement counts hour 11 alone
        assertThat(a.get("currentSince").asText()).isEqualTo("2026-11-27T11:00:00Z");
        JsonNode current = a.get("current");
        assertThat(current.get("ios").asLong()).isEqualTo(6 * 2000 + 3 * 800);
        assertThat(current.get("meanLatencyMs").asDouble()).isCloseTo((6 * 2000 * 20 + 3 * 800 * 25) / (6.0 * 2000 + 3 * 800), within(1e-6));
        // mean OIO: per window start, the disks' O summed (web 2 + web_1 1 in the first three, 2 in the last three)
        assertThat(current.get("meanOio").asDouble()).isCloseTo(2.5, within(1e-9));
        assertThat(current.get("iops").asDouble()).isCloseTo((6 * 2000 + 3 * 800) / 120.0, within(1e-9));
        assertThat(ds.get("ds-b").get("currentSince").asText()).isEqualTo("2026-11-27T11:00:00Z");
        assertThat(ds.get("ds-b").get("current").get("meanLatencyMs").asDouble()).isCloseTo(5, within(1e-9));

        Map<String, JsonNode> hosts = byName(c.get("hosts"));
        assertThat(hosts).containsOnlyKeys("esx1", "esx2");
        assertThat(hosts.get("esx1").get("datastores").toString()).isEqualTo("[\"ds-a\",\"ds-b\"]");
        assertThat(hosts.get("esx2").get("datastores").toString()).isEqualTo("[\"ds-b\"]");

        Map<String, JsonNode> vms = byName(c.get("vms"));
        assertThat(vms).containsOnlyKeys("web", "db");
        assertThat(vms.get("web").get("host").asText()).isEqualTo("esx1");
        assertThat(vms.get("web").get("memoryMB").isNull()).isTrue();
        assertThat(vms.get("db").get("disks")).hasSize(1); // its logs disk is on another cluster's datastore
        JsonNode web = vms.get("web").get("disks").get(0);
        assertThat(web.get("name").asText()).isEqualTo("web");
        assertThat(web.get("datastore").asText()).isEqualTo("ds-a");
        assertThat(web.get("sizeBytes").asLong()).isEqualTo(40 * GB);
        JsonNode h10 = web.get("hours").get(0);
        JsonNode h11 = web.get("hours").get(1);
        assertThat(web.get("hours")).hasSize(2);
        assertThat(h10.get("hour").asInt()).isEqualTo(10);
        assertThat(h10.get("iopsActive").asDouble()).isCloseTo(5, within(1e-9));
        assertThat(h10.get("oioActive").asDouble()).isCloseTo(0.05, within(1e-9));
        assertThat(h10.get("ioSizeKb").asDouble()).isCloseTo(4, within(1e-6));
        assertThat(h10.get("readPct").asDouble()).isCloseTo(100, within(1e-6));
        assertThat(h10.get("randomPct").asDouble()).isCloseTo(100, within(1e-6));
        assertThat(h11.get("hour").asInt()).isEqualTo(11);
        assertThat(h11.get("oio").asDouble()).isCloseTo(2, within(1e-9));
        assertThat(h11.get("ioSizeKb").asDouble()).isCloseTo(8, within(1e-6));
        assertThat(h11.get("readPct").asDouble()).isCloseTo(50, within(1e-6));
        assertThat(h11.get("randomPct").asDouble()).isCloseTo(50, within(1e-6));
        assertThat(h11.get("latencyMs").asDouble()).isCloseTo(20, within(1e-6));
        assertThat(web.get("overall").get("ios").asLong()).isEqualTo(6 * 100 + 6 * 2000);
        assertThat(web.get("overall").get("hour").isNull()).isTrue();
        // web_1: idle in hour 10, busy half of hour 11
        JsonNode web1 = vms.get("web").get("disks").get(1);
        assertThat(web1.get("name").asText()).isEqualTo("web_1");
        JsonNode w1h10 = web1.get("hours").get(0);
        assertThat(w1h10.get("windows").asLong()).isEqualTo(6);
        assertThat(w1h10.get("activeWindows").asLong()).isEqualTo(0);
        assertThat(w1h10.get("ioSizeKb").isNull()).isTrue();
        JsonNode w1h11 = web1.get("hours").get(1);
        assertThat(w1h11.get("activeWindows").asLong()).isEqualTo(3);
        assertThat(w1h11.get("oio").asDouble()).isCloseTo(0.5, within(1e-9));
        assertThat(w1h11.get("oioActive").asDouble()).isCloseTo(1.0, within(1e-9));
        assertThat(w1h11.get("iops").asDouble()).isCloseTo(20, within(1e-9));
        assertThat(w1h11.get("iopsActive").asDouble()).isCloseTo(40, within(1e-9));
        // db's disk counts its windows on ds-a and on ds-b: its workload, wherever it ran
        JsonNode db = vms.get("db").get("disks").get(0);
        assertThat(db.get("datastore").asText()).isEqualTo("ds-b");
        assertThat(db.get("overall").get("ios").asLong()).isEqualTo(6 * 1000 + 6 * 4000);
        assertThat(c.get("rules").isArray()).isTrue();

        // the newest 30 minutes: hour 11 alone (its last window starts at 11:01:40), no placement change seen in it
        JsonNode recent = api.call(HttpMethod.GET, "/api/v1/clusters/group-p1/capture?last=PT30M", null, 200);
        assertThat(recent.get("firstWindow").asText()).isEqualTo("2026-11-27T11:00:00Z");
        JsonNode ra = byName(recent.get("datastores")).get("ds-a");
        assertThat(ra.get("measured").get("ios").asLong()).isEqualTo(6 * 2000 + 3 * 800);
        assertThat(ra.get("currentSince").isNull()).isTrue();
        assertThat(byName(recent.get("vms")).get("web").get("disks").get(0).get("hours")).hasSize(1);
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/group-p1/capture?last=an-hour", null, 400).path("field").asText())
                .isEqualTo("last");
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/group-p1/capture?last=PT0S", null, 400).path("field").asText())
                .isEqualTo("last");
    }

    @Test
    void anUnknownClusterIs404AndAMalformedId400NamingIt() throws Exception {
        AdminApi api = new AdminApi(rest);
        api.call(HttpMethod.GET, "/api/v1/clusters/group-p404/capture", null, 404);
        JsonNode bad = api.call(HttpMethod.GET, "/api/v1/clusters/" + "p".repeat(65) + "/capture", null, 400);
        assertThat(bad.path("field").asText()).isEqualTo("clusterId");
    }

    static Map<String, JsonNode> byName(JsonNode array) {
        Map<String, JsonNode> m = new HashMap<>();
        array.forEach(n -> m.put(n.get("name").asText(), n));
        return m;
    }
}
