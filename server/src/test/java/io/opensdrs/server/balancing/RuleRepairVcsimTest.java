package io.opensdrs.server.balancing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.migration.FaithfulVcsim;
import io.opensdrs.server.migration.ServerAgainstVcsim;
import io.opensdrs.server.vsphere.VcsimProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules an administrator makes in vCenter over VMs and disks already placed together (our
 * simulator's ConfigureStorageDrsForPod_Task through {@code vcsim sdrs-rule}) are fixed by the
 * next Storage DRS run: its recommendations, applied, relocate the disks in vCenter so that every
 * rule holds — read from outside with govc — and a further run finds nothing to fix.
 */
@ServerAgainstVcsim
class RuleRepairVcsimTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static VcsimProcess vcsim;

    /**
     * a and b on ds1, against their VM anti-affinity rule; pair's two disks on ds1, against its
     * VMDK anti-affinity rule; spread's disks on ds2 and ds3, though it keeps them together; astray's
     * only disk on ds2 and its home on ds3, though it keeps its VMDKs together (the cluster's default); astray runs with
     * 2 GB of memory, so its home is a 2-GiB swap file and a few bytes of configuration.
     */
    static final String WORLD = "{\"datacenter\":\"DC0\",\"storagePods\":[{\"name\":\"POD0\",\"datastores\":["
            + "{\"name\":\"ds1\",\"capacityGB\":200},{\"name\":\"ds2\",\"capacityGB\":200},{\"name\":\"ds3\",\"capacityGB\":200}]}],"
            + "\"hosts\":[{\"name\":\"h1\",\"cluster\":\"C0\"}],\"vms\":["
            + "{\"name\":\"a\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"b\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":2,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"pair\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"},"
            + "{\"name\":\"disk2\",\"sizeGB\":2,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"spread\",\"host\":\"h1\",\"datastore\":\"ds2\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":3,\"datastore\":\"ds2\"},"
            + "{\"name\":\"disk2\",\"sizeGB\":1,\"datastore\":\"ds3\"}]},"
            + "{\"name\":\"astray\",\"host\":\"h1\",\"datastore\":\"ds3\",\"powerOn\":true,\"memoryMB\":2048,\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"}]}]}";

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = FaithfulVcsim.start(WORLD, "rule-repair", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD);
        FaithfulVcsim.registerAsVCenter(r, vcsim, "rule-repair");
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired TestRestTemplate rest;
    @Autowired JdbcTemplate jdbc;

    /** The datastore of each of the VM's disks as vCenter holds them, read with govc: "[ds2] a/disk1.vmdk" → ds2. */
    List<String> datastoresOf(String vm) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode d : JSON.readTree(vcsim.govc("device.info", "-json", "-vm", vm, "disk-*")).get("devices")) {
            String file = d.at("/backing/fileName").asText();
            out.add(file.substring(1, file.indexOf(']')));
        }
        return out;
    }

    /** The datastore of each of the VM's disks as the server stores them, in disk-key order (govc's device order). */
    List<String> storedDatastoresOf(String vm) {
        return jdbc.queryForList("SELECT d.name FROM virtual_disk v JOIN vm ON vm.moid = v.vm_moid JOIN datastore d ON d.moid = v.datastore_moid"
                + " WHERE vm.name = ? ORDER BY v.disk_key", String.class, vm);
    }

    long govcHomeBytes(String vm) throws Exception {
        return FaithfulVcsim.homeBytes(vcsim, vm);
    }

    long storedHomeBytes(String vm) {
        return jdbc.queryForObject("SELECT home_bytes FROM vm WHERE name = ?", Long.class, vm);
    }

    @Test
    void aRunFixesTheRulesVCenterHoldsBrokenAndVCenterThenHoldsThemKept() throws Exception {
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vm-anti-affinity", "apart=a,b")).contains("OK");
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-vmdk-anti-affinity", "pair=disk1,disk2")).contains("OK");
        assertThat(FaithfulVcsim.sdrsRule(vcsim, "-pod", "POD0", "-keep-together", "spread=true")).contains("OK");
        try {
            sync.fullSync();
        } catch (RuntimeException startupSyncRacing) {
            sync.fullSync();
        }
        String pod = jdbc.queryForObject("SELECT moid FROM datastore_cluster WHERE name = 'POD0'", String.class);
        AdminApi api = new AdminApi(rest);
        assertThat(datastoresOf("a")).containsExactly("ds1");
        assertThat(datastoresOf("b")).containsExactly("ds1");
        assertThat(datastoresOf("pair")).containsExactly("ds1", "ds1");
        assertThat(datastoresOf("spread")).containsExactly("ds2", "ds3");
        assertThat(FaithfulVcsim.vmPath(vcsim, "a")).startsWith("[ds1] ");
        assertThat(FaithfulVcsim.vmPath(vcsim, "pair")).startsWith("[ds1] ");
        assertThat(FaithfulVcsim.vmPath(vcsim, "astray")).startsWith("[ds3] ");
        assertThat(datastoresOf("astray")).containsExactly("ds2");
        System.out.println("rule repair: astray's home " + govcHomeBytes("astray") + " bytes in vCenter, " + storedHomeBytes("astray") + " stored");
        assertThat(storedHomeBytes("astray")).as("the home's size as vCenter lists its files").isEqualTo(govcHomeBytes("astray"));
        assertThat(govcHomeBytes("astray")).as("astray runs: its home holds a swap file of its 2048 MB").isGreaterThan(2048L << 20);

        JsonNode run = api.call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/run", null, 200);
        assertThat(run.get("faults")).as(run.toString()).isEmpty();
        Map<String, String> reasonOf = new HashMap<>();
        for (JsonNode id : run.get("recommendationIds")) {
            JsonNode e = api.call(HttpMethod.GET, "/api/v1/recommendations/" + id.asLong() + "/explanation", null, 200);
            String vm = jdbc.queryForObject("SELECT name FROM vm WHERE moid = ?", String.class, e.get("vmId").asText());
            reasonOf.put(vm, e.get("reasonCode").asText());
            System.out.println("rule repair: " + e.get("summary").asText());
        }
        assertThat(reasonOf).as("the smaller of a and b moves; pair's smaller disk; spread's disk on ds3 joins ds2; astray's home"
                        + " joins its disk").isEqualTo(Map.of("a", "virtualDiskAntiAffin", "pair", "virtualDiskAntiAffin",
                        "spread", "virtualDiskJointAffin", "astray", "virtualDiskJointAffin"));
        String astray = jdbc.queryForObject("SELECT moid FROM vm WHERE name = 'astray'", String.class);
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/" + pod + "/history", null, 200).toString())
                .contains("Fix virtual disk affinity rule: the home of VM astray from ds3 to ds2 (");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM migration_action WHERE vm_moid = ? AND home_only", Long.class, astray))
                .as("astray's home moves alone: its disk is where it goes").isEqualTo(1);
        for (JsonNode id : run.get("recommendationIds")) {
            if (api.call(HttpMethod.GET, "/api/v1/recommendations/" + id.asLong(), null, 200).get("state").asText().equals("PENDING")) {
                api.call(HttpMethod.POST, "/api/v1/recommendations/" + id.asLong() + "/apply", null, 200);
            }
        }
        long deadline = System.currentTimeMillis() + 60_000;
        Set<String> states = new HashSet<>();
        while (System.currentTimeMillis() < deadline) {
            states.clear();
            for (JsonNode id : run.get("recommendationIds")) {
                states.add(api.call(HttpMethod.GET, "/api/v1/recommendations/" + id.asLong(), null, 200).get("state").asText());
            }
            if (states.equals(Set.of("APPLIED"))) {
                break;
            }
            Thread.sleep(250);
        }
        assertThat(states).as("the fixes applied").containsExactly("APPLIED");

        // vCenter holds every rule kept, read from outside
        assertThat(datastoresOf("b")).containsExactly("ds1");
        assertThat(datastoresOf("a")).doesNotContain("ds1");
        List<String> pair = datastoresOf("pair");
        assertThat(pair.get(1)).isEqualTo("ds1");
        assertThat(pair.get(0)).isNotEqualTo("ds1");
        assertThat(datastoresOf("spread")).containsExactly("ds2", "ds2");
        // a keeps its VMDKs together (the cluster's default), so vSphere's intra-VM affinity keeps its home with its only
        // disk: a moved as a VM, its configuration files along; pair's disks are kept apart, so its home stays
        assertThat(FaithfulVcsim.vmPath(vcsim, "a")).as("a's home").startsWith("[" + datastoresOf("a").get(0) + "] ");
        assertThat(FaithfulVcsim.vmPath(vcsim, "pair")).as("pair's home").startsWith("[ds1] ");
        assertThat(FaithfulVcsim.vmPath(vcsim, "spread")).as("spread's home").startsWith("[ds2] ");
        assertThat(FaithfulVcsim.vmPath(vcsim, "astray")).as("astray's home, with its disk").startsWith("[ds2] ");
        assertThat(datastoresOf("astray")).containsExactly("ds2");

        // the server's stored inventory reads each move before its recommendation is APPLIED (the scheduled sync here runs
        // hourly): what it stores is what govc reads, and the next run, planned on it at once, finds nothing to fix
        for (String vm : List.of("a", "b", "pair", "spread", "astray")) {
            assertThat(storedDatastoresOf(vm)).as("%s as the server stores it, right after APPLIED", vm).isEqualTo(datastoresOf(vm));
        }
        System.out.println("rule repair: astray's home after its move " + govcHomeBytes("astray") + " bytes in vCenter, "
                + storedHomeBytes("astray") + " stored");
        assertThat(storedHomeBytes("astray")).as("read again after the relocation changed vm.layoutEx").isEqualTo(govcHomeBytes("astray"));
        assertThat(govcHomeBytes("astray")).as("the swap file moved with the home").isGreaterThan(2048L << 20);
        JsonNode again = api.call(HttpMethod.POST, "/api/v1/clusters/" + pod + "/run", null, 200);
        assertThat(again.get("recommendationIds")).as(again.toString()).isEmpty();
        assertThat(again.get("faults")).isEmpty();
        System.out.println("rule repair: after the fixes a: " + datastoresOf("a") + ", b: " + datastoresOf("b") + ", pair: " + pair
                + ", spread: " + datastoresOf("spread"));
    }
}
