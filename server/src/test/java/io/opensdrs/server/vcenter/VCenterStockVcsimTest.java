package io.opensdrs.server.vcenter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.vsphere.GoTool;
import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.VcsimProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance 1: the server against the unmodified stock vcsim v0.46.3 (a separate process):
 * inventory sync through {@link InventorySync}, a whole-VM relocation through the migration
 * applier, and the plugin registration — each checked with govc.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.migration.poll-interval=PT0.2S",
        "sdrs.plugin.manifest-url=https://sdrs.example.com:8443/ui/plugin.json",
        "sdrs.plugin.server-thumbprint=AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD",
        "sdrs.plugin.version=0.1.0",
})
class VCenterStockVcsimTest {

    static VcsimProcess vcsim;
    static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = VcsimProcess.start(GoTool.binary("vcsim"), "-pod", "1", "-ds", "3", "-username", "sdrs", "-password", "sdrs-pass");
        r.add("sdrs.data-dir", () -> tempDir());
        r.add("sdrs.vcenter.url", () -> vcsim.sdkUrl().toString());
        r.add("sdrs.vcenter.user", vcsim::user);
        r.add("sdrs.vcenter.password", vcsim::password);
        r.add("sdrs.vcenter.insecure", () -> "true");
    }

    static String tempDir() {
        try {
            return Files.createTempDirectory("sdrs-stock-").toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired JdbcTemplate jdbc;
    @Autowired TestRestTemplate rest;
    @Autowired PluginRegistration plugin;
    @Autowired PluginProperties pluginProperties;
    @Autowired VSphereClient client;

    JsonNode call(HttpMethod method, String path, Object body, int expected) throws Exception {
        return new AdminApi(rest).call(method, path, body, expected);
    }

    static Set<String> govcNames(String type) throws Exception {
        return new HashSet<>(vcsim.govc("find", "/", "-type", type).lines().map(l -> l.substring(l.lastIndexOf('/') + 1)).toList());
    }

    static String moid(String path) throws Exception {
        String name = path.substring(path.lastIndexOf('/') + 1);
        String ref = vcsim.govc("find", "-i", path.substring(0, path.lastIndexOf('/')), "-name", name).strip();
        return ref.substring(ref.indexOf(':') + 1);
    }

    void fullSync() {
        // the scheduled first sync may be running at start-up; a full sync replaces everything, so retry once
        try {
            sync.fullSync();
        } catch (RuntimeException e) {
            sync.fullSync();
        }
    }

    @Test
    void inventorySyncStoresWhatGovcShows() throws Exception {
        fullSync();
        assertThat(new HashSet<>(jdbc.queryForList("SELECT name FROM vm", String.class))).isEqualTo(govcNames("m"));
        assertThat(new HashSet<>(jdbc.queryForList("SELECT name FROM datastore", String.class))).isEqualTo(govcNames("s"));
        assertThat(new HashSet<>(jdbc.queryForList("SELECT name FROM host", String.class))).isEqualTo(govcNames("h"));
        assertThat(jdbc.queryForList("SELECT name FROM datastore_cluster", String.class)).containsExactly("DC0_POD0");
        JsonNode ds = JSON.readTree(vcsim.govc("datastore.info", "-json", "LocalDS_0")).at("/datastores/0/summary");
        Map<String, Object> row = jdbc.queryForMap("SELECT moid, capacity_bytes, free_bytes FROM datastore WHERE name = 'LocalDS_0'");
        assertThat(((Number) row.get("capacity_bytes")).longValue()).isEqualTo(ds.get("capacity").asLong());
        assertThat(((Number) row.get("free_bytes")).longValue()).isEqualTo(ds.get("freeSpace").asLong());
        assertThat(row.get("moid")).isEqualTo(moid("/DC0/datastore/LocalDS_0"));
        // every disk's backing file as govc lists it
        JsonNode devices = JSON.readTree(vcsim.govc("device.info", "-json", "-vm", "DC0_H0_VM0", "disk-*"));
        String govcFile = devices.at("/devices/0/backing/fileName").asText();
        assertThat(jdbc.queryForList("SELECT d.file_name FROM virtual_disk d JOIN vm v ON v.moid = d.vm_moid WHERE v.name = 'DC0_H0_VM0'",
                String.class)).containsExactly(govcFile);

        // incremental: a VM renamed and one destroyed with govc reach the store without a full sync
        String renamed = moid("/DC0/vm/DC0_C0_RP0_VM0");
        String destroyed = moid("/DC0/vm/DC0_C0_RP0_VM1");
        vcsim.govc("object.rename", "/DC0/vm/DC0_C0_RP0_VM0", "renamed-vm");
        vcsim.govc("vm.destroy", "/DC0/vm/DC0_C0_RP0_VM1");
        InventorySync.Result r = sync.incrementalSync();
        assertThat(r.kind()).isEqualTo("incremental");
        assertThat(r.removed()).isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT name FROM vm WHERE moid = ?", String.class, renamed)).containsExactly("renamed-vm");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM vm WHERE moid = ?", Long.class, destroyed)).isZero();
        assertThat(new HashSet<>(jdbc.queryForList("SELECT name FROM vm", String.class))).isEqualTo(govcNames("m"));
    }

    @Test
    void wholeVmRelocationThroughTheApplier() throws Exception {
        String vm = moid("/DC0/vm/DC0_H0_VM1");
        String ds0 = moid("/DC0/datastore/LocalDS_0");
        String ds2 = moid("/DC0/datastore/LocalDS_2");
        String pod = moid("/DC0/datastore/DC0_POD0");
        // Storage DRS moves within a datastore cluster: both datastores go into the pod, as an administrator puts them
        // (stock vcsim cannot move them out again; moid() finds them inside it)
        vcsim.govc("object.mv", "/DC0/datastore/LocalDS_0", "/DC0/datastore/LocalDS_2", "/DC0/datastore/DC0_POD0");
        fullSync();
        assertThat(vcsim.govc("object.collect", "-s", "/DC0/vm/DC0_H0_VM1", "datastore").strip()).isEqualTo("Datastore:" + ds0);

        JsonNode rec = call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/recommendations", Map.of("reasonCode", "storagePlacement",
                "moves", List.of(Map.of("vmId", vm, "destinationDatastoreId", ds2))), 201);
        long id = rec.get("id").asLong();
        assertThat(rec.get("state").asText()).isEqualTo("PENDING");
        call(HttpMethod.POST, "/api/v1/recommendations/" + id + "/apply", null, 200);
        JsonNode done = awaitEnd(id);
        assertThat(done.get("state").asText()).as(done.toString()).isEqualTo("APPLIED");
        assertThat(done.at("/actions/0/state").asText()).isEqualTo("SUCCEEDED");
        String task = done.at("/actions/0/taskId").asText();
        assertThat(task).startsWith("task-");

        // govc: the VM now lives on LocalDS_2 (stock vcsim rewrites vm.datastore only)
        assertThat(vcsim.govc("object.collect", "-s", "/DC0/vm/DC0_H0_VM1", "datastore").strip()).isEqualTo("Datastore:" + ds2);
        assertThat(vcsim.govc("object.collect", "-s", "Task:" + task, "info.state").strip()).isEqualTo("success");
        // the read the applier uses to re-attach after a crash finds the task on the VM
        assertThat(client.recentTasks(vm)).filteredOn(RecentTask::isRelocation).extracting(RecentTask::taskId).contains(task);
    }

    @Test
    void pluginRegistrationIsVisibleWithGovcAndUpdatedWhenTheVersionChanges() throws Exception {
        assertThat(plugin.outcome()).isIn("registered", "unchanged");
        JsonNode ext = JSON.readTree(vcsim.govc("extension.info", "-json", "io.opensdrs.plugin")).at("/extensions/0");
        assertThat(ext.get("key").asText()).isEqualTo("io.opensdrs.plugin");
        assertThat(ext.get("version").asText()).isEqualTo("0.1.0");
        assertThat(ext.at("/client/0/type").asText()).isEqualTo("vsphere-client-remote");
        assertThat(ext.at("/client/0/url").asText()).isEqualTo("https://sdrs.example.com:8443/ui/plugin.json");
        assertThat(ext.at("/server/0/type").asText()).isEqualTo("MANIFEST_SERVER");
        assertThat(ext.at("/server/0/serverThumbprint").asText()).isEqualTo("AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD");

        plugin.onReady(); // a restart with the same version changes nothing
        assertThat(plugin.outcome()).isEqualTo("unchanged");
        pluginProperties.setVersion("0.2.0");
        try {
            plugin.onReady(); // a restart with a new version updates the registration
            assertThat(plugin.outcome()).isEqualTo("updated");
            JsonNode updated = JSON.readTree(vcsim.govc("extension.info", "-json", "io.opensdrs.plugin")).at("/extensions/0");
            assertThat(updated.get("version").asText()).isEqualTo("0.2.0");
            assertThat(updated.at("/client/0/version").asText()).isEqualTo("0.2.0");
        } finally {
            pluginProperties.setVersion("0.1.0");
        }
    }

    JsonNode awaitEnd(long id) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        JsonNode r;
        do {
            Thread.sleep(200);
            r = call(HttpMethod.GET, "/api/v1/recommendations/" + id, null, 200);
        } while (("APPLYING".equals(r.get("state").asText()) || "PENDING".equals(r.get("state").asText()))
                && System.currentTimeMillis() < deadline);
        return r;
    }
}
