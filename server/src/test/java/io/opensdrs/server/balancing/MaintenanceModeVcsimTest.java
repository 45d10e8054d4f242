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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Datastore maintenance mode is vCenter's (our simulator's DatastoreEnterMaintenanceMode and
 * DatastoreExitMaintenanceMode_Task, read from outside with govc): entered through this server, the
 * datastore is entering maintenance mode in vCenter, its evacuation applied empties it and vCenter
 * marks it in maintenance; entered with govc, as in the vSphere Client, this server follows and
 * evacuates it; exited with govc, it follows again. A VM that a relocation already running when
 * maintenance began brings onto the datastore afterwards gets the evacuation planned again.
 */
@ServerAgainstVcsim
class MaintenanceModeVcsimTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static VcsimProcess vcsim;

    /**
     * a and b on ds1, c on ds2, ds3 holds only d's disk: d's home (its .vmx) is on ds1; e (10 GB on
     * ds3, a 10-s copy at the simulator's 1,000 MiB/s) is the VM whose relocation runs into a
     * maintenance. Each datastore can take the others' disks. h2 mounts ds3 and ds4 only, and keeps swap files
     * on ds4 (its swap datastore); f runs there with host-local swap placement, its home and disk on ds4 too.
     */
    static final String WORLD = "{\"datacenter\":\"DC0\",\"storagePods\":[{\"name\":\"POD0\",\"datastores\":["
            + "{\"name\":\"ds1\",\"capacityGB\":100},{\"name\":\"ds2\",\"capacityGB\":100},{\"name\":\"ds3\",\"capacityGB\":100},"
            + "{\"name\":\"ds4\",\"capacityGB\":100}]}],"
            + "\"hosts\":[{\"name\":\"h1\",\"cluster\":\"C0\",\"datastores\":[\"ds1\",\"ds2\",\"ds3\"]},"
            + "{\"name\":\"h2\",\"cluster\":\"C0\",\"datastores\":[\"ds3\",\"ds4\"],\"localSwapDatastore\":\"ds4\"}],\"vms\":["
            + "{\"name\":\"a\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"b\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]},"
            + "{\"name\":\"c\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds2\"}]},"
            + "{\"name\":\"d\",\"host\":\"h1\",\"datastore\":\"ds1\",\"powerOn\":true,\"memoryMB\":1024,\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds3\"}]},"
            + "{\"name\":\"e\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":10,\"datastore\":\"ds3\"}]},"
            + "{\"name\":\"f\",\"host\":\"h2\",\"powerOn\":true,\"memoryMB\":512,\"swapPlacement\":\"hostLocal\","
            + "\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds4\"}]}]}";

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = FaithfulVcsim.start(WORLD, "maintenance-mode", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD);
        FaithfulVcsim.registerAsVCenter(r, vcsim, "maintenance");
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired MaintenanceMode maintenance;
    @Autowired TestRestTemplate rest;

    /** summary.maintenanceMode as vCenter holds it, read with govc. */
    String heldMode(String ds) throws Exception {
        return JSON.readTree(vcsim.govc("datastore.info", "-json", ds)).at("/datastores/0/summary/maintenanceMode").asText();
    }

    /** The VM's configuration file as vCenter holds it, read with govc. */
    String vmPath(String vm) throws Exception {
        return FaithfulVcsim.vmPath(vcsim, vm);
    }

    String moid(String ds) throws Exception {
        return FaithfulVcsim.moid(vcsim, "s", ds);
    }

    /** Syncs the inventory and follows vCenter's maintenance modes until {@code done}, for at most 60 s. */
    void followUntil(BooleanSupplier done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!done.getAsBoolean() && System.currentTimeMillis() < deadline) {
            sync.incrementalSync();
            maintenance.progress();
            Thread.sleep(200);
        }
    }

    /** A full sync; once more if it raced the one the server starts with. */
    void fullSync() {
        try {
            sync.fullSync();
        } catch (RuntimeException startupSyncRacing) {
            sync.fullSync();
        }
    }

    void applyAll(JsonNode recommendationIds) throws Exception {
        for (JsonNode id : recommendationIds) {
            new AdminApi(rest).call(HttpMethod.POST, "/api/v1/recommendations/" + id.asLong() + "/apply", null, 200);
        }
    }

    @Test
    void maintenanceModeIsVCentersEnteredHereOrInTheVSphereClient() throws Exception {
        fullSync();
        AdminApi api = new AdminApi(rest);
        assertThat(heldMode("ds1")).isEqualTo("normal");

        // entered through this server: vCenter holds ds1 entering until its evacuation, applied, has emptied it —
        // a and b moved whole, and d's home alone, to ds3 where its disk is
        assertThat(vmPath("d")).isEqualTo("[ds1] d/d.vmx");
        JsonNode m = api.call(HttpMethod.POST, "/api/v1/datastores/ds1/maintenance", Map.of("enter", true), 200);
        assertThat(m.get("state").asText()).isEqualTo("ENTERING");
        assertThat(m.get("disksRemaining").asInt()).isEqualTo(2);
        assertThat(m.get("vmHomesRemaining").asInt()).as("a, b and d have their home on ds1").isEqualTo(3);
        assertThat(m.get("recommendationIds")).hasSize(3);
        assertThat(heldMode("ds1")).isEqualTo("enteringMaintenance");
        // what is left says how much each item copies: d runs, so its home holds a 1-GiB swap file
        Map<String, Long> sizes = new TreeMap<>();
        api.call(HttpMethod.GET, "/api/v1/datastores/ds1/maintenance", null, 200).get("left")
                .forEach(l -> sizes.put(l.get("vmName").asText() + " " + l.get("what").asText(), l.get("sizeBytes").asLong()));
        long dHome = FaithfulVcsim.homeBytes(vcsim, "d");
        assertThat(dHome).as("d's home, read with govc").isGreaterThan(1L << 30);
        assertThat(sizes).containsEntry("d home", dHome).containsEntry("a home", FaithfulVcsim.homeBytes(vcsim, "a"))
                .hasEntrySatisfying("a disk " + FaithfulVcsim.diskKeys(vcsim, "a").get(0), n -> assertThat(n).isEqualTo(1L << 30));
        System.out.println("maintenance: left on ds1 " + sizes);
        JsonNode home = null;
        for (JsonNode id : m.get("recommendationIds")) {
            JsonNode r = api.call(HttpMethod.GET, "/api/v1/recommendations/" + id.asLong(), null, 200);
            if (r.at("/actions/0/homeOnly").asBoolean()) {
                home = r;
            }
        }
        assertThat(home).as("a recommendation moves d's home alone").isNotNull();
        assertThat(home.at("/actions/0/vmId").asText()).isEqualTo(FaithfulVcsim.moid(vcsim, "m", "d"));
        assertThat(home.at("/actions/0/destinationDatastoreId").asText()).as("where d's disk is").isEqualTo(moid("ds3"));
        assertThat(api.call(HttpMethod.GET, "/api/v1/recommendations/" + home.get("id").asLong() + "/explanation", null, 200)
                .get("summary").asText()).contains("the home of VM d", "its disks stay where they are");
        applyAll(m.get("recommendationIds"));
        followUntil(() -> maintenance.state(moidOf("ds1")).name().equals("IN_MAINTENANCE"));
        assertThat(maintenance.state(moid("ds1")).name()).isEqualTo("IN_MAINTENANCE");
        assertThat(heldMode("ds1")).as("vCenter's enter task completed once ds1 was empty").isEqualTo("inMaintenance");
        assertThat(vcsim.govc("datastore.info", "-json", "ds1")).doesNotContain("\"vm\":[{");
        assertThat(vmPath("d")).as("d's home moved, read with govc").isEqualTo("[ds3] d/d.vmx");
        assertThat(vcsim.govc("device.info", "-vm", "d", "-json", "disk-*")).as("d's disk stayed on ds3").contains("[ds3] d/disk1.vmdk");

        // exited through this server: normal in vCenter too
        assertThat(api.call(HttpMethod.POST, "/api/v1/datastores/ds1/maintenance", Map.of("enter", false), 200).get("state").asText())
                .isEqualTo("NORMAL");
        assertThat(heldMode("ds1")).isEqualTo("normal");

        // entered with govc, as in the vSphere Client ("Enter SDRS Maintenance Mode"): govc waits for vCenter's task,
        // this server follows and plans the evacuation; applied, the task completes
        CompletableFuture<String> entering = CompletableFuture.supplyAsync(() -> {
            try {
                return vcsim.govc("datastore.maintenance.enter", "-ds", "ds2");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        followUntil(() -> maintenance.state(moidOf("ds2")).name().equals("ENTERING") && !pending("ds2").isEmpty());
        assertThat(maintenance.state(moid("ds2")).name()).isEqualTo("ENTERING");
        List<Long> evacuation = pending("ds2");
        assertThat(evacuation).as("c, and a and b if they went to ds2").isNotEmpty();
        assertThat(entering).as("govc still waits for vCenter's enter task").isNotDone();
        assertThat(heldMode("ds2")).isEqualTo("enteringMaintenance");
        applyAll(JSON.valueToTree(evacuation));
        entering.get(60, TimeUnit.SECONDS);
        assertThat(heldMode("ds2")).isEqualTo("inMaintenance");
        followUntil(() -> maintenance.state(moidOf("ds2")).name().equals("IN_MAINTENANCE"));
        assertThat(maintenance.state(moid("ds2")).name()).isEqualTo("IN_MAINTENANCE");

        // exited with govc: this server follows
        vcsim.govc("datastore.maintenance.exit", "-ds", "ds2");
        followUntil(() -> maintenance.state(moidOf("ds2")).name().equals("NORMAL"));
        assertThat(maintenance.state(moid("ds2")).name()).isEqualTo("NORMAL");
        String podId = FaithfulVcsim.moid(vcsim, "StoragePod", "POD0");
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/" + podId + "/history", null, 200).toString())
                .contains("entering maintenance mode in vCenter", "left maintenance mode in vCenter");

        // a relocation of e onto ds2 (govc, as from the vSphere Client) is running when ds2 enters maintenance through
        // this server: vCenter lets it finish, so e lands on ds2 after the evacuation was planned — a (moved there
        // first) is the plan; e is planned at the next check, and ds2 is in maintenance once both have left
        vcsim.govc("vm.migrate", "-ds", "ds2", "a");
        CompletableFuture<String> eOnto = CompletableFuture.supplyAsync(() -> {
            try {
                return vcsim.govc("vm.migrate", "-ds", "ds2", "e");
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        Thread.sleep(2_000);
        assertThat(eOnto).as("e's 10-s copy still runs").isNotDone();
        sync.incrementalSync();
        String a = FaithfulVcsim.moid(vcsim, "m", "a");
        String e = FaithfulVcsim.moid(vcsim, "m", "e");
        JsonNode m2 = api.call(HttpMethod.POST, "/api/v1/datastores/ds2/maintenance", Map.of("enter", true), 200);
        assertThat(m2.get("state").asText()).isEqualTo("ENTERING");
        assertThat(vmsOf(m2.get("recommendationIds"))).as("what is on ds2: a").containsExactly(a);
        applyAll(m2.get("recommendationIds"));
        eOnto.get(60, TimeUnit.SECONDS);
        assertThat(vmPath("e")).as("e landed on ds2 in vCenter").startsWith("[ds2]");
        followUntil(() -> vmsOf(JSON.valueToTree(pending("ds2"))).contains(e));
        assertThat(vmsOf(JSON.valueToTree(pending("ds2")))).as("e's evacuation planned").containsExactly(e);
        assertThat(api.call(HttpMethod.GET, "/api/v1/clusters/" + podId + "/history", null, 200).toString())
                .contains("holds what its evacuation does not account for (disk ", " of VM e, the home of VM e): planning the evacuation again");
        applyAll(JSON.valueToTree(pending("ds2")));
        followUntil(() -> maintenance.state(moidOf("ds2")).name().equals("IN_MAINTENANCE"));
        assertThat(maintenance.state(moid("ds2")).name()).isEqualTo("IN_MAINTENANCE");
        assertThat(heldMode("ds2")).isEqualTo("inMaintenance");
        assertThat(vmPath("e")).as("e has left ds2, read with govc").doesNotStartWith("[ds2]");
        assertThat(vmPath("a")).doesNotStartWith("[ds2]");
        api.call(HttpMethod.POST, "/api/v1/datastores/ds2/maintenance", Map.of("enter", false), 200);
    }

    /**
     * A swap file its host keeps on the datastore (host-local swap placement) is no evacuation's to move: the
     * evacuation moves f's home and disk, the maintenance view lists the swap file as kept by its host, and vCenter
     * holds ds4 entering until f stops; then ds4 is in maintenance, here too.
     */
    @Test
    void aSwapFileItsHostKeepsThereHoldsTheDatastoreEnteringUntilTheVmStops() throws Exception {
        fullSync();
        AdminApi api = new AdminApi(rest);
        String f = FaithfulVcsim.moid(vcsim, "m", "f");
        String swap = FaithfulVcsim.swapFile(vcsim, "f");
        assertThat(swap).as("govc: f's swap file, in ds4's root").startsWith("[ds4] f-").doesNotContain("/");

        JsonNode m = api.call(HttpMethod.POST, "/api/v1/datastores/ds4/maintenance", Map.of("enter", true), 200);
        assertThat(m.get("state").asText()).isEqualTo("ENTERING");
        assertThat(vmsOf(m.get("recommendationIds"))).as("f's home and disk, together").containsExactly(f);
        Map<String, JsonNode> left = left("ds4");
        assertThat(left.keySet()).containsExactlyInAnyOrder("f home", "f disk " + FaithfulVcsim.diskKeys(vcsim, "f").get(0), "f swap file");
        assertThat(left.get("f swap file").get("status").asText()).isEqualTo("host_swap");
        assertThat(left.get("f swap file").get("sizeBytes").asLong()).isEqualTo(512L << 20);
        assertThat(left.get("f swap file").get("detail").asText()).contains("host h2 keeps the VM's swap file here");
        assertThat(left.get("f home").get("sizeBytes").asLong()).as("f's home without the swap file beside it").isLessThan(1L << 20);

        applyAll(m.get("recommendationIds"));
        followUntil(() -> moved("f"));
        assertThat(vmPath("f")).as("f's home moved, read with govc").startsWith("[ds3] ");
        for (int i = 0; i < 5; i++) {
            sync.incrementalSync();
            maintenance.progress();
            Thread.sleep(200);
        }
        assertThat(heldMode("ds4")).as("vCenter waits for f's swap file").isEqualTo("enteringMaintenance");
        assertThat(maintenance.state(moid("ds4")).name()).isEqualTo("ENTERING");
        assertThat(FaithfulVcsim.swapFile(vcsim, "f")).isEqualTo(swap);
        assertThat(left("ds4").keySet()).as("only the swap file is left").containsExactly("f swap file");

        vcsim.govc("vm.power", "-off", "f");
        followUntil(() -> maintenance.state(moidOf("ds4")).name().equals("IN_MAINTENANCE"));
        assertThat(maintenance.state(moid("ds4")).name()).isEqualTo("IN_MAINTENANCE");
        assertThat(heldMode("ds4")).isEqualTo("inMaintenance");
        assertThat(left("ds4")).isEmpty();
        api.call(HttpMethod.POST, "/api/v1/datastores/ds4/maintenance", Map.of("enter", false), 200);
    }

    /** What GET maintenance lists as left on the datastore, by "vm what". */
    private Map<String, JsonNode> left(String ds) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        new AdminApi(rest).call(HttpMethod.GET, "/api/v1/datastores/" + ds + "/maintenance", null, 200).get("left")
                .forEach(l -> out.put(l.get("vmName").asText() + " " + l.get("what").asText(), l));
        return out;
    }

    private boolean moved(String vm) {
        try {
            return vmPath(vm).startsWith("[ds3] ");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The VM each recommendation moves. */
    private List<String> vmsOf(JsonNode recommendationIds) {
        List<String> out = new ArrayList<>();
        for (JsonNode id : recommendationIds) {
            try {
                out.add(new AdminApi(rest).call(HttpMethod.GET, "/api/v1/recommendations/" + id.asLong(), null, 200)
                        .at("/actions/0/vmId").asText());
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }
        return out;
    }

    private String moidOf(String ds) {
        try {
            return moid(ds);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Pending evacuation recommendations off the datastore. */
    private List<Long> pending(String ds) {
        try {
            JsonNode recs = new AdminApi(rest).call(HttpMethod.GET, "/api/v1/clusters/" + FaithfulVcsim.moid(vcsim, "StoragePod", "POD0")
                    + "/recommendations", null, 200);
            String id = moid(ds);
            List<Long> out = new ArrayList<>();
            recs.forEach(r -> {
                if ("PENDING".equals(r.path("state").asText()) && "datastoreMaint".equals(r.path("reason").asText())
                        && id.equals(r.path("source").asText())) {
                    out.add(r.get("id").asLong());
                }
            });
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
