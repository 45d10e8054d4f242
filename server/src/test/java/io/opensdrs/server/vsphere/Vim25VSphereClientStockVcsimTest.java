package io.opensdrs.server.vsphere;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.vsphere.object.Vim25VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The vim25 client against the unmodified stock vcsim (govmomi v0.46.3) as a separate
 * process; every result is checked from outside with govc. Relocation faults are tested
 * against our own simulator: stock vcsim panics on a relocation to a datastore that does
 * not exist (virtual_machine.go:2507) and models no space or accessibility faults.
 */
class Vim25VSphereClientStockVcsimTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static VcsimProcess vcsim;
    private static Vim25VSphereClient client;

    @BeforeAll
    static void start() throws Exception {
        vcsim = VcsimProcess.start(GoTool.binary("vcsim"), "-pod", "1", "-ds", "3", "-username", "sdrs", "-password", "sdrs-pass");
        client = Vim25VSphereClient.login(vcsim.insecureConnection());
    }

    @org.junit.jupiter.api.AfterEach
    void simulatorSurvived() throws Exception {
        vcsim.assertAlive();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (vcsim != null) {
            vcsim.close();
        }
    }

    private static JsonNode govcJson(String... args) throws Exception {
        String[] withJson = new String[args.length + 1];
        withJson[0] = args[0];
        withJson[1] = "-json";
        System.arraycopy(args, 1, withJson, 2, args.length - 1);
        return JSON.readTree(vcsim.govc(withJson));
    }

    @Test
    void aboutNamesTheSimulatedVCenter() {
        assertThat(client.about().apiType()).isEqualTo("VirtualCenter");
        assertThat(client.about().fullName()).contains("govmomi simulator");
    }

    @Test
    void wrongPasswordIsAnInvalidLoginFault() {
        VCenterConnection bad = new VCenterConnection(vcsim.sdkUrl(), vcsim.user(), "wrong-" + vcsim.password(),
                null, null, true, null, null);
        assertThatThrownBy(() -> Vim25VSphereClient.login(bad))
                .isInstanceOfSatisfying(VimFaultException.class, e -> assertThat(e.faultType()).isEqualTo("InvalidLogin"));
    }

    @Test
    void badConnectionSettingsNameTheField() {
        assertThatThrownBy(() -> new VCenterConnection(vcsim.sdkUrl(), " ", "x", null, null, true, null, null))
                .hasMessageContaining("vcenter.user");
        assertThatThrownBy(() -> new VCenterConnection(java.net.URI.create("ftp://x/sdk"), "u", "p", null, null, false, null, null))
                .hasMessageContaining("vcenter.url");
        assertThatThrownBy(() -> new VCenterConnection(vcsim.sdkUrl(), "u", "p", "AB:CD", null, true, null, null))
                .hasMessageContaining("set only one");
    }

    @Test
    void aPinnedThumbprintIsEnforced() throws Exception {
        VCenterConnection wrongPin = new VCenterConnection(vcsim.sdkUrl(), vcsim.user(), vcsim.password(),
                "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33", null, false, null, null);
        assertThatThrownBy(() -> Vim25VSphereClient.login(wrongPin))
                .isInstanceOfSatisfying(VimFaultException.class, e -> {
                    assertThat(e.isTransport()).isTrue();
                    assertThat(e.getMessage()).contains("does not match");
                });
        String thumb = vcsim.govc("about.cert", "-thumbprint").strip().split("\\s+")[1];
        VCenterConnection pinned = new VCenterConnection(vcsim.sdkUrl(), vcsim.user(), vcsim.password(),
                thumb, null, false, null, null);
        try (Vim25VSphereClient c = Vim25VSphereClient.login(pinned)) {
            assertThat(c.about().apiType()).isEqualTo("VirtualCenter");
        }
    }

    @Test
    void fullInventoryMatchesWhatGovcSees() throws Exception {
        InventorySnapshot inv = client.inventory();

        Set<String> govcVms = new HashSet<>(vcsim.govc("find", "/", "-type", "m").lines()
                .map(l -> l.substring(l.lastIndexOf('/') + 1)).toList());
        assertThat(inv.vms()).extracting(InventorySnapshot.Vm::name).containsExactlyInAnyOrderElementsOf(govcVms);

        Set<String> govcDatastores = new HashSet<>(vcsim.govc("find", "/", "-type", "s").lines()
                .map(l -> l.substring(l.lastIndexOf('/') + 1)).toList());
        assertThat(inv.datastores()).extracting(InventorySnapshot.Datastore::name)
                .containsExactlyInAnyOrderElementsOf(govcDatastores);
        assertThat(inv.storagePods()).extracting(InventorySnapshot.StoragePod::name).containsExactly("DC0_POD0");
        assertThat(inv.datacenters()).extracting(InventorySnapshot.Datacenter::name).containsExactly("DC0");

        // Capacity and free space as govc reports them.
        JsonNode dsInfo = govcJson("datastore.info", "LocalDS_0");
        JsonNode summary = dsInfo.at("/datastores/0/summary");
        if (summary.isMissingNode()) {
            summary = dsInfo.at("/Datastores/0/Summary");
        }
        InventorySnapshot.Datastore ds0 = inv.datastoreNamed("LocalDS_0").orElseThrow();
        assertThat(ds0.capacityBytes()).isEqualTo(field(summary, "capacity").asLong()).isPositive();
        assertThat(ds0.freeBytes()).isEqualTo(field(summary, "freeSpace").asLong());
        assertThat(ds0.accessible()).isTrue();

        // Every host sees the datastores govc says it mounts; every VM's disks carry file and datastore.
        for (InventorySnapshot.Host h : inv.hosts()) {
            String refs = vcsim.govc("object.collect", "-s", "HostSystem:" + h.id(), "datastore");
            for (String ref : refs.strip().split(",")) {
                assertThat(h.datastoreIds()).contains(ref.substring(ref.indexOf(':') + 1));
            }
        }
        InventorySnapshot.Vm vm = inv.vmNamed("DC0_H0_VM0").orElseThrow();
        assertThat(vm.disks()).isNotEmpty();
        InventorySnapshot.VirtualDisk disk = vm.disks().get(0);
        String govcDisks = vcsim.govc("device.info", "-vm", "DC0_H0_VM0", "disk-*");
        assertThat(govcDisks).contains("File:         " + disk.fileName()).contains("Key:          " + disk.key());
        assertThat(disk.capacityBytes()).isPositive();
        assertThat(inv.datastore(disk.datastoreId())).isPresent();
        assertThat(vm.hostId()).isNotNull();

        // the home's size: the VM's files on its home datastore that are not disk data, as govc lists them (vm.layoutEx)
        assertThat(vm.homeDatastoreId()).isNotNull();
        String homeName = inv.datastore(vm.homeDatastoreId()).orElseThrow().name();
        long home = 0;
        int homeFiles = 0;
        for (JsonNode f : govcJson("object.collect", "vm/DC0_H0_VM0", "layoutEx").at("/0/val/file")) {
            if (f.get("name").asText().startsWith("[" + homeName + "] ") && !f.get("type").asText().startsWith("disk")) {
                home += f.path("size").asLong();
                homeFiles++;
            }
        }
        assertThat(homeFiles).as("vmx, nvram and log").isGreaterThanOrEqualTo(3);
        assertThat(home).as("the simulator's vmware.log has bytes").isPositive();
        assertThat(vm.homeBytes()).isEqualTo(home);
    }

    private static JsonNode field(JsonNode n, String name) {
        JsonNode v = n.get(name);
        return v != null ? v : n.get(Character.toUpperCase(name.charAt(0)) + name.substring(1));
    }

    @Test
    void wholeVmRelocationIsSeenByGovc() throws Exception {
        InventorySnapshot inv = client.inventory();
        InventorySnapshot.Vm vm = inv.vmNamed("DC0_H0_VM1").orElseThrow();
        InventorySnapshot.Host host = inv.host(vm.hostId()).orElseThrow();
        String target = host.datastoreIds().stream().filter(d -> !vm.datastoreIds().contains(d)).findFirst().orElseThrow();

        String task = client.relocateVm(vm.id(), target);
        TaskStatus status = awaitTask(task);
        assertThat(status.state()).isEqualTo("success");

        String after = vcsim.govc("object.collect", "-s", "VirtualMachine:" + vm.id(), "datastore").strip();
        assertThat(after).isEqualTo("Datastore:" + target);
        assertThat(client.inventory().vm(vm.id()).orElseThrow().datastoreIds()).containsExactly(target);
    }

    @Test
    void extensionRegistrationIsVisibleToGovcAndUpdatesInPlace() throws Exception {
        ExtensionRegistration r1 = new ExtensionRegistration("io.opensdrs.plugin", "0.1.0", "OpenSDRS",
                "Storage DRS in the open", "OpenSDRS", "https://127.0.0.1:8443/plugin/plugin.json",
                "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD", "admin@example.org");
        client.registerOrUpdateExtension(r1);
        String info = vcsim.govc("extension.info", "io.opensdrs.plugin");
        assertThat(info).contains("io.opensdrs.plugin").contains("0.1.0");
        JsonNode json = govcJson("extension.info", "io.opensdrs.plugin");
        String text = json.toString();
        assertThat(text).contains("vsphere-client-remote").contains("MANIFEST_SERVER")
                .contains("https://127.0.0.1:8443/plugin/plugin.json");

        client.registerOrUpdateExtension(new ExtensionRegistration("io.opensdrs.plugin", "0.2.0", "OpenSDRS",
                "Storage DRS in the open", "OpenSDRS", "https://127.0.0.1:8443/plugin/plugin.json", null, null));
        assertThat(vcsim.govc("extension.info", "io.opensdrs.plugin")).contains("0.2.0");
        Optional<ExtensionRegistration> found = client.findExtension("io.opensdrs.plugin");
        assertThat(found).get().extracting(ExtensionRegistration::version).isEqualTo("0.2.0");
        assertThat(client.findExtension("io.opensdrs.absent")).isEmpty();
    }

    @Test
    void anExpiredSessionIsRenewedOnce() throws Exception {
        // Remove this client's session from outside, as vCenter does when a session times out.
        String sessions = vcsim.govc("session.ls");
        for (String line : sessions.lines().skip(1).toList()) {
            String key = line.strip().split("\\s+")[0];
            if (!key.isEmpty()) {
                try {
                    vcsim.govc("session.rm", key);
                } catch (java.io.IOException ignored) {
                    // govc's own session may refuse removal; ours is what matters.
                }
            }
        }
        assertThat(client.inventory().vms()).isNotEmpty();
    }

    @Test
    void inventoryWatchReportsAChangeMadeByGovc() throws Exception {
        try (VSphereClient.InventoryWatch watch = client.watchInventory()) {
            InventorySnapshot first = watch.awaitChange(Duration.ofSeconds(5)).orElseThrow();
            InventorySnapshot.Vm vm = first.vmNamed("DC0_C0_RP0_VM1").orElseThrow();

            vcsim.govc("object.rename", "/DC0/vm/DC0_C0_RP0_VM1", "renamed-by-govc");

            Instant deadline = Instant.now().plusSeconds(20);
            String name = vm.name();
            while (name.equals(vm.name()) && Instant.now().isBefore(deadline)) {
                Optional<InventorySnapshot> next = watch.awaitChange(Duration.ofSeconds(5));
                if (next.isPresent()) {
                    name = next.get().vm(vm.id()).orElseThrow().name();
                }
            }
            assertThat(name).isEqualTo("renamed-by-govc");
        } finally {
            vcsim.govc("object.rename", "/DC0/vm/renamed-by-govc", "DC0_C0_RP0_VM1");
        }
    }

    /**
     * vCenter (and the simulator, as vCenter does) hands out at most 100 object updates per
     * WaitForUpdatesEx and marks the set truncated: the watch's first change must still be the whole
     * inventory, not its first 100 objects (a 3,000-VM world was read 100 objects per sync).
     */
    @Test
    void aWatchReadsAnInventoryLargerThanOnePageOfUpdates() throws Exception {
        try (VcsimProcess big = VcsimProcess.start(GoTool.binary("vcsim"), "-vm", "60", "-username", "sdrs",
                "-password", "sdrs-pass");
             Vim25VSphereClient c = Vim25VSphereClient.login(big.insecureConnection());
             VSphereClient.InventoryWatch watch = c.watchInventory()) {
            InventorySnapshot viaWatch = watch.awaitChange(Duration.ofSeconds(10)).orElseThrow();
            InventorySnapshot retrieved = c.inventory();
            assertThat(retrieved.vms()).as("more VMs than one page of updates").hasSizeGreaterThan(100);
            assertThat(viaWatch.vms()).extracting(InventorySnapshot.Vm::id)
                    .containsExactlyInAnyOrderElementsOf(retrieved.vms().stream().map(InventorySnapshot.Vm::id).toList());
            assertThat(viaWatch.hosts()).extracting(InventorySnapshot.Host::id)
                    .containsExactlyInAnyOrderElementsOf(retrieved.hosts().stream().map(InventorySnapshot.Host::id).toList());
            assertThat(viaWatch.datastores()).extracting(InventorySnapshot.Datastore::id)
                    .containsExactlyInAnyOrderElementsOf(retrieved.datastores().stream().map(InventorySnapshot.Datastore::id).toList());
            assertThat(big.govc("find", "/", "-type", "m").lines().count()).isEqualTo(viaWatch.vms().size());
            assertThat(watch.awaitChange(Duration.ZERO)).as("nothing left over: nothing changed since").isEmpty();
        }
    }

    @Test
    void storagePodMembershipFollowsMovesIntoTheDatastoreCluster() throws Exception {
        assertThat(client.inventory().datastoreNamed("LocalDS_2").orElseThrow().storagePodId()).isNull();
        vcsim.govc("object.mv", "/DC0/datastore/LocalDS_2", "/DC0/datastore/DC0_POD0");
        InventorySnapshot inv = client.inventory();
        InventorySnapshot.StoragePod pod = inv.storagePods().get(0);
        assertThat(inv.datastoreNamed("LocalDS_2").orElseThrow().storagePodId()).isEqualTo(pod.id());
        assertThat(pod.datastoreIds()).containsExactly(inv.datastoreNamed("LocalDS_2").orElseThrow().id());
        assertThat(vcsim.govc("ls", "/DC0/datastore/DC0_POD0")).contains("LocalDS_2");
    }

    private static TaskStatus awaitTask(String task) throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        TaskStatus s = client.task(task);
        while (!s.done() && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
            s = client.task(task);
        }
        return s;
    }
}
