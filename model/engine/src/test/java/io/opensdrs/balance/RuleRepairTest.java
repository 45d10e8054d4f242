package io.opensdrs.balance;

import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A run fixes the rules the inventory breaks before it balances, or says why it cannot (SPEC §4). */
class RuleRepairTest {

    private static final Workload W = new Workload(2, 4, 1, 1);

    private static VmState vm(String id, Boolean keepTogether, VmOverride override, String... datastoreAndSize) {
        List<DiskState> disks = new java.util.ArrayList<>();
        for (int k = 0; k < datastoreAndSize.length; k += 2) {
            disks.add(new DiskState(id + "/" + (2000 + k / 2), Double.parseDouble(datastoreAndSize[k + 1]), datastoreAndSize[k], W, 0));
        }
        return new VmState(id, "h0", override, keepTogether, disks);
    }

    private static Clusters threeDatastores() {
        return Clusters.cluster()
                .datastore("A", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("C", 1000, LqSlopeModel.of(1, 2), null);
    }

    private static MovePlan plan(ClusterState state) {
        return new io.opensdrs.balance.pesto.LatencyEqualization().plan(state);
    }

    @Test
    void vmsARuleKeepsApartAreSeparatedTheSmallerMovingAndTheRuleEnforcementLevelGovernsIt() {
        ClusterState state = threeDatastores()
                .vm(vm("web", null, VmOverride.DEFAULT, "A", "40"))
                .vm(vm("app", null, VmOverride.DEFAULT, "A", "10"))
                .rule(new Rule.VmAntiAffinity("web-app", Set.of("web", "app")))
                .settings(BalancingSettings.builder().ruleEnforcementAutomation(AutomationLevel.AUTOMATED).build())
                .build();
        MovePlan plan = plan(state);
        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.vmId()).isEqualTo("app");
            assertThat(m.sourceDatastoreId()).isEqualTo("A");
            assertThat(m.destinationDatastoreId()).isIn("B", "C");
            assertThat(m.reason()).isEqualTo(ReasonCode.VIRTUAL_DISK_ANTI_AFFIN);
            // the cluster is manual; its rule-enforcement level is automated
            assertThat(m.autoApplicable()).isTrue();
            assertThat(m.explanation().summary()).startsWith("VM anti-affinity rule web-app is violated: VMs app and web share datastore A;"
                    + " moving VM app (10.0 GB) to ");
        });
        assertThat(plan.faults()).isEmpty();
        ClusterState manual = state.withSettings(BalancingSettings.defaults());
        assertThat(plan(manual).moves()).singleElement().satisfies(m -> assertThat(m.autoApplicable()).isFalse());
    }

    @Test
    void aKeptTogetherVmSpreadOverDatastoresJoinsWhereTheFewestBytesCopy() {
        ClusterState two = threeDatastores().vm(vm("db", true, VmOverride.DEFAULT, "A", "100", "B", "20")).build();
        // the whole VM, its home along (vSphere's intra-VM affinity keeps the .vmx with the VMDKs); db/2000 stays and
        // only db/2001 copies
        assertThat(plan(two).moves()).singleElement().satisfies(m -> {
            assertThat(m.diskIds()).containsExactly("db/2000", "db/2001");
            assertThat(m.wholeVm()).isTrue();
            assertThat(m.sizeGb()).isEqualTo(20.0);
            assertThat(m.sourceDatastoreId()).isEqualTo("B");
            assertThat(m.destinationDatastoreId()).isEqualTo("A");
            assertThat(m.reason()).isEqualTo(ReasonCode.VIRTUAL_DISK_JOINT_AFFIN);
            assertThat(m.explanation().summary()).startsWith("VM db keeps its VMDKs together but they are on A, B; moving VM db"
                    + " (20.0 GB) to A, where the fewest bytes copy");
        });
        // spread over three: one relocation of the whole VM, from where most of what copies is
        ClusterState three = threeDatastores().vm(vm("db", true, VmOverride.DEFAULT, "A", "100", "B", "30", "C", "20")).build();
        assertThat(plan(three).moves()).singleElement().satisfies(m -> {
            assertThat(m.diskIds()).containsExactly("db/2000", "db/2001", "db/2002");
            assertThat(m.sizeGb()).as("what copies: the disks on B and C").isEqualTo(50.0);
            assertThat(m.sourceDatastoreId()).isEqualTo("B");
            assertThat(m.destinationDatastoreId()).isEqualTo("A");
            assertThat(m.explanation().summary()).contains("moving VM db (50.0 GB) to A");
            assertThat(m.explanation().datastores()).extracting(DatastoreForecast::datastoreId).containsExactly("B", "C", "A");
        });
        // A's forecast counts every disk that lands: after the gather A holds all of db, as when C's disk was there already
        ClusterState fromB = threeDatastores().vm(vm("db", true, VmOverride.DEFAULT, "A", "100", "B", "30", "A", "20")).build();
        assertThat(after(plan(three).moves().get(0), "A")).isEqualTo(after(plan(fromB).moves().get(0), "A"));
    }

    private static double after(Move m, String datastore) {
        return m.explanation().datastores().stream().filter(f -> f.datastoreId().equals(datastore)).findFirst().orElseThrow()
                .latencyAfterMs().value();
    }

    @Test
    void disksARuleKeepsApartSpreadTheLargestStayingAndWhatCannotMoveIsAFault() {
        ClusterState state = threeDatastores()
                .vm(vm("db", false, VmOverride.DEFAULT, "A", "100", "A", "30", "A", "20"))
                .rule(new Rule.VmdkAntiAffinity("db-apart", "db", Set.of("db/2000", "db/2001", "db/2002")))
                .build();
        MovePlan plan = plan(state);
        assertThat(plan.moves()).extracting(m -> m.diskIds().get(0)).containsExactlyInAnyOrder("db/2001", "db/2002");
        assertThat(plan.moves()).extracting(Move::destinationDatastoreId).containsExactlyInAnyOrder("B", "C");
        assertThat(plan.moves()).allMatch(m -> m.reason() == ReasonCode.VIRTUAL_DISK_ANTI_AFFIN);
        assertThat(plan.faults()).isEmpty();

        // with two datastores one disk has nowhere to go
        ClusterState narrow = Clusters.cluster()
                .datastore("A", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 1000, LqSlopeModel.of(1, 2), null)
                .vm(vm("db", false, VmOverride.DEFAULT, "A", "100", "A", "30", "A", "20"))
                .rule(new Rule.VmdkAntiAffinity("db-apart", "db", Set.of("db/2000", "db/2001", "db/2002")))
                .build();
        MovePlan stuck = plan(narrow);
        assertThat(stuck.moves()).singleElement().satisfies(m -> assertThat(m.destinationDatastoreId()).isEqualTo("B"));
        assertThat(stuck.faults()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(ReasonCode.VIRTUAL_DISK_ANTI_AFFIN);
            assertThat(f.vmId()).isEqualTo("db");
            assertThat(f.message()).startsWith("VMDK anti-affinity rule db-apart is violated: disk db/200")
                    .contains(" cannot move: VMDK anti-affinity rule db-apart: ", " would share datastore B");
        });
    }

    /**
     * A kept-together VM spread over a datastore entering maintenance and another: its evacuation
     * cannot move it ("fix its placement first"), so the run gathers it off the leaving datastore.
     */
    @Test
    void aKeptTogetherVmSpreadOffADatastoreEnteringMaintenanceIsGatheredElsewhere() {
        ClusterState state = Clusters.cluster()
                .datastoreIn(MaintenanceState.ENTERING, "A", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "B", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "C", 1000, LqSlopeModel.of(1, 2))
                .vm(vm("db", true, VmOverride.DEFAULT, "A", "100", "B", "20"))
                .build();
        assertThat(MaintenanceEvacuation.plan(state, "A", false).faults()).extracting(Fault::message)
                .containsExactly("VM db keeps its VMDKs together but they are on several datastores; fix its placement first");
        assertThat(plan(state).moves()).singleElement().satisfies(m -> {
            assertThat(m.diskIds()).containsExactly("db/2000", "db/2001");
            assertThat(m.sizeGb()).isEqualTo(100.0);
            assertThat(m.sourceDatastoreId()).isEqualTo("A");
            assertThat(m.destinationDatastoreId()).isEqualTo("B");
            assertThat(m.reason()).isEqualTo(ReasonCode.VIRTUAL_DISK_JOINT_AFFIN);
        });
    }

    @Test
    void violationsAnEvacuationOrAnAdministratorMustFixAreFaults() {
        ClusterState state = Clusters.cluster()
                .datastoreIn(MaintenanceState.ENTERING, "A", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "B", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "C", 1000, LqSlopeModel.of(1, 2))
                .vm(vm("web", null, VmOverride.DEFAULT, "A", "40"))
                .vm(vm("app", null, VmOverride.DEFAULT, "A", "10"))
                .vm(vm("cache", null, VmOverride.EXCLUDED, "B", "10"))
                .vm(vm("log", null, VmOverride.EXCLUDED, "B", "10"))
                .rule(new Rule.VmAntiAffinity("web-app", Set.of("web", "app")))
                .rule(new Rule.VmAntiAffinity("cache-log", Set.of("cache", "log")))
                .build();
        MovePlan plan = plan(state);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.faults()).extracting(Fault::message).containsExactlyInAnyOrder(
                "VM anti-affinity rule web-app is violated: VMs app and web share datastore A; datastore A is in or entering"
                        + " maintenance mode: its evacuation places disk app/2000",
                "VM anti-affinity rule cache-log is violated: VMs log and cache share datastore B; VM log is excluded from Storage DRS:"
                        + " fix it by hand");
    }
}
