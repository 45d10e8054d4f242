package io.opensdrs.balance;

import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import static io.opensdrs.balance.HomePlans.move;
import static io.opensdrs.balance.HomePlans.plan;
import static io.opensdrs.balance.HomePlans.vm;
import static org.assertj.core.api.Assertions.assertThat;

/** vSphere's keep-VMDKs-together rule applied to a VM's home ({@link KeptTogetherHomes}). */
class KeptTogetherHomesTest {

    private static final double GB = 1024.0 * 1024 * 1024;

    /** ds-a and ds-b, 2000 GB each (threshold 80 % = 1600 GB), and the VM under test. */
    private static Clusters world(VmState vm) {
        return Clusters.cluster()
                .datastore("ds-a", 2000, LqSlopeModel.of(1, 2), null)
                .datastore("ds-b", 2000, LqSlopeModel.of(1, 2), null)
                .vm(vm);
    }

    @Test
    void aHomeApartFromItsKeptTogetherDisksMovesAloneToThem() {
        ClusterState state = world(vm("app", VmOverride.DEFAULT, null, "ds-a", 12.5, 100, "ds-b")).build();
        MovePlan homes = KeptTogetherHomes.plan(state, plan());
        assertThat(homes.faults()).isEmpty();
        assertThat(homes.moves()).singleElement().satisfies(m -> {
            assertThat(m.relocation().homeOnly()).isTrue();
            assertThat(m.relocation().diskKeys()).isEmpty();
            assertThat(m.sourceDatastoreId()).isEqualTo("ds-a");
            assertThat(m.destinationDatastoreId()).isEqualTo("ds-b");
            assertThat(m.relocation().sizeBytes()).isEqualTo(Math.round(12.5 * GB));
            assertThat(m.reason()).isEqualTo(ReasonCode.VIRTUAL_DISK_JOINT_AFFIN);
            assertThat(m.explanation().summary()).isEqualTo("VM app keeps its VMDKs together but its home (configuration files, logs,"
                    + " swap) is on ds-a and its disks on ds-b; the home (12.5 GB) joins its disks on ds-b, the fewest bytes to copy");
        });
    }

    @Test
    void aVmThatDoesNotKeepItsDisksTogetherMayKeepItsHomeApart() {
        ClusterState state = world(vm("app", VmOverride.DEFAULT, false, "ds-a", 12.5, 100, "ds-b")).build();
        MovePlan homes = KeptTogetherHomes.plan(state, plan());
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).isEmpty();
    }

    @Test
    void anExcludedVmIsAFault() {
        ClusterState state = world(vm("app", VmOverride.EXCLUDED, null, "ds-a", 12.5, 100, "ds-b")).build();
        MovePlan homes = KeptTogetherHomes.plan(state, plan());
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).singleElement().satisfies(f -> {
            assertThat(f.vmId()).isEqualTo("app");
            assertThat(f.reason()).isEqualTo(ReasonCode.VIRTUAL_DISK_JOINT_AFFIN);
            assertThat(f.message()).endsWith("; the VM is excluded from Storage DRS: fix it by hand");
        });
    }

    @Test
    void aVmThePlanMovesIsLeftToThePlan() {
        ClusterState state = world(vm("app", VmOverride.DEFAULT, null, "ds-a", 12.5, 100, "ds-b")).build();
        MovePlan homes = KeptTogetherHomes.plan(state, plan(move("app", "ds-b", "ds-a", 112.5)));
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).isEmpty();
    }

    /** A 1300-GB home fits beside ds-b's 200 GB, not once the plan has moved 300 GB onto it (1800 GB over 1600). */
    @Test
    void theHomeMustFitUnderTheThresholdOnceThePlanHasLanded() {
        ClusterState state = world(vm("app", VmOverride.DEFAULT, null, "ds-a", 1300, 200, "ds-b"))
                .vm(vm("db", VmOverride.DEFAULT, null, "ds-a", 0, 300, "ds-a")).build();
        assertThat(KeptTogetherHomes.plan(state, plan()).moves()).hasSize(1);

        MovePlan homes = KeptTogetherHomes.plan(state, plan(move("db", "ds-a", "ds-b", 300, 2000)));
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).singleElement().satisfies(f -> assertThat(f.message()).endsWith(
                "; its home (1300.0 GB) would take datastore ds-b to 1800.0 GB, over its space threshold of 1600.0 GB"));
    }

    @Test
    void aHomeOnADatastoreInMaintenanceIsItsEvacuations() {
        ClusterState state = Clusters.cluster()
                .datastoreIn(MaintenanceState.ENTERING, "ds-a", 2000, LqSlopeModel.of(1, 2))
                .datastore("ds-b", 2000, LqSlopeModel.of(1, 2), null)
                .vm(vm("app", VmOverride.DEFAULT, null, "ds-a", 12.5, 100, "ds-b")).build();
        assertThat(KeptTogetherHomes.plan(state, plan()).moves()).isEmpty();
    }
}
