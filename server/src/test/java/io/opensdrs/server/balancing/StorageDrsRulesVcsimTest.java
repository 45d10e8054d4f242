package io.opensdrs.server.balancing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.Rule;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.VmState;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.migration.FaithfulVcsim;
import io.opensdrs.server.migration.ServerAgainstVcsim;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.vsphere.VcsimProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Storage DRS rules set in vCenter (our simulator's ConfigureStorageDrsForPod_Task, through
 * {@code vcsim sdrs-rule}; what vCenter then holds is read back with govc) reach the balancing
 * engine through the inventory sync, and a maintenance evacuation keeps them.
 */
@ServerAgainstVcsim
class StorageDrsRulesVcsimTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static VcsimProcess vcsim;

    /**
     * ds1 holds a, b and pair: a and b share it against their rule, pair's two disks too; doomed
     * (on ds2) is destroyed in vCenter by the rule-creation test; pinned and careful (on ds2) get
     * their Storage DRS automation in vCenter, and lose it again, in the automation test; twins (three
     * disks on ds2) gets a VMDK anti-affinity rule through the API, and loses it again; fleeting (on ds2) gets an
     * automation and a service class, and is destroyed in vCenter.
     */
    static final String WORLD = "{\"datacenter\":\"DC0\",\"storagePods\":[{\"name\":\"POD0\",\"datastores\":["
            + "{\"name\":\"ds1\",\"capacityGB\":200},{\"name\":\"ds2\",\"capacityGB\":200},{\"name\":\"ds3\",\"capacityGB\":200}]},"
            // POD1: a second cluster, whose settings only settingsSavedAtOnceAreAppliedOneAfterAnother changes
            + "{\"name\":\"POD1\",\"datastores\":[{\"name\":\"ds9\",\"capacityGB\":100}]}],"
            + "\"hosts\":[{\"name\":\"h1\",\"cluster\":\"C0\"}],\"vms\":["
            + "{\"name\":\"a\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"b\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"pair\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"},"
            + "{\"name\":\"disk2\",\"sizeGB\":1,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"doomed\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"}]},"
            + "{\"name\":\"pinned\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"}]},"
            + "{\"name\":\"careful\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"}]},"
            + "{\"name\":\"twins\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"},"
            + "{\"name\":\"disk2\",\"sizeGB\":1,\"datastore\":\"ds2\"},{\"name\":\"disk3\",\"sizeGB\":1,\"datastore\":\"ds2\"}]},"
            + "{\"name\":\"fleeting\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"}]}]}";

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = FaithfulVcsim.start(WORLD, "sdrs-rules", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD);
        FaithfulVcsim.registerAsVCenter(r, vcsim, "rules");
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired ClusterStateAssembler assembler;
    @Autowired TestRestTemplate rest;
    @Autowired JdbcTemplate jdbc;
    @Autowired ClusterPolicies policies;

    String podId() {
        return jdbc.queryForObject("SELECT moid FROM datastore_cluster WHERE name = 'POD0'", String.class);
    }

    void fullSync() {
        try {
            sync.fullSync();
        } catch (RuntimeException startupSyncRacing) {
            sync.fullSync();
        }
    }

    @Test
    void rulesSetInVCenterAreReadAndKeptByMaintenanceEvacuation() throws Exception {
        String a = FaithfulVcsim.moid(vcsim, "m", "a");
        String b = FaithfulVcsim.moid(vcsim, "m", "b");
        String pair = FaithfulVcsim.moid(vcsim, "m", "pair");
        List<Integer> pairKeys = FaithfulVcsim.diskKeys(vcsim, "pair");
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-anti-affinity", "apart=a,b")).contains("OK");
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vmdk-anti-affinity", "pair=disk1,disk2")).contains("OK");

        // what vCenter holds, read from outside
        String podRef = vcsim.govc("find", "-i", "/", "-type", "StoragePod", "-name", "POD0").strip();
        JsonNode config = JSON.readTree(vcsim.govc("object.collect", "-json", podRef, "podStorageDrsEntry.storageDrsConfig"));
        JsonNode held = config.at("/0/val");
        assertThat(held.at("/podConfig/rule/0/name").asText()).isEqualTo("apart");
        assertThat(List.of(held.at("/podConfig/rule/0/vm/0/value").asText(), held.at("/podConfig/rule/0/vm/1/value").asText()))
                .containsExactlyInAnyOrder(a, b);
        assertThat(held.at("/vmConfig/0/vm/value").asText()).isEqualTo(pair);
        assertThat(List.of(held.at("/vmConfig/0/intraVmAntiAffinity/diskId/0").asInt(),
                held.at("/vmConfig/0/intraVmAntiAffinity/diskId/1").asInt())).containsExactlyElementsOf(pairKeys);

        fullSync();
        ClusterState state = assembler.assemble(podId()).state();
        assertThat(state.rules()).containsExactlyInAnyOrder(
                new Rule.VmAntiAffinity("apart", Set.of(a, b)),
                new Rule.VmdkAntiAffinity("pair-vmdk-anti-affinity", pair,
                        Set.of(pair + "/" + pairKeys.get(0), pair + "/" + pairKeys.get(1))));
        VmState pairState = state.vms().stream().filter(v -> v.id().equals(pair)).findFirst().orElseThrow();
        assertThat(pairState.keepTogether()).isFalse(); // VMDK anti-affinity turns keep-together off, as vCenter does

        // the REST API (the plugin's Rules page) shows them as vCenter holds them
        JsonNode shown = new AdminApi(rest).call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/rules", null, 200);
        Map<String, JsonNode> byKind = new HashMap<>();
        shown.forEach(r -> byKind.put(r.get("kind").asText(), r));
        assertThat(byKind.keySet()).containsExactlyInAnyOrder("vmAntiAffinity", "vmdkAntiAffinity", "intraVmAffinity");
        assertThat(byKind.get("vmAntiAffinity").get("name").asText()).isEqualTo("apart");
        assertThat(byKind.get("vmAntiAffinity").get("members").toString()).contains("\"a\"", "\"b\"");
        assertThat(byKind.get("vmdkAntiAffinity").get("members").toString()).contains("pair/disk1.vmdk", "pair/disk2.vmdk");
        assertThat(byKind.get("intraVmAffinity").get("enabled").asBoolean()).isFalse();
        JsonNode overrides = new AdminApi(rest).call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/vm-overrides", null, 200);
        assertThat(overrides).hasSize(1);
        assertThat(overrides.get(0).get("vmName").asText()).isEqualTo("pair");
        assertThat(overrides.get(0).get("automationLevel").asText()).isEqualTo("default");
        assertThat(overrides.get(0).get("keepVmdksTogether").asBoolean()).isFalse();
        new AdminApi(rest).call(HttpMethod.GET, "/api/v1/clusters/group-p999/rules", null, 404);

        // ds3 goes into maintenance (empty: at once), then ds1 is evacuated onto ds2 alone: a and b
        // cannot both go, nor can pair's two disks; what cannot move is a fault naming the rule
        JsonNode ds3 = new AdminApi(rest).call(HttpMethod.POST, "/api/v1/datastores/ds3/maintenance",
                Map.of("enter", true, "ignoreAffinity", false), 200);
        assertThat(ds3.get("recommendationIds")).isEmpty();
        JsonNode m = new AdminApi(rest).call(HttpMethod.POST, "/api/v1/datastores/ds1/maintenance",
                Map.of("enter", true, "ignoreAffinity", false), 200);
        Map<String, String> destinationOf = new HashMap<>();
        for (JsonNode id : m.get("recommendationIds")) {
            JsonNode e = new AdminApi(rest).call(HttpMethod.GET, "/api/v1/recommendations/" + id.asLong() + "/explanation", null, 200);
            for (JsonNode disk : e.get("diskIds")) {
                destinationOf.put(disk.asText(), e.get("destinationDatastoreId").asText());
            }
        }
        System.out.println("storage DRS rules: evacuation of ds1 " + destinationOf + ", faults " + m.get("faults"));
        String aDisk = a + "/" + FaithfulVcsim.diskKeys(vcsim, "a").get(0);
        String bDisk = b + "/" + FaithfulVcsim.diskKeys(vcsim, "b").get(0);
        assertThat(destinationOf.keySet()).as("one of a, b moves").containsAnyOf(aDisk, bDisk);
        assertThat(destinationOf.keySet()).as("not both of a, b").doesNotContain(destinationOf.containsKey(aDisk) ? bDisk : aDisk);
        assertThat(destinationOf.keySet()).as("one of pair's disks moves, not both")
                .containsAnyOf(pair + "/" + pairKeys.get(0), pair + "/" + pairKeys.get(1))
                .doesNotContain(destinationOf.containsKey(pair + "/" + pairKeys.get(0))
                        ? pair + "/" + pairKeys.get(1) : pair + "/" + pairKeys.get(0));
        assertThat(m.get("faults")).hasSize(2);
        assertThat(m.get("faults").toString()).contains("apart", "pair-vmdk-anti-affinity");

        // a rule removed in vCenter is gone at the next incremental sync (the inventory watch sees the pod change)
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-remove-rule", "apart")).contains("OK");
        long deadline = System.currentTimeMillis() + 20_000;
        while (assembler.assemble(podId()).state().rules().stream().anyMatch(r -> r.name().equals("apart"))
                && System.currentTimeMillis() < deadline) {
            sync.incrementalSync();
            Thread.sleep(100);
        }
        assertThat(assembler.assemble(podId()).state().rules()).extracting(Rule::name)
                .containsExactly("pair-vmdk-anti-affinity");
    }

    /** What vCenter holds for the pod's keep-together default, read from outside with govc (null when unset). */
    Boolean heldDefaultKeepTogether() throws Exception {
        String podRef = vcsim.govc("find", "-i", "/", "-type", "StoragePod", "-name", "POD0").strip();
        JsonNode v = JSON.readTree(vcsim.govc("object.collect", "-json", podRef, "podStorageDrsEntry.storageDrsConfig"))
                .at("/0/val/podConfig/defaultIntraVmAffinity");
        return v.isMissingNode() || v.isNull() ? null : v.asBoolean();
    }

    @Test
    void keepVmdksTogetherByDefaultIsThePodsSettingInVCenter() throws Exception {
        fullSync();
        String settings = "/api/v1/clusters/" + podId() + "/settings";
        AdminApi api = new AdminApi(rest);
        assertThat(heldDefaultKeepTogether()).as("the simulator leaves it unset").isNull();
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("keepVmdksTogether").asBoolean()).isTrue();

        // changed in vCenter (as the vSphere Client's Storage DRS settings do): the server follows at its next sync
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-default-keep-together", "false")).contains("OK");
        assertThat(heldDefaultKeepTogether()).isFalse();
        long deadline = System.currentTimeMillis() + 20_000;
        while (api.call(HttpMethod.GET, settings, null, 200).get("keepVmdksTogether").asBoolean()
                && System.currentTimeMillis() < deadline) {
            sync.incrementalSync();
            Thread.sleep(100);
        }
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("keepVmdksTogether").asBoolean()).isFalse();
        assertThat(policies.balancingSettings(podId()).keepVmdksTogetherByDefault()).isFalse();

        // changed through the server (the plugin's Settings page): vCenter holds it first, then the server
        Map<String, Object> body = settingsBody(api, settings);
        body.put("keepVmdksTogether", true);
        assertThat(api.call(HttpMethod.PUT, settings, body, 200).get("keepVmdksTogether").asBoolean()).isTrue();
        assertThat(heldDefaultKeepTogether()).isTrue();
        assertThat(policies.balancingSettings(podId()).keepVmdksTogetherByDefault()).isTrue();
        // and the sync that follows vCenter's change keeps it so
        fullSync();
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("keepVmdksTogether").asBoolean()).isTrue();
    }

    /** The pod's podConfig as vCenter holds it, read from outside with govc. */
    JsonNode heldPodConfig() throws Exception {
        return heldPodConfig("POD0");
    }

    JsonNode heldPodConfig(String pod) throws Exception {
        String podRef = vcsim.govc("find", "-i", "/", "-type", "StoragePod", "-name", pod).strip();
        return JSON.readTree(vcsim.govc("object.collect", "-json", podRef, "podStorageDrsEntry.storageDrsConfig"))
                .at("/0/val/podConfig");
    }

    /** The value of the pod's advanced option as vCenter holds it, read from outside with govc (null when it has none). */
    String heldOption(String key) throws Exception {
        for (JsonNode o : heldPodConfig().path("option")) {
            if (key.equals(o.path("key").asText())) {
                return o.path("value").asText();
            }
        }
        return null;
    }

    @Test
    void ignoreAffinityRulesForMaintenanceIsThePodsAdvancedOptionInVCenter() throws Exception {
        fullSync();
        String settings = "/api/v1/clusters/" + podId() + "/settings";
        String option = "IgnoreAffinityRulesForMaintenance";
        AdminApi api = new AdminApi(rest);
        assertThat(heldOption(option)).isNull();
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("ignoreAffinityForMaintenance").asBoolean()).isFalse();

        // set in vCenter, as the vSphere Client's Storage DRS advanced options do: the server follows at its next sync
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-pod-config", option + "=1")).contains("OK");
        assertThat(heldOption(option)).isEqualTo("1");
        long deadline = System.currentTimeMillis() + 20_000;
        while (!api.call(HttpMethod.GET, settings, null, 200).get("ignoreAffinityForMaintenance").asBoolean()
                && System.currentTimeMillis() < deadline) {
            sync.incrementalSync();
            Thread.sleep(100);
        }
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("ignoreAffinityForMaintenance").asBoolean()).isTrue();
        assertThat(policies.balancingSettings(podId()).ignoreAffinityForMaintenance()).isTrue();
        // a maintenance request that does not say follows it; one that says does as it says
        String ds3 = "/api/v1/datastores/ds3/maintenance";
        assertThat(api.call(HttpMethod.POST, ds3, Map.of("enter", true), 200).get("ignoreAffinity").asBoolean()).isTrue();
        assertThat(api.call(HttpMethod.POST, ds3, Map.of("enter", true, "ignoreAffinity", false), 200).get("ignoreAffinity").asBoolean())
                .isFalse();
        api.call(HttpMethod.POST, ds3, Map.of("enter", false), 200);

        // changed through the server (the plugin's Settings page): vCenter holds it first, then the server
        Map<String, Object> body = settingsBody(api, settings);
        body.put("ignoreAffinityForMaintenance", false);
        assertThat(api.call(HttpMethod.PUT, settings, body, 200).get("ignoreAffinityForMaintenance").asBoolean()).isFalse();
        assertThat(heldOption(option)).isEqualTo("0");
        fullSync();
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("ignoreAffinityForMaintenance").asBoolean()).isFalse();
        assertThat(policies.balancingSettings(podId()).ignoreAffinityForMaintenance()).isFalse();
    }

    @Test
    void storageDrsTurnedOffInVCenterMakesNoRunUntilTurnedOnAgain() throws Exception {
        fullSync();
        String settings = "/api/v1/clusters/" + podId() + "/settings";
        String run = "/api/v1/clusters/" + podId() + "/run";
        AdminApi api = new AdminApi(rest);
        assertThat(heldPodConfig().get("enabled").asBoolean()).as("the simulator's new pod has Storage DRS on").isTrue();
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("storageDrsEnabled").asBoolean()).isTrue();

        // turned off with stock govc, as "Turn ON vSphere Storage DRS" unticked in the vSphere Client: the server follows
        vcsim.govc("datastore.cluster.change", "-drs-enabled=false", "POD0");
        long deadline = System.currentTimeMillis() + 20_000;
        while (api.call(HttpMethod.GET, settings, null, 200).get("storageDrsEnabled").asBoolean() && System.currentTimeMillis() < deadline) {
            sync.incrementalSync();
            Thread.sleep(100);
        }
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("storageDrsEnabled").asBoolean()).isFalse();
        long runs = jdbc.queryForObject("SELECT COUNT(*) FROM balancing_run WHERE cluster_moid = ?", Long.class, podId());
        JsonNode refused = api.call(HttpMethod.POST, run, null, 409);
        assertThat(refused.path("detail").asText()).contains("Storage DRS is turned off", "podConfig.enabled = false");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM balancing_run WHERE cluster_moid = ?", Long.class, podId())).isEqualTo(runs);
        // nor an initial placement into the pod, as vCenter's RecommendDatastores refuses a pod without Storage DRS
        assertThat(api.call(HttpMethod.POST, "/api/v1/clusters/" + podId() + "/placement", Map.of("sizeGB", 1), 409).path("detail").asText())
                .contains("InvalidArgument podSelectionSpec.storagePod");

        // turned on through the server (the plugin's Settings page): vCenter holds it, and runs are made again
        Map<String, Object> body = settingsBody(api, settings);
        body.put("storageDrsEnabled", true);
        assertThat(api.call(HttpMethod.PUT, settings, body, 200).get("storageDrsEnabled").asBoolean()).isTrue();
        assertThat(heldPodConfig().get("enabled").asBoolean()).isTrue();
        api.call(HttpMethod.POST, run, null, 200);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM balancing_run WHERE cluster_moid = ?", Long.class, podId())).isEqualTo(runs + 1);
    }

    @Test
    void storageDrsSettingsAreThePodsSettingsInVCenter() throws Exception {
        fullSync();
        String settings = "/api/v1/clusters/" + podId() + "/settings";
        AdminApi api = new AdminApi(rest);
        assertThat(heldPodConfig().has("spaceLoadBalanceConfig")).as("the simulator's new pod holds no thresholds").isFalse();
        JsonNode defaults = api.call(HttpMethod.GET, settings, null, 200);
        assertThat(defaults.get("latencyThresholdMs").asInt()).isEqualTo(15);
        assertThat(defaults.get("ioLoadBalanceEnabled").asBoolean()).as("the pod's unconfigured ioLoadBalanceEnabled=false is not a setting").isTrue();

        // changed in vCenter, with stock govc and as the vSphere Client's "Edit Storage DRS" would: the server follows
        vcsim.govc("datastore.cluster.change", "-drs-mode", "automated", "POD0");
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-pod-config", "spaceUtilizationThreshold=70,"
                + "minSpaceUtilizationDifference=9,ioLatencyThreshold=25,ioLoadImbalanceThreshold=12,ioLoadBalanceEnabled=false,"
                + "ioLoadBalanceAutomationMode=manual,vmEvacuationAutomationMode=manual")).contains("OK");
        long deadline = System.currentTimeMillis() + 20_000;
        while (api.call(HttpMethod.GET, settings, null, 200).get("latencyThresholdMs").asInt() != 25
                && System.currentTimeMillis() < deadline) {
            sync.incrementalSync();
            Thread.sleep(100);
        }
        JsonNode adopted = api.call(HttpMethod.GET, settings, null, 200);
        assertThat(adopted.get("automationLevel").asText()).isEqualTo("automated");
        assertThat(adopted.get("spaceThresholdPct").asInt()).isEqualTo(70);
        assertThat(adopted.get("minSpaceDifferencePct").asInt()).isEqualTo(9);
        assertThat(adopted.get("latencyThresholdMs").asInt()).isEqualTo(25);
        assertThat(adopted.get("ioImbalanceThreshold").asInt()).isEqualTo(12);
        assertThat(adopted.get("ioLoadBalanceEnabled").asBoolean()).isFalse();
        assertThat(adopted.get("ioAutomationLevel").asText()).isEqualTo("manual");
        assertThat(adopted.get("spaceAutomationLevel").asText()).isEqualTo("inherit");
        assertThat(adopted.get("evacuationAutomationLevel").asText()).isEqualTo("manual");
        assertThat(adopted.get("ruleAutomationLevel").asText()).isEqualTo("inherit");
        assertThat(adopted.get("loadBalanceIntervalMinutes").asInt()).as("the product's own run interval").isEqualTo(960);
        io.opensdrs.balance.BalancingSettings engine = policies.balancingSettings(podId());
        assertThat(engine.ioLatencyThresholdMs()).isEqualTo(25);
        assertThat(engine.ioLoadBalanceEnabled()).isFalse();
        assertThat(engine.spaceUtilizationThreshold()).isEqualTo(0.70);

        // changed through the server (the plugin's Settings page): vCenter holds every value first, then the server
        Map<String, Object> body = settingsBody(api, settings);
        body.put("automationLevel", "manual");
        body.put("spaceThresholdMode", "freeSpace");
        body.put("freeSpaceThresholdGb", 40);
        body.put("spaceThresholdPct", 75);
        body.put("latencyThresholdMs", 20);
        body.put("ioLoadBalanceEnabled", true);
        body.put("spaceAutomationLevel", "automated");
        body.put("ioAutomationLevel", "inherit");
        body.put("ruleAutomationLevel", "automated");
        body.put("evacuationAutomationLevel", "inherit");
        body.put("congestionAlpha", 0.8);
        JsonNode saved = api.call(HttpMethod.PUT, settings, body, 200);
        assertThat(saved.get("latencyThresholdMs").asInt()).isEqualTo(20);
        JsonNode pod = heldPodConfig();
        assertThat(pod.get("defaultVmBehavior").asText()).isEqualTo("manual");
        assertThat(pod.get("ioLoadBalanceEnabled").asBoolean()).isTrue();
        assertThat(pod.at("/spaceLoadBalanceConfig/spaceThresholdMode").asText()).isEqualTo("freeSpace");
        assertThat(pod.at("/spaceLoadBalanceConfig/freeSpaceThresholdGB").asInt()).isEqualTo(40);
        assertThat(pod.at("/spaceLoadBalanceConfig/spaceUtilizationThreshold").asInt()).isEqualTo(75);
        assertThat(pod.at("/spaceLoadBalanceConfig/minSpaceUtilizationDifference").asInt()).as("kept from before").isEqualTo(9);
        assertThat(pod.at("/ioLoadBalanceConfig/ioLatencyThreshold").asInt()).isEqualTo(20);
        assertThat(pod.at("/ioLoadBalanceConfig/ioLoadImbalanceThreshold").asInt()).isEqualTo(12);
        assertThat(pod.at("/automationOverrides/spaceLoadBalanceAutomationMode").asText()).isEqualTo("automated");
        assertThat(pod.at("/automationOverrides/ioLoadBalanceAutomationMode").asText("")).as("inherit: no mode").isEmpty();
        assertThat(pod.at("/automationOverrides/ruleEnforcementAutomationMode").asText()).isEqualTo("automated");
        assertThat(pod.at("/automationOverrides/vmEvacuationAutomationMode").asText("")).as("inherit: no mode").isEmpty();
        // the sync that follows vCenter's change leaves the server as saved
        fullSync();
        JsonNode after = api.call(HttpMethod.GET, settings, null, 200);
        assertThat(after.get("automationLevel").asText()).isEqualTo("manual");
        assertThat(after.get("spaceThresholdMode").asText()).isEqualTo("freeSpace");
        assertThat(after.get("ioAutomationLevel").asText()).isEqualTo("inherit");
        assertThat(after.get("ruleAutomationLevel").asText()).isEqualTo("automated");
        assertThat(after.get("evacuationAutomationLevel").asText()).isEqualTo("inherit");
        assertThat(after.get("congestionAlpha").asDouble()).isEqualTo(0.8);

        // back to the documented defaults, in vCenter too, for the other tests of this class
        body = settingsBody(api, settings);
        body.putAll(Map.of("spaceThresholdMode", "utilization", "freeSpaceThresholdGb", 50, "spaceThresholdPct", 80,
                "minSpaceDifferencePct", 5, "latencyThresholdMs", 15, "ioImbalanceThreshold", 5, "spaceAutomationLevel", "inherit",
                "ruleAutomationLevel", "inherit",
                "congestionAlpha", 0.9));
        api.call(HttpMethod.PUT, settings, body, 200);
        assertThat(heldPodConfig().at("/spaceLoadBalanceConfig/spaceUtilizationThreshold").asInt()).isEqualTo(80);
    }

    /**
     * Administrators saving the settings at the same moment: each change is applied whole, one after
     * another, and none is told that vCenter refused it because it read back another's value.
     */
    @Test
    void settingsSavedAtOnceAreAppliedOneAfterAnother() throws Exception {
        fullSync();
        String pod1 = jdbc.queryForObject("SELECT moid FROM datastore_cluster WHERE name = 'POD1'", String.class);
        String settings = "/api/v1/clusters/" + pod1 + "/settings";
        AdminApi api = new AdminApi(rest);
        Map<String, Object> body = settingsBody(api, settings);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < 3; round++) {
                List<java.util.concurrent.Future<org.springframework.http.ResponseEntity<String>>> answers = new java.util.ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    Map<String, Object> mine = new HashMap<>(body);
                    mine.put("spaceThresholdPct", 70 + round * 6 + i);
                    org.springframework.http.HttpHeaders h = new org.springframework.http.HttpHeaders();
                    h.setContentType(org.springframework.http.MediaType.APPLICATION_JSON);
                    String json = JSON.writeValueAsString(mine);
                    answers.add(pool.submit(() -> api.rest().exchange(settings, HttpMethod.PUT,
                            new org.springframework.http.HttpEntity<>(json, h), String.class)));
                }
                for (java.util.concurrent.Future<org.springframework.http.ResponseEntity<String>> a : answers) {
                    org.springframework.http.ResponseEntity<String> r = a.get(60, java.util.concurrent.TimeUnit.SECONDS);
                    assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(200);
                }
                int stored = api.call(HttpMethod.GET, settings, null, 200).get("spaceThresholdPct").asInt();
                assertThat(heldPodConfig("POD1").at("/spaceLoadBalanceConfig/spaceUtilizationThreshold").asInt())
                        .as("vCenter holds what the server stored").isEqualTo(stored);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The names of the pod's VM anti-affinity rules as vCenter holds them, read from outside with govc. */
    List<String> heldVmAntiAffinityRules() throws Exception {
        String podRef = vcsim.govc("find", "-i", "/", "-type", "StoragePod", "-name", "POD0").strip();
        List<String> names = new java.util.ArrayList<>();
        JSON.readTree(vcsim.govc("object.collect", "-json", podRef, "podStorageDrsEntry.storageDrsConfig"))
                .at("/0/val/podConfig/rule").forEach(r -> names.add(r.get("name").asText()));
        return names;
    }

    @Test
    void vmAntiAffinityRulesAreCreatedAndRemovedInVCenterThroughTheApi() throws Exception {
        fullSync();
        String a = FaithfulVcsim.moid(vcsim, "m", "a");
        String pair = FaithfulVcsim.moid(vcsim, "m", "pair");
        String doomed = FaithfulVcsim.moid(vcsim, "m", "doomed");
        String rules = "/api/v1/clusters/" + podId() + "/rules";
        AdminApi api = new AdminApi(rest);
        List<String> before = heldVmAntiAffinityRules();

        // bad input: 400 naming the field, and vCenter is not asked
        Object[][] bad = {
                {Map.of("kind", "vmAntiAffinity", "name", " ", "vmIds", List.of(a, pair)), "name"},
                {Map.of("kind", "hostAffinity", "name", "x", "vmIds", List.of(a, pair)), "kind"},
                {Map.of("kind", "vmAntiAffinity", "name", "x", "vmIds", List.of(a, pair), "vmId", a), "vmId"},
                {Map.of("kind", "vmAntiAffinity", "name", "x", "vmIds", List.of(a)), "vmIds"},
                {Map.of("kind", "vmAntiAffinity", "name", "x", "vmIds", List.of(a, a)), "vmIds[1]"},
                {Map.of("kind", "vmAntiAffinity", "name", "x", "vmIds", List.of(a, "vm-99999")), "vmIds[1]"},
                {Map.of("kind", "vmAntiAffinity", "name", "x", "vmIds", List.of(a, "not a moid!")), "vmIds[1]"},
                {Map.of("kind", "vmAntiAffinity", "name", "x".repeat(81), "vmIds", List.of(a, pair)), "name"}};
        for (Object[] c : bad) {
            JsonNode problem = api.call(HttpMethod.POST, rules, c[0], 400);
            assertThat(problem.path("field").asText()).as(c[0] + " -> " + problem).isEqualTo(c[1]);
        }
        assertThat(api.call(HttpMethod.DELETE, rules + "/intraVmAffinity:" + pair, null, 400).path("field").asText()).isEqualTo("ruleId");
        api.call(HttpMethod.DELETE, rules + "/vmAntiAffinity:no-such-rule", null, 404);
        assertThat(heldVmAntiAffinityRules()).isEqualTo(before);

        // created: vCenter holds it (read with govc), the answer and the engine have it
        JsonNode created = api.call(HttpMethod.POST, rules, Map.of("kind", "vmAntiAffinity", "name", "keep-apart",
                "vmIds", List.of(a, pair)), 201);
        assertThat(created.get("id").asText()).isEqualTo("vmAntiAffinity:keep-apart");
        assertThat(created.get("members").toString()).contains("\"a\"", "\"pair\"");
        assertThat(heldVmAntiAffinityRules()).contains("keep-apart");
        assertThat(assembler.assemble(podId()).state().rules()).contains(new Rule.VmAntiAffinity("keep-apart", Set.of(a, pair)));
        assertThat(api.call(HttpMethod.POST, rules, Map.of("kind", "vmAntiAffinity", "name", "keep-apart",
                "vmIds", List.of(a, pair)), 400).path("field").asText()).isEqualTo("name");

        // vCenter refuses a VM it no longer has (destroyed there, not yet synced here): 502 naming the field, no rule
        vcsim.govc("vm.destroy", "doomed");
        JsonNode refused = api.call(HttpMethod.POST, rules, Map.of("kind", "vmAntiAffinity", "name", "with-doomed",
                "vmIds", List.of(a, doomed)), 502);
        assertThat(refused.path("field").asText()).isEqualTo("name");
        assertThat(refused.path("detail").asText()).contains("InvalidArgument");
        assertThat(heldVmAntiAffinityRules()).doesNotContain("with-doomed");

        // removed: gone from vCenter and from what the API and the engine see
        api.call(HttpMethod.DELETE, rules + "/vmAntiAffinity:keep-apart", null, 204);
        assertThat(heldVmAntiAffinityRules()).doesNotContain("keep-apart").isEqualTo(before);
        assertThat(api.call(HttpMethod.GET, rules, null, 200).toString()).doesNotContain("keep-apart");
        assertThat(assembler.assemble(podId()).state().rules()).extracting(Rule::name).doesNotContain("keep-apart");
    }

    /** The VM's entry in the pod's vmConfig as vCenter holds it, read from outside with govc (missing when it has none). */
    JsonNode heldVmConfig(String vmId) throws Exception {
        String podRef = vcsim.govc("find", "-i", "/", "-type", "StoragePod", "-name", "POD0").strip();
        for (JsonNode v : JSON.readTree(vcsim.govc("object.collect", "-json", podRef, "podStorageDrsEntry.storageDrsConfig"))
                .at("/0/val/vmConfig")) {
            if (v.at("/vm/value").asText().equals(vmId)) {
                return v;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    @Test
    void vmdkAntiAffinityRulesAreCreatedAndRemovedInVCenterThroughTheApi() throws Exception {
        fullSync();
        String twins = FaithfulVcsim.moid(vcsim, "m", "twins");
        String a = FaithfulVcsim.moid(vcsim, "m", "a");
        List<Integer> keys = jdbc.queryForList("SELECT disk_key FROM virtual_disk WHERE vm_moid = ? ORDER BY disk_key", Integer.class, twins);
        assertThat(keys).hasSize(3);
        String rules = "/api/v1/clusters/" + podId() + "/rules";
        AdminApi api = new AdminApi(rest);
        assertThat(heldVmConfig(twins).isMissingNode()).isTrue();

        // bad input: 400 naming the field, and vCenter is not asked
        Object[][] bad = {
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "diskKeys", keys), "vmId"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "vmId", twins, "diskKeys", List.of(keys.get(0))), "diskKeys"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "vmId", twins), "diskKeys"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "vmId", twins, "diskKeys", List.of(keys.get(0), 9999)),
                        "diskKeys[1]"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "vmId", twins, "diskKeys", List.of(keys.get(0), keys.get(0))),
                        "diskKeys[1]"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "vmId", "vm-99999", "diskKeys", keys), "vmId"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "apart", "vmId", twins, "diskKeys", keys, "vmIds", List.of(a, twins)),
                        "vmIds"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "", "vmId", twins, "diskKeys", keys), "name"}};
        for (Object[] c : bad) {
            JsonNode problem = api.call(HttpMethod.POST, rules, c[0], 400);
            assertThat(problem.path("field").asText()).as(c[0] + " -> " + problem).isEqualTo(c[1]);
        }
        api.call(HttpMethod.DELETE, rules + "/vmdkAntiAffinity:" + twins, null, 404);
        assertThat(heldVmConfig(twins).isMissingNode()).as("vCenter was not asked").isTrue();

        // created over two of the three disks: vCenter holds it in the VM's own settings, the answer and the engine have it
        JsonNode created = api.call(HttpMethod.POST, rules, Map.of("kind", "vmdkAntiAffinity", "name", "twins-apart",
                "vmId", twins, "diskKeys", keys.subList(0, 2)), 201);
        assertThat(created.get("id").asText()).isEqualTo("vmdkAntiAffinity:" + twins);
        assertThat(created.get("members").toString()).contains("twins/disk1.vmdk", "twins/disk2.vmdk").doesNotContain("disk3");
        JsonNode held = heldVmConfig(twins);
        assertThat(held.at("/intraVmAntiAffinity/name").asText()).isEqualTo("twins-apart");
        assertThat(held.at("/intraVmAntiAffinity/diskId").toString()).isEqualTo(JSON.writeValueAsString(keys.subList(0, 2)));
        assertThat(held.at("/intraVmAffinity").asBoolean(true)).as("disks kept apart are not kept together").isFalse();
        assertThat(assembler.assemble(podId()).state().rules()).contains(new Rule.VmdkAntiAffinity("twins-apart", twins,
                Set.of(twins + "/" + keys.get(0), twins + "/" + keys.get(1))));
        assertThat(api.call(HttpMethod.POST, rules, Map.of("kind", "vmdkAntiAffinity", "name", "again", "vmId", twins,
                "diskKeys", keys), 400).path("field").asText()).as("a VM holds one such rule").isEqualTo("vmId");

        // removed: the rule goes, the VM's other settings in vCenter stay
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "twins=manual")).contains("OK");
        api.call(HttpMethod.DELETE, rules + "/vmdkAntiAffinity:" + twins, null, 204);
        held = heldVmConfig(twins);
        assertThat(held.has("intraVmAntiAffinity")).as(held.toString()).isFalse();
        assertThat(held.at("/behavior").asText()).isEqualTo("manual");
        assertThat(held.at("/intraVmAffinity").asBoolean(true)).isFalse();
        assertThat(api.call(HttpMethod.GET, rules, null, 200).toString()).doesNotContain("twins-apart");
        assertThat(assembler.assemble(podId()).state().rules()).extracting(Rule::name).doesNotContain("twins-apart");

        // twins back as it began, for the other tests of this class
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "twins=default")).contains("OK");
        fullSync();
    }

    @Test
    void aVmsOwnKeepTogetherIsSetAndClearedInVCenterThroughTheApi() throws Exception {
        fullSync();
        String twins = FaithfulVcsim.moid(vcsim, "m", "twins");
        List<Integer> keys = jdbc.queryForList("SELECT disk_key FROM virtual_disk WHERE vm_moid = ? ORDER BY disk_key", Integer.class, twins);
        String rules = "/api/v1/clusters/" + podId() + "/rules";
        AdminApi api = new AdminApi(rest);
        assertThat(heldVmConfig(twins).isMissingNode()).isTrue();

        // bad input: 400 naming the field, and vCenter is not asked
        Object[][] bad = {
                {Map.of("kind", "intraVmAffinity", "vmId", twins), "enabled"},
                {Map.of("kind", "intraVmAffinity", "enabled", false), "vmId"},
                {Map.of("kind", "intraVmAffinity", "vmId", "vm-99999", "enabled", false), "vmId"},
                {Map.of("kind", "intraVmAffinity", "vmId", twins, "enabled", false, "name", "x"), "name"},
                {Map.of("kind", "vmdkAntiAffinity", "name", "x", "vmId", twins, "diskKeys", keys, "enabled", true), "enabled"}};
        for (Object[] c : bad) {
            JsonNode problem = api.call(HttpMethod.POST, rules, c[0], 400);
            assertThat(problem.path("field").asText()).as(c[0] + " -> " + problem).isEqualTo(c[1]);
        }
        api.call(HttpMethod.DELETE, rules + "/intraVmAffinity:" + twins, null, 404);
        assertThat(heldVmConfig(twins).isMissingNode()).as("vCenter was not asked").isTrue();

        // false: vCenter holds it, and the engine lets twins' disks move apart while the cluster keeps VMDKs together
        JsonNode set = api.call(HttpMethod.POST, rules, Map.of("kind", "intraVmAffinity", "vmId", twins, "enabled", false), 201);
        assertThat(set.get("id").asText()).isEqualTo("intraVmAffinity:" + twins);
        assertThat(set.get("enabled").asBoolean()).isFalse();
        assertThat(heldVmConfig(twins).at("/intraVmAffinity").asBoolean(true)).isFalse();
        assertThat(vmState(twins).keepTogether()).isFalse();
        // true: the entry is edited
        api.call(HttpMethod.POST, rules, Map.of("kind", "intraVmAffinity", "vmId", twins, "enabled", true), 201);
        assertThat(heldVmConfig(twins).at("/intraVmAffinity").asBoolean(false)).isTrue();
        assertThat(vmState(twins).keepTogether()).isTrue();

        // cleared: twins follows the cluster's default again, and its automation set in vCenter stays
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "twins=automated")).contains("OK");
        api.call(HttpMethod.DELETE, rules + "/intraVmAffinity:" + twins, null, 204);
        JsonNode held = heldVmConfig(twins);
        assertThat(held.has("intraVmAffinity")).as(held.toString()).isFalse();
        assertThat(held.at("/behavior").asText()).isEqualTo("automated");
        assertThat(api.call(HttpMethod.GET, rules, null, 200).toString()).doesNotContain("intraVmAffinity:" + twins);
        assertThat(vmState(twins).keepTogether()).isNull();

        // a VM whose disks a VMDK anti-affinity rule keeps apart cannot be kept together, nor given the default
        api.call(HttpMethod.POST, rules, Map.of("kind", "vmdkAntiAffinity", "name", "twins-apart", "vmId", twins,
                "diskKeys", keys.subList(0, 2)), 201);
        assertThat(api.call(HttpMethod.POST, rules, Map.of("kind", "intraVmAffinity", "vmId", twins, "enabled", true), 400)
                .path("field").asText()).isEqualTo("vmId");
        assertThat(api.call(HttpMethod.DELETE, rules + "/intraVmAffinity:" + twins, null, 400).path("field").asText()).isEqualTo("ruleId");
        api.call(HttpMethod.DELETE, rules + "/vmdkAntiAffinity:" + twins, null, 204);

        // twins back as it began, for the other tests of this class
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "twins=default")).contains("OK");
        fullSync();
    }

    VmState vmState(String vmId) {
        return assembler.assemble(podId()).state().vms().stream().filter(v -> v.id().equals(vmId)).findFirst().orElseThrow();
    }

    @Test
    void aVmsAutomationIsOneValueHeldInVCenterAndByTheServer() throws Exception {
        String pinned = FaithfulVcsim.moid(vcsim, "m", "pinned");
        String careful = FaithfulVcsim.moid(vcsim, "m", "careful");
        String settings = "/api/v1/clusters/" + podId() + "/settings";
        AdminApi api = new AdminApi(rest);

        // set in vCenter (the vSphere Client's VM Overrides): the sync makes them the server's
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "pinned=disabled")).contains("OK");
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "careful=manual")).contains("OK");
        assertThat(heldVmConfig(pinned).path("enabled").asBoolean(true)).isFalse();
        assertThat(heldVmConfig(careful).path("behavior").asText()).isEqualTo("manual");
        fullSync();
        assertThat(automationOf(pinned)).isEqualTo(VmOverride.EXCLUDED);
        assertThat(automationOf(careful)).isEqualTo(VmOverride.MANUAL);
        assertThat(shownAutomation(api)).containsEntry("pinned", "excluded").containsEntry("careful", "manual");
        Map<String, Object> body = settingsBody(api, settings);
        assertThat(body.get("vmOverrides").toString()).contains(pinned + ", behavior=excluded", careful + ", behavior=manual");

        // bad entries: 400 naming the field before vCenter is asked; vCenter and the server unchanged
        String[][] bad = {{"[{\"vmId\": \"" + careful + "\", \"behavior\": \"sometimes\"}]", "vmOverrides[0].behavior"},
                {"[{\"vmId\": \"vm-99999\", \"behavior\": \"manual\"}]", "vmOverrides[0].vmId"},
                {"[{\"vmId\": \"" + careful + "\", \"behavior\": \"manual\"}, {\"vmId\": \"" + careful
                        + "\", \"behavior\": \"automated\"}]", "vmOverrides[1].vmId"}};
        for (String[] b : bad) {
            Map<String, Object> wrong = new HashMap<>(body);
            wrong.put("vmOverrides", JSON.readValue(b[0], List.class));
            assertThat(api.call(HttpMethod.PUT, settings, wrong, 400).path("field").asText()).as(b[0]).isEqualTo(b[1]);
        }
        assertThat(heldVmConfig(pinned).path("enabled").asBoolean(true)).isFalse();
        assertThat(heldVmConfig(careful).path("behavior").asText()).isEqualTo("manual");
        assertThat(automationOf(careful)).isEqualTo(VmOverride.MANUAL);

        // set through the API: vCenter holds it, then the server; pinned, left out, follows the cluster again
        api.call(HttpMethod.POST, "/api/v1/clusters/" + podId() + "/rules",
                Map.of("kind", "intraVmAffinity", "vmId", careful, "enabled", false), 201);
        body.put("vmOverrides", List.of(Map.of("vmId", careful, "behavior", "automated")));
        api.call(HttpMethod.PUT, settings, body, 200);
        assertThat(heldVmConfig(careful).path("behavior").asText()).isEqualTo("automated");
        assertThat(heldVmConfig(careful).path("intraVmAffinity").asBoolean(true)).isFalse(); // its keep-together stays
        assertThat(heldVmConfig(pinned).isMissingNode()).isTrue();
        assertThat(automationOf(careful)).isEqualTo(VmOverride.AUTOMATED);
        assertThat(automationOf(pinned)).isEqualTo(VmOverride.DEFAULT);
        assertThat(shownAutomation(api)).containsEntry("careful", "automated").doesNotContainKey("pinned");
        fullSync(); // the next sync reads the same
        assertThat(automationOf(careful)).isEqualTo(VmOverride.AUTOMATED);
        assertThat(automationOf(pinned)).isEqualTo(VmOverride.DEFAULT);

        // excluded through the API is the client's "Disabled"
        body.put("vmOverrides", List.of(Map.of("vmId", pinned, "behavior", "excluded"), Map.of("vmId", careful, "behavior", "automated")));
        api.call(HttpMethod.PUT, settings, body, 200);
        assertThat(heldVmConfig(pinned).path("enabled").asBoolean(true)).isFalse();
        assertThat(heldVmConfig(careful).path("behavior").asText()).isEqualTo("automated");
        assertThat(automationOf(pinned)).isEqualTo(VmOverride.EXCLUDED);

        // vCenter's change after the server's wins at the next sync
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-behavior", "pinned=manual")).contains("OK");
        fullSync();
        assertThat(automationOf(pinned)).isEqualTo(VmOverride.MANUAL);

        // all back to the cluster's: no entry left in vCenter once careful's keep-together is cleared too
        body.put("vmOverrides", List.of());
        api.call(HttpMethod.PUT, settings, body, 200);
        api.call(HttpMethod.DELETE, "/api/v1/clusters/" + podId() + "/rules/intraVmAffinity:" + careful, null, 204);
        assertThat(heldVmConfig(pinned).isMissingNode()).isTrue();
        assertThat(heldVmConfig(careful).isMissingNode()).isTrue();
        assertThat(automationOf(pinned)).isEqualTo(VmOverride.DEFAULT);
        assertThat(automationOf(careful)).isEqualTo(VmOverride.DEFAULT);
    }

    /**
     * A destroyed VM's override and service class go with it: vCenter drops its vmConfig, the server its rows;
     * and it leaves the VM anti-affinity rules it was in, a rule left with one VM going altogether.
     */
    @Test
    void aVmDestroyedInVCenterLeavesNoOverrideBehind() throws Exception {
        String fleeting = FaithfulVcsim.moid(vcsim, "m", "fleeting");
        String twins = FaithfulVcsim.moid(vcsim, "m", "twins");
        String careful = FaithfulVcsim.moid(vcsim, "m", "careful");
        String settings = "/api/v1/clusters/" + podId() + "/settings";
        String rules = "/api/v1/clusters/" + podId() + "/rules";
        AdminApi api = new AdminApi(rest);
        fullSync();
        api.call(HttpMethod.POST, rules, Map.of("kind", "vmAntiAffinity", "name", "trio", "vmIds", List.of(fleeting, twins, careful)), 201);
        api.call(HttpMethod.POST, rules, Map.of("kind", "vmAntiAffinity", "name", "duo", "vmIds", List.of(fleeting, careful)), 201);
        Map<String, Object> body = settingsBody(api, settings);
        body.put("serviceClasses", List.of(Map.of("id", "brief", "deliveryBoundMs", 10.0, "demandBoundIops", 100.0,
                "demandBoundBytesPerSecond", 1.0e6)));
        body.put("vmOverrides", List.of(Map.of("vmId", fleeting, "behavior", "manual", "serviceClass", "brief")));
        api.call(HttpMethod.PUT, settings, body, 200);
        assertThat(heldVmConfig(fleeting).path("behavior").asText()).isEqualTo("manual");
        assertThat(shownAutomation(api)).containsEntry("fleeting", "manual");

        vcsim.govc("vm.destroy", "fleeting");
        long deadline = System.currentTimeMillis() + 10_000;
        while (!heldVmConfig(fleeting).isMissingNode() && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(heldVmConfig(fleeting).isMissingNode()).as("vCenter drops a destroyed VM's Storage DRS settings").isTrue();
        sync.incrementalSync();
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/vm-overrides", null, 200).toString())
                .as("no override left for a VM that is gone").doesNotContain(fleeting);
        assertThat(api.call(HttpMethod.GET, settings, null, 200).get("vmOverrides").toString()).doesNotContain(fleeting);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM vm_service_class WHERE vm_moid = ?", Long.class, fleeting)).isZero();
        assertThat(heldVmAntiAffinityRules()).as("vCenter keeps the rule that still has two VMs").contains("trio").doesNotContain("duo");
        Map<String, List<String>> members = new HashMap<>();
        api.call(HttpMethod.GET, rules, null, 200).forEach(r -> {
            if (r.get("kind").asText().equals("vmAntiAffinity")) {
                members.put(r.get("name").asText(), JSON.convertValue(r.get("members"), List.class));
            }
        });
        assertThat(members).containsEntry("trio", List.of("twins", "careful")).doesNotContainKey("duo");
        assertThat(assembler.assemble(podId()).state().rules()).contains(new Rule.VmAntiAffinity("trio", Set.of(twins, careful)))
                .extracting(Rule::name).doesNotContain("duo");
        fullSync();
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/vm-overrides", null, 200).toString()).doesNotContain(fleeting);
        api.call(HttpMethod.DELETE, rules + "/vmAntiAffinity:trio", null, 204);

        Map<String, Object> after = settingsBody(api, settings);
        after.put("serviceClasses", List.of());
        api.call(HttpMethod.PUT, settings, after, 200);
    }

    /** VM name → automation level, as GET vm-overrides shows it. */
    Map<String, String> shownAutomation(AdminApi api) throws Exception {
        Map<String, String> shown = new HashMap<>();
        api.call(HttpMethod.GET, "/api/v1/clusters/" + podId() + "/vm-overrides", null, 200)
                .forEach(o -> shown.put(o.get("vmName").asText(), o.get("automationLevel").asText()));
        shown.values().removeIf("default"::equals);
        return shown;
    }

    /** The cluster's settings as GET answers them, as a PUT body to change. */
    static Map<String, Object> settingsBody(AdminApi api, String settings) throws Exception {
        Map<String, Object> body = new HashMap<>();
        api.call(HttpMethod.GET, settings, null, 200).properties()
                .forEach(e -> body.put(e.getKey(), JSON.convertValue(e.getValue(), Object.class)));
        return body;
    }

    VmOverride automationOf(String vm) {
        return assembler.assemble(podId()).state().vms().stream().filter(v -> v.id().equals(vm)).findFirst().orElseThrow().override();
    }
}
