package io.opensdrs.server.migration;

import io.opensdrs.balance.Relocation;
import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.StorageDrsRules;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class InventoryPlacementRulesTest {

    static InventorySnapshot.Vm vm(String id, String... diskDatastores) {
        List<InventorySnapshot.VirtualDisk> disks = new java.util.ArrayList<>();
        for (int i = 0; i < diskDatastores.length; i++) {
            disks.add(new InventorySnapshot.VirtualDisk(2000 + i, "Hard disk " + (i + 1), "[" + diskDatastores[i] + "] " + id + "/d" + i
                    + ".vmdk", diskDatastores[i], 1L << 30, false));
        }
        return new InventorySnapshot.Vm(id, "name-" + id, "host-1", List.of(diskDatastores), disks, null, 0);
    }

    static InventorySnapshot inventory(StorageDrsRules rules, InventorySnapshot.Vm... vms) {
        List<InventorySnapshot.Datastore> dss = List.of("ds-1", "ds-2", "ds-3").stream()
                .map(d -> new InventorySnapshot.Datastore(d, d + "-name", "ds:///" + d, "VMFS", 100L << 30, 50L << 30, true,
                        "normal", "pod-1")).toList();
        return new InventorySnapshot("1", List.of(), List.of(new InventorySnapshot.StoragePod("pod-1", "pod",
                List.of("ds-1", "ds-2", "ds-3"), 300L << 30, 150L << 30, rules)), dss, List.of(), List.of(vms));
    }

    static MigrationAction move(String vm, List<Integer> keys, String destination) {
        Relocation r = new Relocation(vm, keys.isEmpty() ? Relocation.Scope.WHOLE_VM : Relocation.Scope.DISKS, keys, List.of("ds-1"),
                destination, "host-1", 1L << 30);
        return new MigrationAction(1, 1, r, ActionState.QUEUED, null, Set.of(), 0, null, null, false, null, null, Instant.EPOCH, null,
                null, null, null, List.of());
    }

    @Test
    void vmAntiAffinityRefusesAMoveOntoTheOtherVmsDatastore() {
        StorageDrsRules rules = new StorageDrsRules(StorageDrsRules.PodSettings.UNSET, List.of(new StorageDrsRules.VmAntiAffinity("apart", true, List.of("vm-a", "vm-b"))),
                List.of());
        InventorySnapshot inv = inventory(rules, vm("vm-a", "ds-1"), vm("vm-b", "ds-2"));
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-a", List.of(), "ds-2")))
                .hasValueSatisfying(v -> assertThat(v).contains("apart", "name-vm-a", "ds-2-name", "name-vm-b"));
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-a", List.of(), "ds-3"))).isEmpty();
        // a disabled rule constrains nothing
        StorageDrsRules disabled = new StorageDrsRules(StorageDrsRules.PodSettings.UNSET, List.of(new StorageDrsRules.VmAntiAffinity("apart", false,
                List.of("vm-a", "vm-b"))), List.of());
        assertThat(new InventoryPlacementRules().violation(inventory(disabled, vm("vm-a", "ds-1"), vm("vm-b", "ds-2")),
                move("vm-a", List.of(), "ds-2"))).isEmpty();
    }

    @Test
    void vmdkAntiAffinityRefusesOneDiskJoiningAnotherOfTheRule() {
        StorageDrsRules rules = new StorageDrsRules(StorageDrsRules.PodSettings.UNSET, List.of(), List.of(new StorageDrsRules.VmRules("vm-p", false,
                new StorageDrsRules.VmdkAntiAffinity("p-apart", true, List.of(2000, 2001)))));
        InventorySnapshot inv = inventory(rules, vm("vm-p", "ds-1", "ds-2", "ds-2"));
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-p", List.of(2000), "ds-2")))
                .hasValueSatisfying(v -> assertThat(v).contains("p-apart", "2000", "2001", "ds-2-name"));
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-p", List.of(2000), "ds-3"))).isEmpty();
        // disk 2002 is not in the rule: it may join 2001
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-p", List.of(2002), "ds-2"))).isEmpty();
        // the whole VM onto one datastore breaks the rule
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-p", List.of(), "ds-3"))).isPresent();
    }

    /**
     * A rule made over VMs already together (vm-a and vm-b on ds-1): a move of vm-a's disk off
     * ds-1 mends it and goes ahead though vm-a's other disk still shares ds-1; a move onto a
     * datastore holding vm-b is refused. The demo's WholeLoopIT moves gold-oltp1's data disk so,
     * under its oltp-apart rule.
     */
    @Test
    void aViolationTheInventoryHasDoesNotBlockAMoveThatLeavesItOrMendsIt() {
        StorageDrsRules rules = new StorageDrsRules(StorageDrsRules.PodSettings.UNSET, List.of(new StorageDrsRules.VmAntiAffinity("apart", true,
                List.of("vm-a", "vm-b"))), List.of());
        InventorySnapshot inv = inventory(rules, vm("vm-a", "ds-1", "ds-1"), vm("vm-b", "ds-1", "ds-2"));
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-a", List.of(2000), "ds-3"))).isEmpty();
        assertThat(new InventoryPlacementRules().violation(inv, move("vm-a", List.of(2000), "ds-2")))
                .hasValueSatisfying(v -> assertThat(v).contains("apart", "name-vm-a", "ds-2-name", "name-vm-b"));
        StorageDrsRules vmdk = new StorageDrsRules(StorageDrsRules.PodSettings.UNSET, List.of(), List.of(new StorageDrsRules.VmRules("vm-p", false,
                new StorageDrsRules.VmdkAntiAffinity("p-apart", true, List.of(2000, 2001, 2002)))));
        InventorySnapshot together = inventory(vmdk, vm("vm-p", "ds-1", "ds-1", "ds-1"));
        assertThat(new InventoryPlacementRules().violation(together, move("vm-p", List.of(2002), "ds-2"))).isEmpty();
        assertThat(new InventoryPlacementRules().violation(together, move("vm-p", List.of(2001, 2002), "ds-2")))
                .hasValueSatisfying(v -> assertThat(v).contains("p-apart", "disks 2001 and 2002", "ds-2-name"));
    }
}
