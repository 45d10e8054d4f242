package io.opensdrs.balance;

import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.opensdrs.balance.HomePlans.move;
import static io.opensdrs.balance.HomePlans.plan;
import static io.opensdrs.balance.HomePlans.vm;
import static org.assertj.core.api.Assertions.assertThat;

/** The VM homes a datastore's evacuation leaves behind ({@link VmHomeEvacuation}). */
class VmHomeEvacuationTest {

    /** ds-m entering maintenance; ds-b and ds-c of 2000 GB (threshold 1600 GB), ds-c nearly empty. */
    private static Clusters world(VmState... vms) {
        Clusters c = Clusters.cluster()
                .datastoreIn(MaintenanceState.ENTERING, "ds-m", 2000, LqSlopeModel.of(1, 2))
                .datastore("ds-b", 2000, LqSlopeModel.of(1, 2), null)
                .datastore("ds-c", 2000, LqSlopeModel.of(1, 2), null);
        for (VmState vm : vms) {
            c.vm(vm);
        }
        return c;
    }

    @Test
    void aHomeGoesWhereMostOfItsDiskDataIs() {
        // ds-b holds 400 GB of other disks and ds-c nothing: the disks, not the room, decide
        ClusterState state = world(vm("app", VmOverride.DEFAULT, false, "ds-m", 2, 100, "ds-b"),
                vm("fill", VmOverride.DEFAULT, null, "ds-b", 0, 400, "ds-b")).build();
        MovePlan homes = VmHomeEvacuation.plan(state, "ds-m", plan());
        assertThat(homes.faults()).isEmpty();
        assertThat(homes.moves()).singleElement().satisfies(m -> {
            assertThat(m.relocation().homeOnly()).isTrue();
            assertThat(m.vmId()).isEqualTo("app");
            assertThat(m.sourceDatastoreId()).isEqualTo("ds-m");
            assertThat(m.destinationDatastoreId()).isEqualTo("ds-b");
            assertThat(m.reason()).isEqualTo(ReasonCode.DATASTORE_MAINT);
            assertThat(m.explanation().summary()).isEqualTo("datastore ds-m is entering maintenance; the home of VM app (its configuration"
                    + " files) (2.0 GB) goes to ds-b, where most of its disk data will be; its disks stay where they are");
        });
    }

    @Test
    void theDisksCountWhereThePlanPutsThem() {
        ClusterState state = world(vm("app", VmOverride.DEFAULT, false, "ds-m", 2, 100, "ds-b", "ds-m", "ds-m")).build();
        MovePlan homes = VmHomeEvacuation.plan(state, "ds-m", plan(move("app", "ds-m", "ds-c", 200, 2001, 2002)));
        assertThat(homes.moves()).singleElement().satisfies(m -> assertThat(m.destinationDatastoreId()).isEqualTo("ds-c"));
    }

    @Test
    void aHomeWithoutDisksInTheClusterGoesWhereThereIsMostRoom() {
        ClusterState state = world(vm("bare", VmOverride.DEFAULT, null, "ds-m", 2, 0),
                vm("fill", VmOverride.DEFAULT, null, "ds-c", 0, 400, "ds-c")).build();
        MovePlan homes = VmHomeEvacuation.plan(state, "ds-m", plan());
        assertThat(homes.moves()).singleElement().satisfies(m -> {
            assertThat(m.destinationDatastoreId()).isEqualTo("ds-b");
            assertThat(m.explanation().summary()).contains("the datastore with the most room under its space threshold");
        });
    }

    @Test
    void aVmMovedWholeTakesItsHomeAlong() {
        ClusterState state = world(vm("app", VmOverride.DEFAULT, null, "ds-m", 2, 100, "ds-m")).build();
        MovePlan homes = VmHomeEvacuation.plan(state, "ds-m", plan(move("app", "ds-m", "ds-b", 102)));
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).isEmpty();
    }

    @Test
    void anExcludedVmsHomeStaysAsAFault() {
        ClusterState state = world(vm("app", VmOverride.EXCLUDED, false, "ds-m", 2, 100, "ds-b")).build();
        MovePlan homes = VmHomeEvacuation.plan(state, "ds-m", plan());
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(ReasonCode.DATASTORE_MAINT);
            assertThat(f.message()).isEqualTo("the home of VM app stays on ds-m: the VM is excluded from Storage DRS; move it by hand");
        });
    }

    @Test
    void aHomeGoesOnlyToADatastoreItsHostMounts() {
        ClusterState built = world(vm("bare", VmOverride.DEFAULT, null, "ds-m", 2, 0)).build();
        ClusterState state = new ClusterState(built.clusterId(), built.datastores(), List.of(new HostState("h0", Set.of("ds-m"))),
                built.vms(), built.rules(), built.settings());
        assertThat(VmHomeEvacuation.plan(state, "ds-m", plan()).faults()).singleElement().satisfies(f -> assertThat(f.message())
                .isEqualTo("the home of VM bare cannot leave ds-m: no other datastore of the cluster is accessible, out of maintenance"
                        + " and mounted on its host"));
    }

    /** ds-b and ds-c hold 1500 GB each of their 1600: a 200-GB home fits on neither. */
    @Test
    void aHomeThatFitsNowhereUnderTheThresholdIsAFault() {
        ClusterState state = world(vm("bare", VmOverride.DEFAULT, null, "ds-m", 200, 0),
                vm("fb", VmOverride.DEFAULT, null, "ds-b", 0, 1500, "ds-b"),
                vm("fc", VmOverride.DEFAULT, null, "ds-c", 0, 1500, "ds-c")).build();
        MovePlan homes = VmHomeEvacuation.plan(state, "ds-m", plan());
        assertThat(homes.moves()).isEmpty();
        assertThat(homes.faults()).singleElement().satisfies(f -> assertThat(f.message()).isEqualTo("the home of VM bare cannot leave"
                + " ds-m: its home (200.0 GB) would take datastore ds-b to 1700.0 GB, over its space threshold of 1600.0 GB;"
                + " its home (200.0 GB) would take datastore ds-c to 1700.0 GB, over its space threshold of 1600.0 GB"));
    }
}
