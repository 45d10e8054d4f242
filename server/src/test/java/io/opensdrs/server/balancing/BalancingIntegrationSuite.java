package io.opensdrs.server.balancing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.AdvanceableClock;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.ingest.SimulatedAgent;
import io.opensdrs.server.ingest.AgentGrpcServer;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventoryChanges;
import io.opensdrs.server.inventory.InventorySnapshot;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.LqFit;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The balancing engine inside the server, driven over REST and gRPC: a real server on a
 * Flyway-migrated database, an in-memory inventory (test fixture), a recording vCenter (test
 * fixture: it counts RelocateVM calls) and an advanceable clock. Run on H2 and on PostgreSQL.
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
        // the tests drive these by hand with the injected clock
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
})
@Import(BalancingIntegrationSuite.Fixtures.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class BalancingIntegrationSuite {

    @TestConfiguration
    static class Fixtures {
        @Bean
        InMemoryInventorySource inventorySource() {
            return new InMemoryInventorySource();
        }

        @Bean
        RecordingVSphereClient recordingVCenter() {
            return new RecordingVSphereClient();
        }

        @Bean
        @Primary
        AdvanceableClock testClock() {
            return new AdvanceableClock();
        }
    }

    @Autowired TestRestTemplate rest;
    @Autowired JdbcTemplate jdbc;
    @Autowired InMemoryInventorySource inventory;
    @Autowired RecordingVSphereClient vcenter;
    @Autowired AdvanceableClock clock;
    @Autowired BalancingScheduler scheduler;
    @Autowired MaintenanceMode maintenance;
    @Autowired DatastoreAddition addition;
    @Autowired AgentGrpcServer grpc;
    @Autowired io.opensdrs.server.settings.VCenterPodSettings podSettings;
    @Autowired org.springframework.transaction.PlatformTransactionManager transactions;
    final ObjectMapper json = new ObjectMapper();

    static final long GB = 1L << 30;

    // ------------------------------------------------------------------ fixture

    /**
     * pod1: ds-a (1000 GB, 90 % used: above the 80 % threshold) and ds-b (2000 GB, 10 % used);
     * both hosts see both; web (two disks) and db (one disk) live on ds-a.
     */
    static InventorySnapshot crowded(String version) {
        return crowded(version, "normal");
    }

    /** The same, with ds-a in the given maintenance mode in vCenter. */
    static InventorySnapshot crowded(String version, String dsAMaintenanceMode) {
        return new InventorySnapshot(version,
                List.of(new InventorySnapshot.DatacenterInfo("datacenter-1", "dc1")),
                List.of(new InventorySnapshot.StoragePodInfo("group-p1", "pod1", "datacenter-1")),
                List.of(new InventorySnapshot.DatastoreInfo("datastore-11", "ds-a", "ds:///vmfs/volumes/datastore-11/", "datacenter-1",
                                "group-p1", 1000 * GB, 100 * GB, true, dsAMaintenanceMode),
                        InMemoryInventorySource.ds("datastore-12", "ds-b", "group-p1", 2000 * GB, 1800 * GB)),
                List.of(new InventorySnapshot.HostInfo("host-21", "esx1", "datacenter-1", List.of("datastore-11", "datastore-12")),
                        new InventorySnapshot.HostInfo("host-22", "esx2", "datacenter-1", List.of("datastore-11", "datastore-12"))),
                List.of(new InventorySnapshot.VmInfo("vm-31", "web", "host-21", List.of(
                                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] web/web.vmdk", 150 * GB, "datastore-11"),
                                new InventorySnapshot.VirtualDiskInfo(2001, "[ds-a] web/web_1.vmdk", 100 * GB, "datastore-11")), "datastore-11", 0),
                        new InventorySnapshot.VmInfo("vm-32", "db", "host-22", List.of(
                                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] db/db.vmdk", 300 * GB, "datastore-11")), "datastore-11", 0)));
    }

    /** The same inventory as vCenter's own answer, for the applier's pre-conditions. */
    static io.opensdrs.server.vsphere.InventorySnapshot crowdedInVCenter() {
        return new io.opensdrs.server.vsphere.InventorySnapshot("1",
                List.of(new io.opensdrs.server.vsphere.InventorySnapshot.Datacenter("datacenter-1", "dc1", List.of("datastore-11", "datastore-12"))),
                List.of(new io.opensdrs.server.vsphere.InventorySnapshot.StoragePod("group-p1", "pod1", List.of("datastore-11", "datastore-12"),
                        3000 * GB, 1900 * GB)),
                List.of(new io.opensdrs.server.vsphere.InventorySnapshot.Datastore("datastore-11", "ds-a", "ds:///a/", "VMFS", 1000 * GB, 100 * GB,
                                true, "normal", "group-p1"),
                        new io.opensdrs.server.vsphere.InventorySnapshot.Datastore("datastore-12", "ds-b", "ds:///b/", "VMFS", 2000 * GB, 1800 * GB,
                                true, "normal", "group-p1")),
                List.of(new io.opensdrs.server.vsphere.InventorySnapshot.Host("host-21", "esx1", List.of("datastore-11", "datastore-12")),
                        new io.opensdrs.server.vsphere.InventorySnapshot.Host("host-22", "esx2", List.of("datastore-11", "datastore-12"))),
                List.of(new io.opensdrs.server.vsphere.InventorySnapshot.Vm("vm-31", "web", "host-21", List.of("datastore-11"), List.of(
                                new io.opensdrs.server.vsphere.InventorySnapshot.VirtualDisk(2000, "Hard disk 1", "[ds-a] web/web.vmdk", "datastore-11", 150 * GB, false),
                                new io.opensdrs.server.vsphere.InventorySnapshot.VirtualDisk(2001, "Hard disk 2", "[ds-a] web/web_1.vmdk", "datastore-11", 100 * GB, false)), "datastore-11", 0),
                        new io.opensdrs.server.vsphere.InventorySnapshot.Vm("vm-32", "db", "host-22", List.of("datastore-11"), List.of(
                                new io.opensdrs.server.vsphere.InventorySnapshot.VirtualDisk(2000, "Hard disk 1", "[ds-a] db/db.vmdk", "datastore-11", 300 * GB, false)), "datastore-11", 0)));
    }

    void syncCrowded(String version) throws Exception {
        inventory.setSnapshot(crowded(version));
        vcenter.setInventory(crowdedInVCenter());
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
    }

    TestRestTemplate admin() {
        return new AdminApi(rest).rest();
    }

    JsonNode call(HttpMethod method, String path, Object body, int expectedStatus) throws Exception {
        return new AdminApi(rest).call(method, path, body, expectedStatus);
    }

    Map<String, Object> settings(String automation) {
        Map<String, Object> s = new TreeMap<>();
        s.put("modelKind", "auto");
        s.put("automationLevel", automation);
        s.put("spaceThresholdPct", 80);
        s.put("minSpaceDifferencePct", 5);
        s.put("latencyThresholdMs", 15);
        s.put("ioImbalanceThreshold", 5);
        s.put("loadBalanceIntervalMinutes", 960);
        s.put("ioLoadBalanceEnabled", true);
        s.put("keepVmdksTogether", true);
        s.put("congestionAlpha", 0.9);
        return s;
    }

    static List<Long> ids(JsonNode array) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asLong()));
        return out;
    }

    /**
     * The recording vCenter's tasks run until a test completes them. One test's relocations left
     * running would hold the next test's VMs: an evacuation leaves a VM being relocated off the
     * datastore to that relocation.
     */
    @AfterEach
    void endRelocationsLeftRunning() throws Exception {
        long deadline = System.currentTimeMillis() + 20_000;
        while (true) {
            List<String> tasks = jdbc.queryForList("SELECT task_moid FROM migration_action WHERE state IN ('ISSUING', 'RUNNING', 'VERIFYING')"
                    + " AND task_moid IS NOT NULL", String.class);
            Integer queued = jdbc.queryForObject("SELECT COUNT(*) FROM migration_action a JOIN recommendation r ON r.id = a.recommendation_id"
                    + " WHERE a.state IN ('QUEUED', 'ISSUING') AND r.state = 'APPLYING'", Integer.class);
            if (tasks.isEmpty() && queued == 0) {
                return;
            }
            tasks.forEach(vcenter::complete);
            assertThat(System.currentTimeMillis()).as("relocations still running: " + tasks).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    // ------------------------------------------------------------------ automation levels

    @Test
    @Order(1)
    void manualModeRecommendsWithExplanationsAndNeverMovesAnything() throws Exception {
        syncCrowded("m1");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        assertThat(run.get("strategy").asText()).isIn("pesto", "romano", "basil");
        List<Long> recs = ids(run.get("recommendationIds"));
        assertThat(recs).as(run.toString()).isNotEmpty();
        assertThat(run.get("appliedRecommendationIds")).isEmpty();
        // the cluster's Storage DRS status, as the overview shows it
        JsonNode status = call(HttpMethod.GET, "/api/v1/clusters/group-p1", null, 200).get("status");
        assertThat(status.get("pendingRecommendations").asLong()).as(status.toString()).isEqualTo(recs.size());
        assertThat(status.get("lastRunTrigger").asText()).isEqualTo("manual");
        assertThat(java.time.Instant.parse(status.get("lastRunAt").asText())).isBeforeOrEqualTo(clock.instant());
        assertThat(java.time.Instant.parse(status.get("nextRunAt").asText())).as("scheduled 960 min after the last scheduled run")
                .isAfter(clock.instant().plus(java.time.Duration.ofMinutes(900)));
        // the list says which have an explanation, so the plugin asks only for those
        for (JsonNode listed : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if (recs.contains(listed.get("id").asLong())) {
                assertThat(listed.get("explained").asBoolean()).as(listed.toString()).isTrue();
            }
        }
        for (long id : recs) {
            JsonNode r = call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200);
            assertThat(r.toString()).contains("PENDING");
            JsonNode e = call(HttpMethod.GET, "/api/v1/recommendations/" + id + "/explanation", null, 200);
            assertThat(e.get("reasonCode").asText()).isIn("balanceDatastoreSpaceUsage", "datastoreSpaceOutage");
            assertThat(e.get("sourceDatastoreId").asText()).isEqualTo("datastore-11");
            assertThat(e.get("autoApplicable").asBoolean()).isFalse();
            assertThat(e.get("datastores")).isNotEmpty();
            for (JsonNode f : e.get("datastores")) {
                assertThat(f.get("model").asText()).isNotBlank();
                // no statistics in this world, so no outstanding IOs anywhere: every side is idle, and no latency is
                // given for it (a model's answer for no load is no latency an IO sees)
                assertThat(f.get("idleBefore").asBoolean()).as(f.toString()).isTrue();
                assertThat(f.get("idleAfter").asBoolean()).as(f.toString()).isTrue();
                assertThat(f.get("latencyBeforeMs").isNull()).as(f.toString()).isTrue();
                assertThat(f.get("latencyAfterMs").isNull()).as(f.toString()).isTrue();
                assertThat(f.get("p90BeforeMs").isNull()).as(f.toString()).isTrue();
                assertThat(f.get("p90AfterMs").isNull()).as(f.toString()).isTrue();
            }
            assertThat(e.get("summary").asText()).contains("idle → idle").doesNotContain("0.00 ms");
        }
        // the applier loop polls every 0.5 s: give it time to (wrongly) issue something
        Thread.sleep(2000);
        assertThat(vcenter.relocations).isEmpty();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM migration_action WHERE task_moid IS NOT NULL OR state <> 'QUEUED'", Long.class)).isZero();
        JsonNode history = call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200);
        assertThat(history.toString()).contains("recommended", "manual: awaiting approval");

        // a second run replaces the still-pending recommendations instead of piling them up
        JsonNode again = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + recs.get(0), null, 200).toString()).contains("DISMISSED");
        assertThat(ids(again.get("recommendationIds"))).isNotEmpty();
        assertThat(vcenter.relocations).isEmpty();
    }

    @Test
    @Order(2)
    void automatedModeAppliesAtOnce() throws Exception {
        syncCrowded("a1");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("automated"), 200);
        JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        List<Long> recs = ids(run.get("recommendationIds"));
        assertThat(recs).isNotEmpty();
        assertThat(ids(run.get("appliedRecommendationIds"))).containsExactlyElementsOf(recs);
        for (long id : recs) {
            assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).toString()).doesNotContain("\"PENDING\"");
            assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + id + "/explanation", null, 200).get("autoApplicable").asBoolean()).isTrue();
        }
        long deadline = System.currentTimeMillis() + 15_000;
        while (vcenter.relocations.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(vcenter.relocations).as("RelocateVM issued by the applier").isNotEmpty();

        // a per-subsystem level: space balancing manual while the cluster is automated → nothing applied
        Map<String, Object> s = settings("automated");
        s.put("spaceAutomationLevel", "manual");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("spaceAutomationLevel").asText()).isEqualTo("manual");
        JsonNode manualSpace = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        assertThat(manualSpace.get("appliedRecommendationIds")).isEmpty();
        // VM evacuation's own level: manual while the cluster is automated → the evacuation is recommended, not applied
        s = settings("automated");
        s.put("evacuationAutomationLevel", "manual");
        assertThat(call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200).get("evacuationAutomationLevel").asText())
                .isEqualTo("manual");
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("ruleAutomationLevel").asText())
                .isEqualTo("inherit");
        JsonNode evacuation = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 200);
        assertThat(evacuation.get("recommendationIds")).isNotEmpty();
        assertThat(evacuation.get("appliedRecommendationIds")).isEmpty();
        s.put("evacuationAutomationLevel", "inherit");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
    }

    // ------------------------------------------------------------------ scheduler

    long runs(String trigger) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM balancing_run WHERE cluster_moid = 'group-p1' AND run_trigger = ?", Long.class, trigger);
    }

    @Test
    @Order(3)
    void scheduledRunFiresAtTheConfiguredIntervalAndNotBefore() throws Exception {
        clock.set(Instant.parse("2031-06-01T00:00:00Z"));
        syncCrowded("s1");
        Map<String, Object> s = settings("manual");
        s.put("loadBalanceIntervalMinutes", 120);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        long spaceRuns = runs("space-threshold");
        scheduler.tick();
        // ds-a is above 80 %: the first look is a crossing → an immediate run; no scheduled one yet
        assertThat(runs("space-threshold")).isEqualTo(spaceRuns + 1);
        assertThat(runs("scheduled")).isZero();
        clock.advance(Duration.ofMinutes(119));
        scheduler.tick();
        assertThat(runs("scheduled")).isZero();
        assertThat(runs("space-threshold")).as("still above: not a new crossing").isEqualTo(spaceRuns + 1);
        clock.advance(Duration.ofMinutes(1));
        scheduler.tick();
        assertThat(runs("scheduled")).isEqualTo(1);
        clock.advance(Duration.ofMinutes(119));
        scheduler.tick();
        assertThat(runs("scheduled")).isEqualTo(1);
        clock.advance(Duration.ofMinutes(1));
        scheduler.tick();
        assertThat(runs("scheduled")).isEqualTo(2);

        // Storage DRS turned off (vCenter's podConfig.enabled): nothing runs, scheduled, on space or asked for
        s.put("storageDrsEnabled", false);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        clock.advance(Duration.ofMinutes(240));
        scheduler.tick();
        assertThat(runs("scheduled")).isEqualTo(2);
        assertThat(runs("space-threshold")).isEqualTo(spaceRuns + 1);
        assertThat(call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 409).path("detail").asText())
                .contains("Storage DRS is turned off");
        // on again: the overdue scheduled run, and ds-a, still above 80 %, counts as crossing
        s.put("storageDrsEnabled", true);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        scheduler.tick();
        assertThat(runs("scheduled")).isEqualTo(3);
        assertThat(runs("space-threshold")).isEqualTo(spaceRuns + 2);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
    }

    // ------------------------------------------------------------------ maintenance mode

    @Test
    @Order(4)
    void maintenanceModeEvacuatesReportsUnmovableDisksAndStaysEnteringUntilEmpty() throws Exception {
        syncCrowded("mm1");
        Map<String, Object> s = settings("manual");
        s.put("vmOverrides", List.of(Map.of("vmId", "vm-32", "behavior", "excluded")));
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        vcenter.maintenanceCalls.clear();
        JsonNode m = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true, "ignoreAffinity", false), 200);
        assertThat(m.get("state").asText()).isEqualTo("ENTERING");
        assertThat(vcenter.maintenanceCalls).as("vCenter's DatastoreEnterMaintenanceMode first").containsExactly("enter datastore-11");
        List<Long> recs = ids(m.get("recommendationIds"));
        assertThat(recs).hasSize(1);
        JsonNode e = call(HttpMethod.GET, "/api/v1/recommendations/" + recs.get(0) + "/explanation", null, 200);
        assertThat(e.get("reasonCode").asText()).isEqualTo("datastoreMaint");
        assertThat(e.get("vmId").asText()).isEqualTo("vm-31");
        assertThat(e.get("destinationDatastoreId").asText()).isEqualTo("datastore-12");
        assertThat(m.get("faults").toString()).contains("vm-32", "datastoreMaint");
        // the faults page and the history name what the vSphere Client shows: VM db, ds-a, not vm-32, datastore-11
        JsonNode fault = call(HttpMethod.GET, "/api/v1/clusters/group-p1/faults", null, 200).get(0);
        assertThat(fault.get("subject").asText()).isEqualTo("VM db on ds-a");
        assertThat(fault.get("reason").asText()).isEqualTo("Datastore is entering maintenance mode: VM db is excluded from Storage DRS; move its disks off ds-a by hand");
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("Datastore is entering maintenance mode: VM web from ds-a to ds-b (manual: awaiting approval)");
        JsonNode status = call(HttpMethod.GET, "/api/v1/datastores/ds-a/maintenance", null, 200);
        assertThat(status.get("state").asText()).isEqualTo("ENTERING");
        for (JsonNode l : status.get("left")) {
            assertThat(l.get("status").asText()).as(l.toString()).isEqualTo(l.get("vmId").asText().equals("vm-32") ? "fault" : "recommended");
            assertThat(l.get("detail").asText()).contains(l.get("vmId").asText().equals("vm-32") ? "excluded" : "to ds-b, awaiting approval");
        }
        assertThat(status.get("left")).hasSize(5);
        // while entering, a balancing run never chooses ds-a as a destination, nor moves a disk off it: its evacuation does
        JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        for (long id : ids(run.get("recommendationIds"))) {
            JsonNode x = call(HttpMethod.GET, "/api/v1/recommendations/" + id + "/explanation", null, 200);
            assertThat(x.get("destinationDatastoreId").asText()).isNotEqualTo("datastore-11");
            assertThat(x.get("sourceDatastoreId").asText()).as(x.get("summary").asText()).isNotEqualTo("datastore-11");
        }

        // the disks leave ds-a (web moved, db deleted), and vCenter, its enter task done, holds it in maintenance: so
        // does this server
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("ENTERING");
        inventory.queue(new InventoryChanges("mm2", false, List.of(), List.of(), List.of(), List.of(),
                List.of(new InventorySnapshot.VmInfo("vm-31", "web", "host-21", List.of(
                        new InventorySnapshot.VirtualDiskInfo(2000, "[ds-b] web/web.vmdk", 150 * GB, "datastore-12"),
                        new InventorySnapshot.VirtualDiskInfo(2001, "[ds-b] web/web_1.vmdk", 100 * GB, "datastore-12")), "datastore-12", 0)),
                List.of(new InventoryChanges.Removed(InventoryChanges.Kind.VM, "vm-32"))));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=incremental", null, 200);
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).as("no disk left, but vCenter still entering (a VM's home?)")
                .isEqualTo("ENTERING");
        inventory.queue(new InventoryChanges("mm2b", false, List.of(), List.of(),
                List.of(new InventorySnapshot.DatastoreInfo("datastore-11", "ds-a", "ds:///vmfs/volumes/datastore-11/", "datacenter-1",
                        "group-p1", 1000 * GB, 1000 * GB, true, "inMaintenance")), List.of(), List.of(), List.of()));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=incremental", null, 200);
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("IN_MAINTENANCE");
        JsonNode exit = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        assertThat(exit.get("state").asText()).isEqualTo("NORMAL");
        assertThat(vcenter.maintenanceCalls).containsExactly("enter datastore-11", "exit datastore-11");

        // vm-32 has left the inventory, and its override with it; the settings as read go back unchanged, and an entry
        // for it is refused
        Map<String, Object> asRead = json.convertValue(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200), Map.class);
        assertThat(asRead.get("vmOverrides").toString()).doesNotContain("vm-32");
        assertThat(call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", asRead, 200).get("vmOverrides")).isEqualTo(
                json.valueToTree(asRead.get("vmOverrides")));
        asRead.put("vmOverrides", List.of(Map.of("vmId", "vm-32", "behavior", "manual")));
        assertThat(call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", asRead, 400).path("field").asText())
                .isEqualTo("vmOverrides[0].vmId");
        // entered in the vSphere Client: vCenter holds ds-a entering maintenance mode, this server nothing — it follows and
        // plans the evacuation, without asking vCenter anything; taken out there, it is taken out here
        inventory.setSnapshot(crowded("mm3", "enteringMaintenance"));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("ENTERING");
        List<Long> adopted = jdbc.queryForList("SELECT r.id FROM recommendation r JOIN recommendation_explanation e ON e.recommendation_id = r.id"
                + " WHERE r.state = 'PENDING' AND e.reason_code = 'datastoreMaint' AND e.source_datastore = 'datastore-11'", Long.class);
        assertThat(adopted).isNotEmpty();
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("entering maintenance mode in vCenter");
        inventory.setSnapshot(crowded("mm4"));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("NORMAL");
        for (long id : adopted) {
            assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).get("state").asText()).isEqualTo("DISMISSED");
        }
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("left maintenance mode in vCenter");
        assertThat(vcenter.maintenanceCalls).containsExactly("enter datastore-11", "exit datastore-11");
        Map<String, Object> reset = settings("manual");
        reset.put("vmOverrides", List.of());
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", reset, 200);
    }

    /** The crowded pod plus app (vm-33): its disk on ds-b, its home — its .vmx — on {@code appHome}, of {@code homeBytes}. */
    static InventorySnapshot withApp(String version, String appHome, long homeBytes) {
        InventorySnapshot c = crowded(version);
        List<InventorySnapshot.VmInfo> vms = new ArrayList<>(c.vms());
        vms.add(new InventorySnapshot.VmInfo("vm-33", "app", "host-21", List.of(
                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-b] app/app.vmdk", 10 * GB, "datastore-12")), appHome, homeBytes));
        return new InventorySnapshot(version, c.datacenters(), c.clusters(), c.datastores(), c.hosts(), vms);
    }

    /** vCenter and its inventory source hold {@link #withApp}, read by a full sync. */
    void syncWithApp(String version, String appHome, long homeBytes) throws Exception {
        inventory.setSnapshot(withApp(version, appHome, homeBytes));
        vcenter.setInventory(withAppInVCenter(appHome, homeBytes));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
    }

    static io.opensdrs.server.vsphere.InventorySnapshot withAppInVCenter(String appHome, long homeBytes) {
        io.opensdrs.server.vsphere.InventorySnapshot c = crowdedInVCenter();
        List<io.opensdrs.server.vsphere.InventorySnapshot.Vm> vms = new ArrayList<>(c.vms());
        vms.add(new io.opensdrs.server.vsphere.InventorySnapshot.Vm("vm-33", "app", "host-21",
                appHome.equals("datastore-12") ? List.of("datastore-12") : List.of(appHome, "datastore-12"), List.of(
                        new io.opensdrs.server.vsphere.InventorySnapshot.VirtualDisk(2000, "Hard disk 1", "[ds-b] app/app.vmdk", "datastore-12",
                                10 * GB, false)), appHome, homeBytes));
        return new io.opensdrs.server.vsphere.InventorySnapshot("1", c.datacenters(), c.storagePods(), c.datastores(), c.hosts(), vms);
    }

    /**
     * vCenter keeps a datastore entering maintenance mode until no VM has a file on it: a VM's home
     * that its disks do not take along (they are elsewhere) gets a move of its own — its disks stay —
     * and the datastore is in maintenance only once it has gone. One relocation per VM at a time:
     * a second move of the VM waits for the first's task.
     */
    @Test
    @Order(8)
    void aVmHomeLeftBehindMovesAloneAndTheDatastoreIsInMaintenanceOnlyOnceItHasGone() throws Exception {
        syncWithApp("h1", "datastore-11", 0);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        JsonNode m = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 200);
        assertThat(m.get("disksRemaining").asInt()).isEqualTo(3);
        assertThat(m.get("vmHomesRemaining").asInt()).as("web, db and app have their home on ds-a").isEqualTo(3);
        List<Long> recs = ids(m.get("recommendationIds"));
        assertThat(recs).as("web and db whole, app's home alone").hasSize(3);
        JsonNode listed = call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200);
        long home = -1;
        for (JsonNode r : listed) {
            if (recs.contains(r.get("id").asLong())) {
                assertThat(r.get("homeOnly").asBoolean()).isEqualTo("vm-33".equals(r.get("vm").asText()));
                if (r.get("homeOnly").asBoolean()) {
                    home = r.get("id").asLong();
                    assertThat(r.get("source").asText()).isEqualTo("datastore-11");
                    assertThat(r.get("destination").asText()).as("where app's disk is").isEqualTo("datastore-12");
                }
            }
        }
        assertThat(home).isPositive();
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + home + "/explanation", null, 200).get("summary").asText())
                .contains("the home of VM app", "its disks stay where they are");

        // applied: RelocateVM with spec.datastore ds-b and app's disk kept on ds-b by its locator
        call(HttpMethod.POST, "/api/v1/recommendations/" + home + "/apply", null, 200);
        String expected = "vm-33 home -> datastore-12 disks stay {2000=datastore-12}";
        long deadline = System.currentTimeMillis() + 15_000;
        while (!vcenter.relocations.contains(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(vcenter.relocations).contains(expected);
        // another move of app while its home's task runs waits: vCenter would answer TaskInProgress
        JsonNode disk = call(HttpMethod.POST, "/api/v1/clusters/group-p1/recommendations", Map.of("reasonCode", "balanceDatastoreIOLoad",
                "moves", List.of(Map.of("vmId", "vm-33", "diskKeys", List.of(2000), "destinationDatastoreId", "datastore-11"))), 201);
        for (JsonNode row : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if (row.get("id").asLong() == disk.get("id").asLong()) {
                assertThat(row.get("explained").asBoolean()).as("an administrator's move has no explanation").isFalse();
            }
        }
        call(HttpMethod.POST, "/api/v1/recommendations/" + disk.get("id").asLong() + "/apply", null, 200);
        Thread.sleep(1500);
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + disk.get("id").asLong(), null, 200).at("/actions/0/state").asText())
                .as("queued behind the home's relocation").isEqualTo("QUEUED");
        call(HttpMethod.POST, "/api/v1/recommendations/" + disk.get("id").asLong() + "/cancel", null, 200);
        vcenter.setInventory(withAppInVCenter("datastore-12", 0));
        vcenter.complete(call(HttpMethod.GET, "/api/v1/recommendations/" + home, null, 200).at("/actions/0/taskId").asText());
        deadline = System.currentTimeMillis() + 15_000;
        while (!call(HttpMethod.GET, "/api/v1/recommendations/" + home, null, 200).get("state").asText().equals("APPLIED")
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + home, null, 200).get("state").asText())
                .as("verified: app's home on ds-b in vCenter").isEqualTo("APPLIED");

        // web and db gone from ds-a and vCenter holding it in maintenance, but app's home on it in an inventory read after
        // its move was verified: put back (by hand), so entering and its move planned again; once the inventory shows the
        // home gone, in maintenance
        InventorySnapshot gone = withApp("h2", "datastore-11", 0);
        List<InventorySnapshot.VmInfo> onlyApp = gone.vms().stream().filter(v -> v.moid().equals("vm-33")).toList();
        List<InventorySnapshot.DatastoreInfo> dss = new ArrayList<>(gone.datastores());
        dss.set(0, new InventorySnapshot.DatastoreInfo("datastore-11", "ds-a", "ds:///vmfs/volumes/datastore-11/", "datacenter-1",
                "group-p1", 1000 * GB, 1000 * GB, true, "inMaintenance"));
        inventory.setSnapshot(new InventorySnapshot("h2", gone.datacenters(), gone.clusters(), dss, gone.hosts(), onlyApp));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        assertThat(leftOn("ds-a")).containsExactlyEntriesOf(Map.of("vm-33 home", "back"));
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).as("app's home is still on ds-a").isEqualTo("ENTERING");
        assertThat(leftOn("ds-a")).containsExactlyEntriesOf(Map.of("vm-33 home", "recommended"));
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("holds what its evacuation does not account for (the home of VM app)");
        List<Long> again = jdbc.queryForList("SELECT r.id FROM recommendation r JOIN migration_action a ON a.recommendation_id = r.id"
                + " WHERE r.state = 'PENDING' AND a.vm_moid = 'vm-33' AND a.home_only = TRUE AND a.destination_datastore = 'datastore-12'",
                Long.class);
        assertThat(again).as("app's home planned to move again").hasSize(1);
        maintenance.progress();
        assertThat(jdbc.queryForList("SELECT r.id FROM recommendation r JOIN migration_action a ON a.recommendation_id = r.id"
                + " WHERE r.state = 'PENDING' AND a.vm_moid = 'vm-33'", Long.class)).as("its new move accounts for it").isEqualTo(again);
        inventory.setSnapshot(new InventorySnapshot("h3", gone.datacenters(), gone.clusters(), dss, gone.hosts(),
                withApp("h3", "datastore-12", 0).vms().stream().filter(v -> v.moid().equals("vm-33")).toList()));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        maintenance.progress();
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("IN_MAINTENANCE");

        // a home move is checked like any other: no disks with it, not onto where the home is
        assertThat(call(HttpMethod.POST, "/api/v1/clusters/group-p1/recommendations", Map.of("reasonCode", "datastoreMaint",
                "moves", List.of(Map.of("vmId", "vm-33", "diskKeys", List.of(2000), "destinationDatastoreId", "datastore-11",
                        "homeOnly", true))), 400).path("field").asText()).isEqualTo("moves[0].diskKeys");
        assertThat(call(HttpMethod.POST, "/api/v1/clusters/group-p1/recommendations", Map.of("reasonCode", "datastoreMaint",
                "moves", List.of(Map.of("vmId", "vm-33", "destinationDatastoreId", "datastore-12", "homeOnly", true))), 400)
                .path("field").asText()).isEqualTo("moves[0].destinationDatastoreId");
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        syncCrowded("h4");
    }

    /**
     * A sync whose read of vCenter began before a settings {@code PUT} changed the pod there holds
     * the old values; storing them would undo the change (Storage DRS turned on, shown off again
     * until the next sync). The sync reads the pod again instead.
     */
    @Test
    @Order(9)
    void aSyncThatReadVCenterBeforeASettingsChangeDoesNotUndoIt() throws Exception {
        InventorySnapshot c = crowded("race1");
        InventorySnapshot off = new InventorySnapshot("race1", c.datacenters(),
                List.of(new InventorySnapshot.StoragePodInfo("group-p1", "pod1", "datacenter-1", new StorageDrsRules(
                        new StorageDrsRules.PodSettings(false, null, null, null, null, null, null, null, null, null, null, null, null, null,
                                null), List.of(), List.of()))), c.datastores(), c.hosts(), c.vms());
        Map<String, Object> s = settings("manual");
        s.put("storageDrsEnabled", false);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        inventory.setSnapshot(off);
        vcenter.setInventory(crowdedInVCenter());
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("storageDrsEnabled").asBoolean()).isFalse();

        // the sync reads vCenter (off), the PUT turns Storage DRS on in vCenter and here, then the sync stores what it read
        InMemoryInventorySource.SlowRead slow = new InMemoryInventorySource.SlowRead(new java.util.concurrent.CountDownLatch(1),
                new java.util.concurrent.CountDownLatch(1));
        inventory.slowNextRead(slow);
        java.util.concurrent.CompletableFuture<JsonNode> sync = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(slow.reading().await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        s.put("storageDrsEnabled", true);
        assertThat(call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200).get("storageDrsEnabled").asBoolean()).isTrue();
        slow.answer().countDown();
        sync.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("storageDrsEnabled").asBoolean())
                .as("the sync read the pod again: vCenter holds it on").isTrue();
        assertThat(vcenter.storageDrsRules("group-p1").pod().storageDrsEnabled()).isTrue();
        syncCrowded("race2");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
    }

    // ------------------------------------------------------------------ datastore addition

    static InjectorResult injectorRun(String ds, double slope, double intercept) {
        InjectorResult.Builder r = InjectorResult.newBuilder().setDatastore(ds).setRunId("run-" + UUID.randomUUID())
                .setStartedMs(1_700_000_000_000L).setFinishedMs(1_700_000_060_000L).setIoSizeKb(4).setReadShare(1).setRandomness(1)
                .setMode(InjectorMode.EMULATED).setValid(true).setAttempt(1);
        for (int q = 2; q <= 32; q *= 2) {
            double l = slope * q + intercept;
            r.addPoints(InjectorPoint.newBuilder().setTargetOio(q).setMeasuredOio(q).setIoCount(1000).setDurationS(5)
                    .setIops(q / l * 1000).setMeanLatencyMs(l));
        }
        return r.setFit(LqFit.newBuilder().setSlopeMsPerIo(slope).setInterceptMs(intercept).setRSquared(1).setPoints(5)).build();
    }

    static ServerMessage next(SimulatedAgent.Session s, java.util.function.Predicate<ServerMessage> what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            ServerMessage m = s.take(1000);
            if (m != null && what.test(m)) {
                return m;
            }
        }
        return null;
    }

    @Test
    @Order(5)
    void anAddedDatastoreGetsTheDefaultModelAnInjectorRequestThenItsModelAndReceivesDisks() throws Exception {
        syncCrowded("add1");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        addition.check();
        String agentId = "agent-" + UUID.randomUUID();
        String token = call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", agentId), 201).get("token").asText();
        try (SimulatedAgent a = new SimulatedAgent("localhost", grpc.port(), token)) {
            assertThat(a.register(agentId, "esx1", List.of("ds-new")).getAccepted()).isTrue();
            SimulatedAgent.Session session = a.openSession();
            // a first message makes sure the server holds the session before anything is sent on it
            session.send(AgentMessage.newBuilder().setSeq(1).setDatastoreState(io.opensdrs.shared.agent.v1.DatastoreState.newBuilder()
                    .setDatastore("ds-new").setHost("esx1").setPeriodEndMs(1_700_000_000_000L).setIoCount(0).setOutstandingIos(0)
                    .setMeanLatencyMs(0).setIdle(true).build()).build());
            assertThat(next(session, ServerMessage::hasAck).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);

            inventory.queue(new InventoryChanges("add2", false, List.of(), List.of(),
                    // ds-b meanwhile filled to 79 %: only the new datastore can take ds-a's overflow
                    List.of(InMemoryInventorySource.ds("datastore-15", "ds-new", "group-p1", 4000 * GB, 4000 * GB),
                            InMemoryInventorySource.ds("datastore-12", "ds-b", "group-p1", 2000 * GB, 420 * GB)),
                    List.of(new InventorySnapshot.HostInfo("host-21", "esx1", "datacenter-1", List.of("datastore-11", "datastore-12", "datastore-15")),
                            new InventorySnapshot.HostInfo("host-22", "esx2", "datacenter-1", List.of("datastore-11", "datastore-12", "datastore-15"))),
                    List.of(), List.of()));
            call(HttpMethod.POST, "/api/v1/inventory/sync?kind=incremental", null, 200);
            List<DatastoreAddition.Requested> requested = addition.check();
            assertThat(requested).extracting(DatastoreAddition.Requested::datastore).contains("ds-new");
            ServerMessage req = next(session, ServerMessage::hasInjectorRequest);
            assertThat(req).as("InjectorRequest on the agent's session").isNotNull();
            assertThat(req.getInjectorRequest().getDatastore()).isEqualTo("ds-new");
            assertThat(req.getInjectorRequest().getReason()).isEqualTo("datastore added");
            // asked once, not at every look
            assertThat(addition.check()).extracting(DatastoreAddition.Requested::datastore).doesNotContain("ds-new");

            // until the injector model arrives: the default model; the new datastore receives disks
            assertThat(call(HttpMethod.GET, "/api/v1/datastores/ds-new/model?kind=pesto", null, 200).get("model").get("source").asText())
                    .isEqualTo("default");
            JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
            Set<String> destinations = new HashSet<>();
            for (long id : ids(run.get("recommendationIds"))) {
                JsonNode e = call(HttpMethod.GET, "/api/v1/recommendations/" + id + "/explanation", null, 200);
                destinations.add(e.get("destinationDatastoreId").asText());
                e.get("datastores").forEach(f -> {
                    if (f.get("datastoreId").asText().equals("datastore-15")) {
                        assertThat(f.get("model").asText()).contains("default");
                    }
                });
            }
            assertThat(destinations).contains("datastore-15");
            JsonNode placement = call(HttpMethod.POST, "/api/v1/clusters/group-p1/placement", Map.of("sizeGB", 50), 200);
            assertThat(placement.get("placements").get(0).get("ranked").toString()).contains("datastore-15");

            // the injector's result arrives: the datastore now has its own model
            session.send(AgentMessage.newBuilder().setSeq(2).setInjectorResult(injectorRun("ds-new", 0.2, 0.5)).build());
            assertThat(next(session, ServerMessage::hasAck).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
            assertThat(call(HttpMethod.GET, "/api/v1/datastores/ds-new/model?kind=pesto", null, 200).get("model").get("source").asText())
                    .isEqualTo("injector");
            JsonNode capacity = call(HttpMethod.GET, "/api/v1/datastores/ds-new/capacity?oio=2&ioSizeKB=4&readPct=100&randomPct=100&latencyMs=5&alpha=0.8",
                    null, 200);
            // Pesto Eqs. 12, 13, 9 on m = 0.2, C = 0.5
            assertThat(capacity.get("qMax").asDouble()).isCloseTo((5 - 0.5) / 0.2, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(capacity.get("qAlpha").asDouble()).isCloseTo(0.8 * 0.5 / (0.2 * 0.2), org.assertj.core.data.Offset.offset(1e-6));
            assertThat(capacity.get("lAlpha").asDouble()).isCloseTo(0.5 / 0.2, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(capacity.get("disksThatFit").asLong()).isEqualTo(5);
            session.complete();
        }
    }

    // ------------------------------------------------------------------ validation

    Map<String, Object> fingerprint() {
        Map<String, Object> f = new TreeMap<>();
        for (String t : List.of("recommendation", "migration_action", "recommendation_explanation", "fault", "action_history",
                "balancing_run", "datastore_maintenance", "vm_override", "service_class", "vm_service_class")) {
            f.put(t, jdbc.queryForObject("SELECT COUNT(*) FROM " + t, Long.class));
        }
        f.put("settings", jdbc.queryForList("SELECT * FROM cluster_settings ORDER BY cluster_moid").toString());
        return f;
    }

    @Test
    @Order(6)
    void everyBalancingEndpointAnswersBadInputWith400NamingTheFieldAndChangesNothing() throws Exception {
        syncCrowded("v1");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        List<Object[]> cases = new ArrayList<>();
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/clusters/bad!id/run", null, "clusterId"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/recommendations/0/explanation", null, "id"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/recommendations/abc/explanation", null, "id"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{}", "enter"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{\"enter\": \"maybe\"}", "enter"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{\"enter\": true, \"extra\": 1}", "extra"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/datastores/" + "x".repeat(300) + "/maintenance", "{\"enter\": true}", "name"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/" + "x".repeat(300) + "/maintenance", null, "name"});
        String placement = "/api/v1/clusters/group-p1/placement";
        cases.add(new Object[]{HttpMethod.POST, placement, "{\"sizeGB\": 0}", "sizeGB"});
        cases.add(new Object[]{HttpMethod.POST, placement, "{}", "sizeGB"});
        cases.add(new Object[]{HttpMethod.POST, placement, "{\"sizeGB\": 10, \"workload\": {\"oio\": 1, \"ioSizeKB\": 4, \"readPct\": 101, \"randomPct\": 0}}",
                "workload.readPct"});
        cases.add(new Object[]{HttpMethod.POST, placement, "{\"sizeGB\": 10, \"workload\": {\"oio\": 1, \"ioSizeKB\": 0, \"readPct\": 50, \"randomPct\": 0}}",
                "workload.ioSizeKB"});
        cases.add(new Object[]{HttpMethod.POST, placement, "{\"sizeGB\": 10, \"hostId\": \"host-99\"}", "hostId"});
        cases.add(new Object[]{HttpMethod.POST, placement, "{\"sizeGB\": 10, \"objective\": \"magic\"}", "objective"});
        cases.add(new Object[]{HttpMethod.POST, placement, "{\"sizeGB\": 10, \"homeGB\": -1}", "homeGB"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/clusters/bad!id/placement", "{\"sizeGB\": 10}", "clusterId"});
        String capacity = "/api/v1/datastores/ds-a/capacity";
        cases.add(new Object[]{HttpMethod.GET, capacity + "?alpha=1.5", null, "alpha"});
        cases.add(new Object[]{HttpMethod.GET, capacity + "?oio=-1", null, "oio"});
        cases.add(new Object[]{HttpMethod.GET, capacity + "?readPct=abc", null, "readPct"});
        cases.add(new Object[]{HttpMethod.GET, capacity + "?latencyMs=0", null, "latencyMs"});
        String settings = "/api/v1/clusters/group-p1/settings";
        String[][] fields = {{"spaceAutomationLevel", "\"sometimes\""}, {"ioAutomationLevel", "\"often\""}, {"strategy", "\"astrology\""},
                {"ruleAutomationLevel", "\"eventually\""}, {"evacuationAutomationLevel", "\"never\""},
                {"spaceThresholdMode", "\"vibes\""}, {"freeSpaceThresholdGb", "0"},
                {"vmOverrides", "[{\"vmId\": \"vm-31\", \"behavior\": \"sometimes\"}]", "vmOverrides[0].behavior"},
                {"vmOverrides", "[{\"vmId\": \"vm-999\", \"behavior\": \"manual\"}]", "vmOverrides[0].vmId"},
                {"vmOverrides", "[{\"vmId\": \"vm-31\", \"behavior\": \"manual\", \"serviceClass\": \"gold\"}]", "vmOverrides[0].serviceClass"},
                {"serviceClasses", "[{\"id\": \"gold\", \"deliveryBoundMs\": 0, \"demandBoundIops\": 100, \"demandBoundBytesPerSecond\": 1000}]",
                        "serviceClasses[0].deliveryBoundMs"}};
        for (String[] f : fields) {
            String body = json.writeValueAsString(settings("manual"));
            body = body.substring(0, body.length() - 1) + ", \"" + f[0] + "\": " + f[1] + "}";
            cases.add(new Object[]{HttpMethod.PUT, settings, body, f.length > 2 ? f[2] : f[0]});
        }
        Map<String, Object> before = fingerprint();
        for (Object[] c : cases) {
            JsonNode problem = call((HttpMethod) c[0], (String) c[1], c[2], 400);
            assertThat(problem.path("field").asText()).as(c[0] + " " + c[1] + " " + c[2] + " -> " + problem).isEqualTo(c[3]);
            assertThat(problem.get("errors")).isNotEmpty();
        }
        assertThat(fingerprint()).isEqualTo(before);
        assertThat(call(HttpMethod.GET, "/api/v1/datastores/no-such-ds/maintenance", null, 404).path("detail").asText())
                .contains("no datastore no-such-ds");
        assertThat(call(HttpMethod.GET, "/api/v1/datastores/ds-a/maintenance", null, 200).get("left")).as("normal: nothing listed").isEmpty();
        // settings vCenter's pod holds as well: while the fixture's vCenter refuses ConfigureStorageDrsForPod_Task,
        // a change is answered 502 naming the (first) field and nothing is stored
        vcenter.refusesPodConfiguration = true;
        try {
            Map<String, Object> apart = settings("manual");
            apart.put("keepVmdksTogether", false);
            JsonNode refused = call(HttpMethod.PUT, settings, apart, 502);
            assertThat(refused.path("field").asText()).isEqualTo("keepVmdksTogether");
            assertThat(refused.path("detail").asText()).contains("NotSupported");
            Map<String, Object> tighter = settings("automated");
            tighter.put("latencyThresholdMs", 30);
            refused = call(HttpMethod.PUT, settings, tighter, 502);
            assertThat(refused.path("field").asText()).isEqualTo("automationLevel");
            assertThat(refused.path("detail").asText()).contains("ioLoadBalanceConfig.ioLatencyThreshold = 30");
            // a VM's automation is held in the VM's Storage DRS settings in vCenter: the same
            Map<String, Object> careful = settings("manual");
            careful.put("vmOverrides", List.of(Map.of("vmId", "vm-31", "behavior", "excluded")));
            refused = call(HttpMethod.PUT, settings, careful, 502);
            assertThat(refused.path("field").asText()).isEqualTo("vmOverrides[0].behavior");
            assertThat(refused.path("detail").asText()).contains("automation of VM web (vm-31) = excluded");
            assertThat(fingerprint()).isEqualTo(before);
        } finally {
            vcenter.refusesPodConfiguration = false;
        }
        // maintenance mode is vCenter's: refused there, refused here, and nothing is stored
        vcenter.refusesMaintenance = true;
        try {
            JsonNode refused = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 502);
            assertThat(refused.path("field").asText()).isEqualTo("enter");
            assertThat(refused.path("detail").asText()).contains("DatastoreEnterMaintenanceMode", "InvalidState");
            assertThat(maintenance.state("datastore-11").name()).isEqualTo("NORMAL");
            assertThat(fingerprint()).isEqualTo(before);
        } finally {
            vcenter.refusesMaintenance = false;
        }
        // and nothing is reachable anonymously
        assertThat(rest.postForEntity("/api/v1/clusters/group-p1/run", null, String.class).getStatusCode().value()).isEqualTo(401);
        assertThat(fingerprint()).isEqualTo(before);
        // a server-only setting (the congestion α) asks nothing of vCenter
        Map<String, Object> alpha = settings("manual");
        alpha.put("congestionAlpha", 0.8);
        vcenter.refusesPodConfiguration = true;
        try {
            assertThat(call(HttpMethod.PUT, settings, alpha, 200).path("congestionAlpha").asDouble()).isEqualTo(0.8);
        } finally {
            vcenter.refusesPodConfiguration = false;
        }
    }

    // ------------------------------------------------------------------ capacity planner

    @Autowired io.opensdrs.server.models.DatastoreModels models;

    @Test
    @Order(18)
    void theCapacityPlanAnswersPerDatastoreFromTheClustersModelsAndRefusesBadInputNamingTheField() throws Exception {
        syncCrowded("cap1");
        Map<String, Object> s = settings("manual");
        s.put("modelKind", "pesto");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        // ds-b (2000 GB, 200 used, no disks) gets its own L-Q line m = 0.2, C = 0.5
        models.recordInjectorResult("agent-capacity", 1, injectorRun("ds-b", 0.2, 0.5));
        String path = "/api/v1/clusters/group-p1/capacity-plan";
        JsonNode plan = call(HttpMethod.POST, path,
                "{\"workload\": {\"oio\": 4, \"ioSizeKB\": 8, \"readPct\": 70, \"randomPct\": 80}, \"count\": 6, \"sizeGB\": 100}", 200);
        assertThat(plan.get("latencyThresholdMs").asDouble()).isEqualTo(15);
        assertThat(plan.get("alpha").asDouble()).isEqualTo(0.9);
        Map<String, JsonNode> byName = new TreeMap<>();
        plan.get("datastores").forEach(d -> byName.put(d.get("datastore").asText(), d));
        assertThat(byName).containsOnlyKeys("ds-a", "ds-b");
        JsonNode b = byName.get("ds-b");
        assertThat(b.get("model").asText()).isEqualTo("pesto");
        // Pesto Eq. 12: (15 − 0.5)/0.2; Eq. 13: 0.9·0.5/(0.2·0.1)
        assertThat(b.get("qMax").asDouble()).isCloseTo(72.5, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(b.get("qAlpha").asDouble()).isCloseTo(22.5, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(b.get("byLatency").asLong()).isEqualTo(18);
        assertThat(b.get("byThroughput").asLong()).isEqualTo(5);
        // 80 % of 2000 GB less the 200 GB used, in 100-GB workloads
        assertThat(b.get("bySpace").asLong()).isEqualTo(14);
        assertThat(b.get("fits").asLong()).isEqualTo(5);
        // ds-a is above its space threshold: nothing more fits there
        assertThat(byName.get("ds-a").get("bySpace").asLong()).isZero();
        assertThat(byName.get("ds-a").get("fits").asLong()).isZero();
        assertThat(plan.get("fits").asLong()).isEqualTo(5);
        assertThat(plan.get("count").asInt()).isEqualTo(6);
        assertThat(plan.get("allFit").asBoolean()).isFalse();
        // without a size: the cluster's average disk ((150 + 100 + 300)/3 GB)
        JsonNode average = call(HttpMethod.POST, path, "{\"workload\": {\"oio\": 4, \"ioSizeKB\": 8, \"readPct\": 70, \"randomPct\": 80}, \"count\": 5}", 200);
        assertThat(average.get("sizeGbEach").asDouble()).isCloseTo(550.0 / 3, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(average.get("allFit").asBoolean()).isTrue();

        Map<String, Object> before = fingerprint();
        String workload = "\"workload\": {\"oio\": 4, \"ioSizeKB\": 8, \"readPct\": 70, \"randomPct\": 80}";
        String[][] cases = {
                {path, "{" + workload + ", \"count\": 0}", "count"},
                {path, "{" + workload + "}", "count"},
                {path, "{\"count\": 3}", "workload"},
                {path, "{" + workload.replace("\"readPct\": 70", "\"readPct\": 101") + ", \"count\": 3}", "workload.readPct"},
                {path, "{" + workload.replace("\"oio\": 4", "\"oio\": 0") + ", \"count\": 3}", "workload.oio"},
                {path, "{" + workload + ", \"count\": 3, \"sizeGB\": -1}", "sizeGB"},
                {path, "{" + workload + ", \"count\": \"many\"}", "count"},
                {"/api/v1/clusters/bad!id/capacity-plan", "{" + workload + ", \"count\": 3}", "clusterId"},
        };
        for (String[] c : cases) {
            JsonNode problem = call(HttpMethod.POST, c[0], c[1], 400);
            assertThat(problem.path("field").asText()).as(c[1] + " -> " + problem).isEqualTo(c[2]);
        }
        assertThat(call(HttpMethod.POST, "/api/v1/clusters/group-p999/capacity-plan", "{" + workload + ", \"count\": 3}", 404)
                .path("detail").asText()).contains("no datastore cluster group-p999");
        assertThat(fingerprint()).isEqualTo(before);
    }

    // ------------------------------------------------------------------ Storage DRS turned off

    long pendingWithReason(String reasonCode) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM recommendation r JOIN recommendation_explanation e ON e.recommendation_id = r.id"
                + " WHERE r.cluster_moid = 'group-p1' AND r.state = 'PENDING' AND e.reason_code = ?", Long.class, reasonCode);
    }

    /** The crowded pod synced at {@code version}, manual: a run's recommendations, pending (at least one). */
    List<Long> manualRun(String version) throws Exception {
        syncCrowded(version);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        List<Long> recs = ids(call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200).get("recommendationIds"));
        assertThat(recs).isNotEmpty();
        return recs;
    }

    @Test
    @Order(7)
    void storageDrsTurnedOffWithdrawsWhatItProposedAndAnEvacuationWaitsUntilItIsOn() throws Exception {
        List<Long> proposed = manualRun("off1");
        // an administrator's own recommendation is not Storage DRS's: it stays
        long own = call(HttpMethod.POST, "/api/v1/clusters/group-p1/recommendations", Map.of("reasonCode", "balanceDatastoreSpaceUsage",
                "moves", List.of(Map.of("vmId", "vm-32", "destinationDatastoreId", "datastore-12"))), 201).get("id").asLong();

        Map<String, Object> off = settings("manual");
        off.put("storageDrsEnabled", false);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", off, 200);
        for (long id : proposed) {
            assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).get("state").asText()).isEqualTo("DISMISSED");
        }
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + own, null, 200).get("state").asText()).isEqualTo("PENDING");
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("withdrawn", "Storage DRS was turned off");

        // off: no initial placement (vCenter's RecommendDatastores refuses the pod), and maintenance mode plans nothing
        assertThat(call(HttpMethod.POST, "/api/v1/clusters/group-p1/placement", Map.of("sizeGB", 10), 409).path("detail").asText())
                .contains("Storage DRS is turned off", "RecommendDatastores");
        JsonNode m = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true, "ignoreAffinity", false), 200);
        assertThat(m.get("state").asText()).isEqualTo("ENTERING");
        assertThat(m.get("recommendationIds")).isEmpty();
        assertThat(m.get("faults")).isEmpty();
        assertThat(m.get("notes").toString()).contains("Storage DRS is turned off", "migrated by hand");
        maintenance.progress();
        assertThat(pendingWithReason("datastoreMaint")).isZero();
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("ENTERING");

        // on: the waiting evacuation is planned by the maintenance loop
        Map<String, Object> on = settings("manual");
        on.put("storageDrsEnabled", true);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", on, 200);
        maintenance.progress();
        long evacuation = pendingWithReason("datastoreMaint");
        assertThat(evacuation).isPositive();
        maintenance.progress();
        assertThat(pendingWithReason("datastoreMaint")).as("planned once, not at every look").isEqualTo(evacuation);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("planning the evacuation of datastore ds-a");

        // off again, this time in vCenter (the sync adopts podConfig.enabled = false): the scheduler's tick withdraws the
        // evacuation's recommendations, and it waits again
        InventorySnapshot disabled = crowded("off2", "enteringMaintenance");
        disabled = new InventorySnapshot(disabled.version(), disabled.datacenters(),
                List.of(new InventorySnapshot.StoragePodInfo("group-p1", "pod1", "datacenter-1", new StorageDrsRules(
                        new StorageDrsRules.PodSettings(false, null, null, null, null, null, null, null, null, null, null, null, null, null, null),
                        List.of(), List.of()))),
                disabled.datastores(), disabled.hosts(), disabled.vms());
        inventory.setSnapshot(disabled);
        // vCenter itself holds it off (the sync may read the pod there again: this server changed it a moment ago)
        vcenter.configureStorageDrsForPod("group-p1", disabled.clusters().get(0).rules().pod(), Map.of());
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("storageDrsEnabled").asBoolean()).isFalse();
        assertThat(pendingWithReason("datastoreMaint")).as("the sync itself withdraws nothing").isEqualTo(evacuation);
        scheduler.tick();
        assertThat(pendingWithReason("datastoreMaint")).isZero();
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + own, null, 200).get("state").asText()).isEqualTo("PENDING");
        maintenance.progress();
        assertThat(pendingWithReason("datastoreMaint")).isZero();

        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", on, 200);
        maintenance.progress();
        assertThat(pendingWithReason("datastoreMaint")).isEqualTo(evacuation);
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        call(HttpMethod.POST, "/api/v1/recommendations/" + own + "/dismiss", null, 200);
        syncCrowded("off3");
    }

    /** GET /datastores/{name}/maintenance: "vmId what" → status, for what is left on the datastore. */
    Map<String, String> leftOn(String datastore) throws Exception {
        Map<String, String> out = new TreeMap<>();
        call(HttpMethod.GET, "/api/v1/datastores/" + datastore + "/maintenance", null, 200).get("left")
                .forEach(l -> out.put(l.get("vmId").asText() + " " + l.get("what").asText(), l.get("status").asText()));
        return out;
    }

    long maintenanceRuns() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM balancing_run WHERE run_trigger = 'maintenance'", Long.class);
    }

    /** VM → PENDING datastoreMaint recommendations off ds-a. */
    Map<String, List<Long>> pendingEvacuation() {
        Map<String, List<Long>> out = new TreeMap<>();
        jdbc.query("SELECT e.vm_moid, r.id FROM recommendation r JOIN recommendation_explanation e ON e.recommendation_id = r.id"
                + " WHERE r.state = 'PENDING' AND e.reason_code = 'datastoreMaint' AND e.source_datastore = 'datastore-11' ORDER BY r.id",
                rs -> {
                    out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getLong(2));
                });
        return out;
    }

    /**
     * A datastore stays entering maintenance until nothing is left on it, so what its evacuation
     * does not account for — a VM created on it after the plan, a disk or home put back — gets the
     * evacuation planned again; a VM whose relocation off the datastore is running is left to it,
     * and nothing is planned again while the plan accounts for everything.
     */
    @Test
    @Order(10)
    void whatAnEvacuationDoesNotAccountForGetsItPlannedAgainAndARunningRelocationIsNotRepeated() throws Exception {
        syncCrowded("lb1");
        long actionsBefore = jdbc.queryForObject("SELECT COALESCE(MAX(id), 0) FROM migration_action", Long.class);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        JsonNode m = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 200);
        assertThat(m.get("state").asText()).isEqualTo("ENTERING");
        assertThat(pendingEvacuation().keySet()).containsExactly("vm-31", "vm-32");
        long runs = maintenanceRuns();
        maintenance.progress();
        assertThat(maintenanceRuns()).as("the plan accounts for everything on ds-a: not made again").isEqualTo(runs);

        // db's move applied: its relocation runs in vCenter
        long db = pendingEvacuation().get("vm-32").get(0);
        call(HttpMethod.POST, "/api/v1/recommendations/" + db + "/apply", null, 200);
        long deadline = System.currentTimeMillis() + 15_000;
        while (!call(HttpMethod.GET, "/api/v1/recommendations/" + db, null, 200).at("/actions/0/state").asText().equals("RUNNING")
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + db, null, 200).at("/actions/0/state").asText()).isEqualTo("RUNNING");

        // a VM created on ds-a after the plan: planned again, db left to its running relocation
        inventory.queue(new InventoryChanges("lb2", false, List.of(), List.of(), List.of(), List.of(),
                List.of(new InventorySnapshot.VmInfo("vm-34", "late", "host-21", List.of(
                        new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] late/late.vmdk", 20 * GB, "datastore-11")), "datastore-11", 0)),
                List.of()));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=incremental", null, 200);
        assertThat(leftOn("ds-a")).as("what keeps ds-a entering, and where each stands").containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "vm-31 disk 2000", "recommended", "vm-31 disk 2001", "recommended", "vm-31 home", "recommended",
                "vm-32 disk 2000", "moving", "vm-32 home", "moving", "vm-34 disk 2000", "unplanned", "vm-34 home", "unplanned")));
        maintenance.progress();
        assertThat(maintenanceRuns()).as("planned again").isEqualTo(runs + 1);
        assertThat(leftOn("ds-a")).containsEntry("vm-34 disk 2000", "recommended").containsEntry("vm-34 home", "recommended")
                .containsEntry("vm-32 disk 2000", "moving");
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("holds what its evacuation does not account for (disk 2000 of VM late, the home of VM late)");
        assertThat(pendingEvacuation().keySet()).as("web again, and late; db's relocation is running").containsExactly("vm-31", "vm-34");
        assertThat(jdbc.queryForList("SELECT state FROM migration_action WHERE vm_moid = 'vm-32' AND id > ?", String.class, actionsBefore))
                .as("one relocation of db, running").containsExactly("RUNNING");
        maintenance.progress();
        assertThat(maintenanceRuns()).as("accounted for now: not planned a third time").isEqualTo(runs + 1);

        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        syncCrowded("lb3");
    }

    /**
     * The inventory sync adopting a value vCenter holds and a settings {@code PUT} that commits
     * while the sync's transaction is open: each keeps what it changed (the sync once wrote the whole
     * row it had read, and so put back the model kind the {@code PUT} had just set).
     */
    @Test
    @Order(11)
    void aSyncAdoptingFromVCenterKeepsASettingsChangeThatCommittedMeanwhile() throws Exception {
        syncCrowded("lu1");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        StorageDrsRules held = new StorageDrsRules(new StorageDrsRules.PodSettings(true, null, null, null, null, null, null, null,
                25, null, null, null, null, null, null), List.of(), List.of());
        Map<String, Object> put = settings("manual");
        put.put("modelKind", "pesto");
        put.put("latencyThresholdMs", 25);
        new org.springframework.transaction.support.TransactionTemplate(transactions).executeWithoutResult(t -> {
            podSettings.adopt("group-p1", held);
            // the sync has read the row and changed the threshold, not yet committed; the PUT commits now
            try {
                java.util.concurrent.CompletableFuture.runAsync(() -> {
                    try {
                        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", put, 200);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }).get(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode after = call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200);
        assertThat(after.get("latencyThresholdMs").asInt()).isEqualTo(25);
        assertThat(after.get("modelKind").asText()).as("the PUT's model kind, not the one the sync had read").isEqualTo("pesto");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
    }

    // ------------------------------------------------------------------ rules the inventory breaks

    /**
     * An administrator makes a VM anti-affinity rule over web and db, both on ds-a. The next run
     * fixes it before it balances: web (250 GB, the smaller) moves to ds-b, with vCenter's reason
     * code; the cluster is manual but its rule-enforcement level is automated, so the fix is
     * applied at once. Once web is off ds-a, ds-a is under its space threshold: nothing else moves.
     */
    @Test
    @Order(12)
    void aRuleTheInventoryBreaksIsFixedFirstUnderTheRuleEnforcementLevel() throws Exception {
        InventorySnapshot c = crowded("rr1");
        InventorySnapshot withRule = new InventorySnapshot("rr1", c.datacenters(),
                List.of(new InventorySnapshot.StoragePodInfo("group-p1", "pod1", "datacenter-1", new StorageDrsRules(
                        StorageDrsRules.PodSettings.UNSET, List.of(new StorageDrsRules.VmAntiAffinity("web-db-apart", true,
                        List.of("vm-31", "vm-32"))), List.of()))), c.datastores(), c.hosts(), c.vms());
        inventory.setSnapshot(withRule);
        vcenter.setInventory(crowdedInVCenter());
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        Map<String, Object> s = settings("manual");
        s.put("modelKind", "pesto");
        s.put("ruleAutomationLevel", "automated");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
        vcenter.relocations.clear();

        JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        List<Long> recs = ids(run.get("recommendationIds"));
        assertThat(recs).as(run.toString()).hasSize(1);
        assertThat(ids(run.get("appliedRecommendationIds"))).containsExactlyElementsOf(recs);
        JsonNode e = call(HttpMethod.GET, "/api/v1/recommendations/" + recs.get(0) + "/explanation", null, 200);
        assertThat(e.get("reasonCode").asText()).isEqualTo("virtualDiskAntiAffin");
        assertThat(e.get("vmId").asText()).isEqualTo("vm-31");
        assertThat(e.get("autoApplicable").asBoolean()).isTrue();
        assertThat(e.get("summary").asText()).startsWith("VM anti-affinity rule web-db-apart is violated: VMs web and db share datastore"
                + " ds-a; moving VM web (250.0 GB) to ds-b, the most balanced datastore the rules allow");
        long deadline = System.currentTimeMillis() + 15_000;
        while (vcenter.relocations.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(vcenter.relocations).as("RelocateVM issued by the applier").containsExactly("vm-31 -> datastore-12");
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("Fix virtual disk anti-affinity rule: VM web from ds-a to ds-b (automated)");
        assertThat(run.get("faults")).isEmpty();

        Map<String, Object> reset = settings("manual");
        reset.put("ruleAutomationLevel", "inherit");
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", reset, 200);
    }

    /**
     * A recommendation made for a placement that is gone — here its destination datastore, removed
     * from vCenter while the evacuation awaited approval — is withdrawn once the inventory has read
     * the change, not left to fail when applied; the disks it would have moved are still on the
     * datastore entering maintenance, so its evacuation is planned again for them, onto the
     * datastore that is left.
     */
    @Test
    @Order(13)
    void aRecommendationWhoseDestinationIsRemovedIsWithdrawnAndTheEvacuationPlannedAgain() throws Exception {
        InventorySnapshot c = crowded("od1");
        List<InventorySnapshot.DatastoreInfo> three = new ArrayList<>(c.datastores());
        three.add(InMemoryInventorySource.ds("datastore-13", "ds-c", "group-p1", 2000 * GB, 1800 * GB));
        List<String> all = List.of("datastore-11", "datastore-12", "datastore-13");
        inventory.setSnapshot(new InventorySnapshot("od1", c.datacenters(), c.clusters(), three,
                List.of(new InventorySnapshot.HostInfo("host-21", "esx1", "datacenter-1", all),
                        new InventorySnapshot.HostInfo("host-22", "esx2", "datacenter-1", all)), c.vms()));
        vcenter.setInventory(crowdedInVCenter());
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        JsonNode m = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 200);
        List<Long> first = ids(m.get("recommendationIds"));
        assertThat(first).as(m.toString()).hasSize(2);
        Map<Long, String> destinationOf = new java.util.LinkedHashMap<>();
        for (long id : first) {
            destinationOf.put(id, call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).at("/actions/0/destinationDatastoreId").asText());
        }
        String removed = destinationOf.get(first.get(0));
        String kept = removed.equals("datastore-12") ? "datastore-13" : "datastore-12";
        List<String> remaining = List.of("datastore-11", kept);

        inventory.queue(new InventoryChanges("od2", false, List.of(), List.of(), List.of(),
                List.of(new InventorySnapshot.HostInfo("host-21", "esx1", "datacenter-1", remaining),
                        new InventorySnapshot.HostInfo("host-22", "esx2", "datacenter-1", remaining)),
                List.of(), List.of(new InventoryChanges.Removed(InventoryChanges.Kind.DATASTORE, removed))));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=incremental", null, 200);
        Set<String> outdatedVms = new HashSet<>();
        for (long id : first) {
            JsonNode r = call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200);
            boolean toRemoved = destinationOf.get(id).equals(removed);
            assertThat(r.get("state").asText()).as("recommendation %d to %s", id, destinationOf.get(id))
                    .isEqualTo(toRemoved ? "DISMISSED" : "PENDING");
            if (toRemoved) {
                outdatedVms.add(r.at("/actions/0/vmId").asText());
                assertThat(r.at("/actions/0/faultType").asText()).isEqualTo("Outdated");
            }
        }
        // the removed datastore is named as it was last read, not by its moid
        String removedName = removed.equals("datastore-12") ? "ds-b" : "ds-c";
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200).toString())
                .contains("dismissed: made for a placement that is gone: destination datastore " + removedName + " no longer exists (")
                .contains(" from ds-a to " + removedName + ")")
                .doesNotContain(" to " + removed + ")");
        JsonNode status = call(HttpMethod.GET, "/api/v1/datastores/ds-a/maintenance", null, 200);
        for (JsonNode l : status.get("left")) {
            assertThat(l.get("status").asText()).as(l.toString()).isEqualTo(outdatedVms.contains(l.get("vmId").asText()) ? "outdated" : "recommended");
        }

        maintenance.progress();
        Set<String> replanned = new HashSet<>();
        for (JsonNode r : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if ("PENDING".equals(r.path("state").asText()) && !first.contains(r.get("id").asLong())) {
                assertThat(r.get("destination").asText()).as(r.toString()).isEqualTo(kept);
                replanned.add(r.get("vm").asText());
            }
        }
        assertThat(replanned).as("what the withdrawn recommendations would have moved is planned again").isEqualTo(outdatedVms);
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("ENTERING");
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
    }

    /**
     * vSphere's intra-VM affinity keeps a VM's home with its VMDKs: a VM that keeps them together
     * with its home on another datastore of the cluster than its disks gets a move of the home alone
     * to them, under the rule-enforcement level; excluded from Storage DRS, a fault; not keeping
     * its VMDKs together, nothing.
     */
    @Test
    @Order(14)
    void aKeptTogetherVmWhoseHomeIsNotWithItsDisksGetsItsHomeMovedToThem() throws Exception {
        syncWithApp("kh1", "datastore-11", 0);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);

        JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        List<Long> home = new ArrayList<>();
        for (JsonNode r : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if (ids(run.get("recommendationIds")).contains(r.get("id").asLong()) && "vm-33".equals(r.get("vm").asText())) {
                assertThat(r.get("homeOnly").asBoolean()).as(r.toString()).isTrue();
                assertThat(r.get("source").asText()).isEqualTo("datastore-11");
                assertThat(r.get("destination").asText()).as("where app's disk is").isEqualTo("datastore-12");
                assertThat(r.get("state").asText()).as("the rule-enforcement level inherits manual").isEqualTo("PENDING");
                home.add(r.get("id").asLong());
            }
        }
        assertThat(home).as(run.toString()).hasSize(1);
        JsonNode e = call(HttpMethod.GET, "/api/v1/recommendations/" + home.get(0) + "/explanation", null, 200);
        assertThat(e.get("reasonCode").asText()).isEqualTo("virtualDiskJointAffin");
        assertThat(e.get("summary").asText()).isEqualTo("VM app keeps its VMDKs together but its home (configuration files, logs,"
                + " swap) is on ds-a and its disks on ds-b; the home joins its disks on ds-b, the fewest bytes to copy");
        JsonNode history = call(HttpMethod.GET, "/api/v1/clusters/group-p1/history", null, 200);
        assertThat(history.toString()).contains("Fix virtual disk affinity rule: the home of VM app from ds-a to ds-b (manual: awaiting approval)");
        JsonNode lastRun = null;
        for (JsonNode h : history) {
            if ("run".equals(h.get("action").asText()) && lastRun == null) {
                lastRun = h; // newest first
            }
        }
        assertThat(lastRun).isNotNull();
        assertThat(lastRun.get("detail").asText()).as("the home's move counted with the run's")
                .contains(": " + run.get("recommendationIds").size() + " moves, 0 faults");

        Map<String, Object> excluded = settings("manual");
        excluded.put("vmOverrides", List.of(Map.of("vmId", "vm-33", "behavior", "excluded")));
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", excluded, 200);
        JsonNode again = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        assertThat(again.get("faults").toString()).as(again.toString()).contains("\"vmId\":\"vm-33\"")
                .contains("VM app keeps its VMDKs together but its home (configuration files, logs, swap) is on ds-a and its disks on"
                        + " ds-b; the VM is excluded from Storage DRS: fix it by hand");
        assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + home.get(0), null, 200).get("state").asText())
                .as("the next run's plan replaces it").isEqualTo("DISMISSED");

        Map<String, Object> apart = settings("manual");
        apart.put("keepVmdksTogether", false);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", apart, 200);
        JsonNode free = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        assertThat(free.get("faults").toString()).doesNotContain("vm-33");
        for (JsonNode r : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if (ids(free.get("recommendationIds")).contains(r.get("id").asLong())) {
                assertThat(r.get("vm").asText()).as("a VM that does not keep its VMDKs together may keep its home apart").isNotEqualTo("vm-33");
            }
        }
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
    }

    /**
     * A home is bytes too — configuration, logs, swap (vm.layoutEx) — and a home moved on its own must
     * leave its destination under the space threshold once the run's plan has landed, as a disk must:
     * otherwise a fault that says how full it would be, for the rule's repair and for an evacuation.
     */
    @Test
    @Order(15)
    void aHomeMovedAloneMustFitUnderTheSpaceThresholdOnceThePlanHasLanded() throws Exception {
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
        // ds-b: 2000 GB, 200 GB used, threshold 80 % = 1600 GB. A 1300-GB home fits beside what ds-b holds now, not once
        // the plan has moved db (300 GB) off ds-a, at 90 %, onto it
        syncWithApp("ks1", "datastore-11", 1300 * GB);
        JsonNode run = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        for (JsonNode r : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if (ids(run.get("recommendationIds")).contains(r.get("id").asLong())) {
                assertThat(r.get("vm").asText()).as(r.toString()).isNotEqualTo("vm-33");
            }
        }
        assertThat(run.get("faults").toString()).as(run.toString()).contains("\"vmId\":\"vm-33\"")
                .contains("VM app keeps its VMDKs together but its home (configuration files, logs, swap) is on ds-a and its disks"
                        + " on ds-b; its home (1300.0 GB) would take datastore ds-b to 1800.0 GB, over its space threshold of 1600.0 GB");

        syncWithApp("ks2", "datastore-11", 12 * GB + 512L * 1024 * 1024);
        JsonNode small = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 200);
        assertThat(small.get("faults").toString()).doesNotContain("vm-33");
        List<String> summaries = new ArrayList<>();
        for (JsonNode r : call(HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations", null, 200)) {
            if (ids(small.get("recommendationIds")).contains(r.get("id").asLong()) && "vm-33".equals(r.get("vm").asText())) {
                summaries.add(call(HttpMethod.GET, "/api/v1/recommendations/" + r.get("id").asLong() + "/explanation", null, 200)
                        .get("summary").asText());
            }
        }
        assertThat(summaries).containsExactly("VM app keeps its VMDKs together but its home (configuration files, logs, swap) is on"
                + " ds-a and its disks on ds-b; the home (12.5 GB) joins its disks on ds-b, the fewest bytes to copy");

        // entering maintenance: web and db leave ds-a whole for ds-b, their disks (550 GB) and web's 100-GB home (the
        // swap of a large VM) with them, so an 800-GB home has nowhere to go
        InventorySnapshot big = withApp("ks3", "datastore-11", 800 * GB);
        inventory.setSnapshot(new InventorySnapshot("ks3", big.datacenters(), big.clusters(), big.datastores(), big.hosts(),
                big.vms().stream().map(v -> !v.moid().equals("vm-31") ? v
                        : new InventorySnapshot.VmInfo(v.moid(), v.name(), v.hostMoid(), v.disks(), v.homeDatastoreMoid(), 100 * GB)).toList()));
        vcenter.setInventory(withAppInVCenter("datastore-11", 800 * GB));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        JsonNode m = call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 200);
        assertThat(m.toString()).contains("the home of VM app cannot leave ds-a: its home (800.0 GB) would take datastore ds-b to 1650.0 GB,"
                + " over its space threshold of 1600.0 GB");
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        syncCrowded("ks4");

        // a new VM's home (its swap: memory less reservation) is placed with its disk: ds-a is over its threshold, and
        // ds-b holds 200 GB of its 1600, so a 50-GB disk with a 1300-GB home fits there and with a 1400-GB one nowhere
        String placement = "/api/v1/clusters/group-p1/placement";
        JsonNode fits = call(HttpMethod.POST, placement, Map.of("sizeGB", 50, "homeGB", 1300), 200);
        assertThat(fits.at("/placements/0/datastoreId").asText()).as(fits.toString()).isEqualTo("datastore-12");
        JsonNode none = call(HttpMethod.POST, placement, Map.of("sizeGB", 50, "homeGB", 1400), 200);
        assertThat(none.get("placements")).as(none.toString()).isEmpty();
        assertThat(none.get("faults").toString()).contains("datastore ds-b would hold 1650.0 GB, over its space threshold of 1600.0 GB");
    }

    // ------------------------------------------------------------------ a run's records are one transaction

    /** Everything a run or an evacuation records, counted. */
    Map<String, Long> records() {
        Map<String, Long> counts = new TreeMap<>();
        for (String table : List.of("balancing_run", "recommendation", "migration_action", "recommendation_explanation", "fault")) {
            counts.put(table, jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class));
        }
        for (String state : List.of("PENDING", "APPLYING", "DISMISSED")) {
            counts.put(state, jdbc.queryForObject("SELECT COUNT(*) FROM recommendation WHERE state = ?", Long.class, state));
        }
        // entering maintenance is recorded before its evacuation is planned, and stays when the plan fails
        counts.put("action_history", jdbc.queryForObject("SELECT COUNT(*) FROM action_history WHERE action <> 'maintenance-enter'",
                Long.class));
        return counts;
    }

    /** The database refuses the explanation of every move planned after run {@code run} (of {@code vmId}'s move only, when given). */
    void refuseExplanationsAfter(long run, String vmId) {
        jdbc.execute("ALTER TABLE recommendation_explanation ADD CONSTRAINT refused_in_test CHECK (run_id <= " + run
                + (vmId == null ? "" : " OR vm_moid <> '" + vmId + "'") + ")");
    }

    void acceptExplanations() {
        jdbc.execute("ALTER TABLE recommendation_explanation DROP CONSTRAINT refused_in_test");
    }

    long lastRun() {
        return jdbc.queryForObject("SELECT MAX(id) FROM balancing_run", Long.class);
    }

    /**
     * A run's records are one transaction: a run that fails while recording its plan — here the
     * database refuses a move's explanation, as a full disk or a lost connection would — leaves no
     * part of it: no run, no recommendation the applier could pick up alone, the previous run's
     * still pending. An evacuation that fails so, after its first move was recorded and applied,
     * leaves nothing for the applier either, and the datastore entering with its evacuation
     * unplanned, which the progress loop plans again.
     */
    @Test
    @Order(16)
    void aRunThatFailsWhileRecordingItsPlanLeavesNoneOfIt() throws Exception {
        List<Long> pending = manualRun("tx1");
        Map<String, Long> before = records();
        refuseExplanationsAfter(lastRun(), null);
        try {
            JsonNode refused = call(HttpMethod.POST, "/api/v1/clusters/group-p1/run", null, 500);
            assertThat(refused.get("title").asText()).isEqualTo("Database error");
            assertThat(refused.get("detail").asText()).startsWith("the server's database refused the request's changes: ")
                    .containsIgnoringCase("refused_in_test");
        } finally {
            acceptExplanations();
        }
        assertThat(records()).isEqualTo(before);
        for (long id : pending) {
            assertThat(call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200).get("state").asText()).isEqualTo("PENDING");
        }

        // the evacuation of ds-a moves web and db; the database refuses the second move's explanation
        List<Long> evacuation = ids(call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 200)
                .get("recommendationIds"));
        assertThat(evacuation).hasSize(2);
        String secondVm = call(HttpMethod.GET, "/api/v1/recommendations/" + evacuation.get(1) + "/explanation", null, 200)
                .get("vmId").asText();
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("automated"), 200);
        int relocations = vcenter.relocations.size();
        before = records();
        refuseExplanationsAfter(lastRun(), secondVm);
        try {
            call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", true), 500);
        } finally {
            acceptExplanations();
        }
        assertThat(records()).isEqualTo(before);
        assertThat(maintenance.state("datastore-11").name()).isEqualTo("ENTERING");
        assertThat(jdbc.queryForObject("SELECT evacuation_planned FROM datastore_maintenance WHERE datastore_moid = 'datastore-11'",
                Boolean.class)).isFalse();
        // the applier loop polls every 0.5 s: give it time to (wrongly) issue the first move
        Thread.sleep(2000);
        assertThat(vcenter.relocations).hasSize(relocations);

        maintenance.progress();
        List<String> planned = jdbc.queryForList("SELECT e.vm_moid FROM recommendation r JOIN recommendation_explanation e"
                + " ON e.recommendation_id = r.id WHERE r.state = 'APPLYING' AND e.reason_code = 'datastoreMaint'"
                + " AND e.run_id = (SELECT evacuation_run_id FROM datastore_maintenance WHERE datastore_moid = 'datastore-11')", String.class);
        assertThat(planned).containsExactlyInAnyOrder("vm-31", "vm-32");
        long deadline = System.currentTimeMillis() + 15_000;
        while (vcenter.relocations.size() < relocations + 1 && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(vcenter.relocations.size()).as("RelocateVM issued for the evacuation planned again").isGreaterThan(relocations);
        call(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", Map.of("enter", false), 200);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings("manual"), 200);
    }

    // ------------------------------------------------------------------ SLEDS limits on the agents' sessions

    /** A 20-s window of one disk as an agent reports it: {@code iops} of 8-KiB IOs, 70 % reads, at {@code latencyMs}. */
    static io.opensdrs.shared.agent.v1.DiskWindowStats window(String vm, int diskKey, long startMs, double iops, double latencyMs) {
        return window(vm, diskKey, startMs, 20, iops, latencyMs);
    }

    /** The same over {@code seconds} (1: a second of a stream SLEDS watches). */
    static io.opensdrs.shared.agent.v1.DiskWindowStats window(String vm, int diskKey, long startMs, int seconds, double iops, double latencyMs) {
        long ios = Math.round(iops * seconds);
        long reads = Math.round(ios * 0.7);
        return io.opensdrs.shared.agent.v1.DiskWindowStats.newBuilder().setVm(vm).setDiskKey(diskKey)
                .setDiskFile("[ds-a] " + vm + "/disk" + diskKey + ".vmdk").setDatastore("ds-a").setWindowStartMs(startMs).setWindowSeconds(seconds)
                .setIoCount(ios).setReads(reads).setWrites(ios - reads).setBytesRead(reads * 8192).setBytesWritten((ios - reads) * 8192)
                .setMeanOutstandingIos(iops * latencyMs / 1000).setMeanLatencyMs(latencyMs).setMeanIoSizeKb(8).setReadShare(0.7)
                .setRandomness(1).build();
    }

    /**
     * The SLEDS loop's messages to a host's agent: db (vm-32) in a transaction class missing its
     * 10-ms bound, web (vm-31, on esx1) in a bulk class at 500 IOPS a disk, over its 100-IOPS
     * demand bound → esx1's agent gets ThrottleLimits holding each of web's disks to 400 IOPS (one
     * 20 % step) on the whole-rate dimensions, the per-direction ones left unlimited; an agent
     * that reconnects (a restarted agent has no limits) gets the unchanged limits again within
     * {@code sleds-refresh}, the disk whose newest window shows it at its limit tightened from there. The classes
     * removed, an empty ThrottleLimits lifts them.
     */
    @Test
    @Order(17)
    void sledsLimitsReachTheHostsAgentAsAWholeRateAgainAfterAReconnectAndLiftWhenTheClassesGo() throws Exception {
        syncCrowded("sl1");
        String agentId = "agent-" + UUID.randomUUID();
        String token = call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", agentId), 201).get("token").asText();
        Map<String, Object> s = settings("manual");
        s.put("serviceClasses", List.of(
                Map.of("id", "tp", "deliveryBoundMs", 10, "demandBoundIops", 10_000, "demandBoundBytesPerSecond", 1e9),
                Map.of("id", "bulk", "deliveryBoundMs", 1000, "demandBoundIops", 100, "demandBoundBytesPerSecond", 1e9, "allowedMissPct", 0)));
        s.put("vmOverrides", List.of(Map.of("vmId", "vm-31", "behavior", "default", "serviceClass", "bulk"),
                Map.of("vmId", "vm-32", "behavior", "default", "serviceClass", "tp")));
        try (SimulatedAgent a = new SimulatedAgent("localhost", grpc.port(), token)) {
            assertThat(a.register(agentId, "esx1", List.of("ds-a", "ds-b")).getAccepted()).isTrue();
            SimulatedAgent.Session session = a.openSession();
            Map<String, Object> bad = new java.util.HashMap<>(s);
            bad.put("serviceClasses", List.of(Map.of("id", "tp", "deliveryBoundMs", 10, "demandBoundIops", 10_000,
                    "demandBoundBytesPerSecond", 1e9, "allowedMissPct", 101)));
            assertThat(call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", bad, 400).toString()).contains("allowedMissPct");
            call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
            // the server keeps the newest windows of the VMs in a class from the controller's next step on
            long stepDeadline = System.currentTimeMillis() + 20_000;
            while (call(HttpMethod.GET, "/api/v1/clusters/group-p1/sleds", null, 200).path("at").isNull()
                    && System.currentTimeMillis() < stepDeadline) {
                Thread.sleep(100);
            }
            long start = clock.millis() - 120_000;
            // six windows in one batch: a controller step (every second of wall clock) sees them all or none, so
            // on a busy machine it cannot record a window of the class that the next step replaces
            io.opensdrs.shared.agent.v1.DiskStatsBatch.Builder six = io.opensdrs.shared.agent.v1.DiskStatsBatch.newBuilder().setHost("esx1");
            for (int w = 0; w < 6; w++) {
                long at = start + w * 20_000L;
                six.addSamples(window("vm-31", 2000, at, 500, 5)).addSamples(window("vm-31", 2001, at, 500, 5))
                        .addSamples(window("vm-32", 2000, at, 50, 40));
            }
            session.send(AgentMessage.newBuilder().setSeq(1).setDiskStats(six).build());
            assertThat(next(session, ServerMessage::hasAck).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);

            ServerMessage limits = next(session, ServerMessage::hasThrottleLimits);
            assertThat(limits).as("ThrottleLimits on esx1's agent").isNotNull();
            assertThat(limits.getThrottleLimits().getLimitsList()).hasSize(2).allSatisfy(l -> {
                assertThat(l.getStream().getHost()).isEqualTo("esx1");
                assertThat(l.getStream().getVm()).isEqualTo("vm-31");
                assertThat(l.getIops()).isCloseTo(400, org.assertj.core.data.Offset.offset(1e-6));
                assertThat(l.getReadIops() + l.getWriteIops() + l.getReadBytesPerS() + l.getWriteBytesPerS()).isZero();
            });
            JsonNode sleds = call(HttpMethod.GET, "/api/v1/clusters/group-p1/sleds", null, 200);
            assertThat(sleds.toString()).contains("\"id\":\"tp\"", "\"meetsSlo\":false", "over its demand bound");
            // db's window missed tp's 10 ms (5 % of windows allowed by default): not compliant; web's met bulk's 1,000 ms
            Map<String, JsonNode> classes = new java.util.HashMap<>();
            sleds.get("classes").forEach(c -> classes.put(c.get("id").asText(), c));
            assertThat(classes.get("tp").get("allowedMissPct").asDouble()).isEqualTo(5.0);
            assertThat(classes.get("tp").get("windows").asInt()).isEqualTo(1);
            assertThat(classes.get("tp").get("missedWindows").asInt()).isEqualTo(1);
            assertThat(classes.get("tp").get("compliant").asBoolean(true)).isFalse();
            assertThat(classes.get("bulk").get("allowedMissPct").asDouble()).isZero();
            assertThat(classes.get("bulk").get("missedWindows").asInt()).isZero();
            assertThat(classes.get("bulk").get("compliant").asBoolean(false)).isTrue();
            assertThat(sleds.get("streams")).hasSize(3).allSatisfy(st -> {
                assertThat(st.get("datastoreName").asText()).isEqualTo("ds-a");
                assertThat(st.get("windowSeconds").asInt()).as("sampled over its 20-s window").isEqualTo(20);
            });
            // web's disks share ds-a with db's: they compete with it (SLEDS §3)
            assertThat(sleds.get("actions").toString()).contains("competes with esx2/vm-32/2000 on datastore-11");
            call(HttpMethod.GET, "/api/v1/clusters/group-nope/sleds", null, 404);
            session.complete();

            // the agent reconnects: nothing changed, and within the refresh the limits come again
            SimulatedAgent.Session again = a.openSession();
            again.send(AgentMessage.newBuilder().setSeq(2).setDiskStats(io.opensdrs.shared.agent.v1.DiskStatsBatch.newBuilder()
                    .setHost("esx1").addSamples(window("vm-31", 2000, start + 120_000, 500, 5))).build());
            assertThat(next(again, ServerMessage::hasAck).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
            clock.advance(Duration.ofSeconds(31));
            ServerMessage resent = next(again, ServerMessage::hasThrottleLimits);
            assertThat(resent).as("the limits sent again after sleds-refresh").isNotNull();
            assertThat(resent.getThrottleLimits().getLimitsList()).hasSize(2)
                    .allSatisfy(l -> assertThat(l.getIops()).isCloseTo(400, org.assertj.core.data.Offset.offset(1e-6)));

            // the controller steps on each disk's newest window: web's disk 2000 now runs at its 400-IOPS limit and is
            // tightened from there (the hour's median would still say 500); disk 2001 sent nothing new and keeps its limit
            again.send(AgentMessage.newBuilder().setSeq(3).setDiskStats(io.opensdrs.shared.agent.v1.DiskStatsBatch.newBuilder()
                    .setHost("esx1").addSamples(window("vm-31", 2000, start + 140_000, 400, 5))).build());
            // (its ack is not awaited: the new limits may come before it)
            ServerMessage tighter = next(again, m -> m.hasThrottleLimits() && m.getThrottleLimits().getLimitsList().stream()
                    .anyMatch(l -> l.getIops() < 399));
            assertThat(tighter).as("limits from the newest window").isNotNull();
            Map<Integer, Double> byDisk = new java.util.HashMap<>();
            tighter.getThrottleLimits().getLimitsList().forEach(l -> byDisk.put(l.getStream().getDiskKey(), l.getIops()));
            assertThat(byDisk.get(2000)).isCloseTo(320, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(byDisk.get(2001)).isCloseTo(400, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(resent.getThrottleLimits().getGeneration()).isGreaterThan(limits.getThrottleLimits().getGeneration());

            s.put("serviceClasses", List.of());
            s.put("vmOverrides", List.of());
            call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", s, 200);
            ServerMessage lifted = next(again, m -> m.hasThrottleLimits() && m.getThrottleLimits().getLimitsCount() == 0);
            assertThat(lifted).as("an empty ThrottleLimits once no class is left").isNotNull();
            assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/sleds", null, 200).get("classes")).isEmpty();
            again.complete();
        }
    }
}
