package io.opensdrs.server.balancing;

import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.VmState;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventorySnapshot;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.models.DatastoreModels;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

/**
 * A balancing run reads the cluster from the stored inventory in several statements while the
 * inventory sync, on its own thread, may commit between them. Here a full sync that adds datastore
 * ds-d to the pod, with VM new on it, commits right after the run has read the pod's datastores
 * (the spy on {@link DatastoreModels#selectKind} is only the moment to do it). The run plans over
 * the datastores it read — before, the host mounts and the disks it read next named ds-d, which
 * its datastores did not hold, and the run failed ("host host-21 sees unknown datastore
 * datastore-14"). The sync at the start once collided with the scheduled start-up sync on a
 * duplicate key, which is why syncs now run one at a time.
 */
@SpringBootTest(properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.plugin.register=false",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
})
class AssemblyDuringSyncTest {

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) {
        try {
            String dir = Files.createTempDirectory("sdrs-assembly-h2-").toString();
            r.add("sdrs.data-dir", () -> dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TestConfiguration
    static class Fixtures {
        @Bean
        InMemoryInventorySource inventorySource() {
            InMemoryInventorySource source = new InMemoryInventorySource();
            source.setSnapshot(BalancingIntegrationSuite.crowded("a1"));
            return source;
        }
    }

    @Autowired InMemoryInventorySource inventory;
    @Autowired InventorySync sync;
    @Autowired BalancingService balancing;
    @Autowired ClusterStateAssembler assembler;
    @MockitoSpyBean DatastoreModels models;

    /** The crowded pod plus ds-d, mounted on both hosts, holding VM new. */
    static InventorySnapshot withDsD(String version) {
        InventorySnapshot c = BalancingIntegrationSuite.crowded(version);
        List<InventorySnapshot.DatastoreInfo> dss = new ArrayList<>(c.datastores());
        dss.add(InMemoryInventorySource.ds("datastore-14", "ds-d", "group-p1", 2000 * BalancingIntegrationSuite.GB,
                1500 * BalancingIntegrationSuite.GB));
        List<InventorySnapshot.HostInfo> hosts = c.hosts().stream().map(h -> {
            List<String> mounted = new ArrayList<>(h.datastoreMoids());
            mounted.add("datastore-14");
            return new InventorySnapshot.HostInfo(h.moid(), h.name(), h.datacenterMoid(), mounted);
        }).toList();
        List<InventorySnapshot.VmInfo> vms = new ArrayList<>(c.vms());
        vms.add(new InventorySnapshot.VmInfo("vm-36", "new", "host-21", List.of(new InventorySnapshot.VirtualDiskInfo(2000,
                "[ds-d] new/new.vmdk", 500 * BalancingIntegrationSuite.GB, "datastore-14")), "datastore-14", 0));
        return new InventorySnapshot(version, c.datacenters(), c.clusters(), dss, hosts, vms);
    }

    @Test
    void aRunReadingTheInventoryWhileASyncCommitsPlansOverTheDatastoresItRead() throws Exception {
        sync.fullSync();
        assertThat(assembler.assemble("group-p1").state().datastores()).hasSize(2);
        AtomicReference<Runnable> once = new AtomicReference<>(() -> {
            inventory.setSnapshot(withDsD("a2"));
            try {
                CompletableFuture.runAsync(() -> sync.fullSync()).get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        doAnswer(inv -> {
            Runnable r = once.getAndSet(null);
            if (r != null) {
                r.run();
            }
            return inv.callRealMethod();
        }).when(models).selectKind(any(), any());

        BalancingViews.RunView run = balancing.run("group-p1", "manual");
        assertThat(once.get()).as("the sync committed during the run's reads").isNull();
        assertThat(run.recommendationIds()).as("ds-a is over its space threshold").isNotEmpty();
        // the next run sees ds-d and its VM
        ClusterStateAssembler.Assembled after = assembler.assemble("group-p1");
        assertThat(after.state().datastores()).hasSize(3);
        assertThat(after.state().vms()).anyMatch(v -> v.id().equals("vm-36"));
    }

    /**
     * The engine's relocations name disks by their vCenter keys, and a VM with a disk outside the
     * cluster never moves whole: the assembled state says which key each disk has and how many of a
     * VM's disks the cluster does not hold.
     */
    @Test
    void theAssembledVmsCarryTheirDisksKeysAndTheDisksOutsideTheCluster() {
        InventorySnapshot c = BalancingIntegrationSuite.crowded("k1");
        List<InventorySnapshot.DatastoreInfo> dss = new ArrayList<>(c.datastores());
        dss.add(InMemoryInventorySource.ds("datastore-19", "local", null, 100 * BalancingIntegrationSuite.GB,
                90 * BalancingIntegrationSuite.GB));
        List<InventorySnapshot.HostInfo> hosts = c.hosts().stream().map(h -> {
            List<String> mounted = new ArrayList<>(h.datastoreMoids());
            mounted.add("datastore-19");
            return new InventorySnapshot.HostInfo(h.moid(), h.name(), h.datacenterMoid(), mounted);
        }).toList();
        List<InventorySnapshot.VmInfo> vms = new ArrayList<>(c.vms());
        vms.add(new InventorySnapshot.VmInfo("vm-37", "split", "host-21", List.of(
                new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] split/split.vmdk", BalancingIntegrationSuite.GB, "datastore-11"),
                new InventorySnapshot.VirtualDiskInfo(2001, "[local] split/split_1.vmdk", BalancingIntegrationSuite.GB, "datastore-19")),
                "datastore-11", 0));
        inventory.setSnapshot(new InventorySnapshot("k1", c.datacenters(), c.clusters(), dss, hosts, vms));
        try {
            sync.fullSync();
            List<VmState> assembled = assembler.assemble("group-p1").state().vms();
            VmState split = assembled.stream().filter(v -> v.id().equals("vm-37")).findFirst().orElseThrow();
            assertThat(split.disks()).extracting(DiskState::key).containsExactly(2000);
            assertThat(split.disksOutsideCluster()).isEqualTo(1);
            VmState web = assembled.stream().filter(v -> v.id().equals("vm-31")).findFirst().orElseThrow();
            assertThat(web.disks()).extracting(DiskState::key).containsExactly(2000, 2001);
            assertThat(web.disksOutsideCluster()).isZero();
        } finally {
            inventory.setSnapshot(BalancingIntegrationSuite.crowded("k2"));
            sync.fullSync();
        }
    }
}
