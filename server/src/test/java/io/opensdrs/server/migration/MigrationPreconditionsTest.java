package io.opensdrs.server.migration;

import io.opensdrs.balance.Relocation;
import io.opensdrs.server.vsphere.InventorySnapshot;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The room a relocation needs on its destination counts the home when the home moves: alone, or with the whole VM. */
class MigrationPreconditionsTest {

    private static final long GIB = 1L << 30;

    private final MigrationPreconditions preconditions = new MigrationPreconditions(PlacementRules.NONE, null);

    /** vm-1: a 1-GiB disk and a 2-GiB home (its swap) on ds-1; ds-2 has {@code freeGib} free. */
    private static InventorySnapshot inventory(long freeGib) {
        InventorySnapshot.Vm vm = new InventorySnapshot.Vm("vm-1", "web", "host-1", List.of("ds-1"), List.of(
                new InventorySnapshot.VirtualDisk(2000, "Hard disk 1", "[ds-1] web/web.vmdk", "ds-1", GIB, false)), "ds-1", 2 * GIB);
        List<InventorySnapshot.Datastore> dss = List.of(
                new InventorySnapshot.Datastore("ds-1", "ds-1", "ds:///1", "VMFS", 100 * GIB, 50 * GIB, true, "normal", "pod-1"),
                new InventorySnapshot.Datastore("ds-2", "ds-2", "ds:///2", "VMFS", 100 * GIB, freeGib * GIB, true, "normal", "pod-1"));
        return new InventorySnapshot("1", List.of(), List.of(), dss,
                List.of(new InventorySnapshot.Host("host-1", "esx1", List.of("ds-1", "ds-2"))), List.of(vm));
    }

    private static MigrationAction action(List<Integer> keys, boolean homeOnly) {
        Relocation.Scope scope = homeOnly ? Relocation.Scope.HOME : keys.isEmpty() ? Relocation.Scope.WHOLE_VM : Relocation.Scope.DISKS;
        Relocation r = new Relocation("vm-1", scope, keys, List.of("ds-1"), "ds-2", "host-1", 0);
        return new MigrationAction(1, 1, r, ActionState.QUEUED, null, Set.of(), 0, null, null, false, null, null, Instant.EPOCH, null,
                null, null, null, List.of());
    }

    @Test
    void aHomeMovedAloneNeedsRoomForItsFiles() {
        MigrationPreconditions.Outcome full = preconditions.check(inventory(1), action(List.of(), true), 0);
        assertThat(full.verdict()).isEqualTo(MigrationPreconditions.Verdict.FAIL);
        assertThat(full.faultType()).isEqualTo("NoDiskSpace");
        assertThat(full.message()).contains("the move needs 2.00 GiB, 1.00 GiB are free");
        assertThat(preconditions.check(inventory(3), action(List.of(), true), 0).verdict()).isEqualTo(MigrationPreconditions.Verdict.GO);
    }

    @Test
    void aWholeVmNeedsRoomForItsDisksAndItsHomeADiskForItselfAlone() {
        assertThat(preconditions.check(inventory(2), action(List.of(), false), 0).message())
                .contains("the move needs 3.00 GiB, 2.00 GiB are free");
        assertThat(preconditions.check(inventory(2), action(List.of(2000), false), 0).verdict())
                .isEqualTo(MigrationPreconditions.Verdict.GO);
        assertThat(preconditions.check(inventory(4), action(List.of(), false), 2 * GIB).verdict())
                .as("room taken by migrations in flight: wait").isEqualTo(MigrationPreconditions.Verdict.WAIT);
    }

    /**
     * vm.datastore also names a datastore holding none of what a relocation moves — the host's swap
     * datastore with the VM's swap file, an ISO's — so a whole VM whose home and disks are all on the
     * destination is there.
     */
    @Test
    void aWholeVmIsOnItsDestinationWhateverElseVmDatastoreLists() {
        InventorySnapshot.Vm moved = new InventorySnapshot.Vm("vm-1", "web", "host-1", List.of("ds-2", "local-1"), List.of(
                new InventorySnapshot.VirtualDisk(2000, "Hard disk 1", "[ds-2] web/web.vmdk", "ds-2", GIB, false)), "ds-2", 4096);
        InventorySnapshot before = inventory(10);
        InventorySnapshot after = new InventorySnapshot("2", List.of(), List.of(), before.datastores(), before.hosts(), List.of(moved));
        MigrationAction whole = action(List.of(), false);
        assertThat(ResultVerifier.missing(after, whole)).isEmpty();
        assertThat(preconditions.check(after, whole, 0).verdict()).isEqualTo(MigrationPreconditions.Verdict.ALREADY_DONE);
        assertThat(ResultVerifier.missing(before, whole)).contains("VM web has its home or disks on [ds-1]");
    }
}
