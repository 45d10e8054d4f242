package io.opensdrs.balance;

import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Manual mode never moves anything: every move is a recommendation unless automation says otherwise. */
class AutomationTest {

    static Clusters overloaded() {
        return overloaded(10);
    }

    /** Three busy VMs on A, each of {@code sizeGb}: at 600 GB, A is also over SDRS's 80 % space threshold. */
    static Clusters overloaded(double sizeGb) {
        return Clusters.cluster()
                .datastore("A", 2000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 2000, LqSlopeModel.of(1, 2), null)
                .vm("vm1", "A", sizeGb, 10)
                .vm("vm2", "A", sizeGb, 10)
                .vm("vm3", "A", sizeGb, 10);
    }

    @Test
    void manualClusterPlansAreRecommendationsOnlyForEveryStrategy() {
        // over on IO and on space, so that every strategy, the space-only baseline too, has a move to recommend
        ClusterState state = overloaded(600).build();
        assertThat(state.settings().clusterAutomation()).isEqualTo(AutomationLevel.MANUAL);
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        for (String name : registry.names()) {
            MovePlan plan = registry.create(name, 7).plan(state);
            assertThat(plan.moves()).as(name + " recommends something").isNotEmpty();
            assertThat(plan.moves()).as(name).noneMatch(Move::autoApplicable);
            assertThat(plan.autoApplicableMoves()).isEmpty();
        }
        assertThat(MaintenanceEvacuation.plan(state, "A").moves()).isNotEmpty().noneMatch(Move::autoApplicable);
        // Planning changed nothing: the disks are where they were.
        assertThat(state.vms()).allMatch(vm -> vm.disks().get(0).datastoreId().equals("A"));
    }

    @Test
    void automatedClusterAppliesUnlessTheSubsystemOrTheVmSaysManual() {
        BalancingSettings automated = BalancingSettings.builder().clusterAutomation(AutomationLevel.AUTOMATED).build();
        MovePlan plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(overloaded().settings(automated).build());
        assertThat(plan.moves()).isNotEmpty().allMatch(Move::autoApplicable);

        BalancingSettings ioManual = automated.toBuilder().ioAutomation(AutomationLevel.MANUAL).build();
        plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(overloaded().settings(ioManual).build());
        assertThat(plan.moves()).isNotEmpty().noneMatch(Move::autoApplicable);

        ClusterState overrides = Clusters.cluster()
                .datastore("A", 2000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 2000, LqSlopeModel.of(1, 2), null)
                .vm("vm1", VmOverride.MANUAL, "A", 10, 10)
                .vm("vm2", VmOverride.EXCLUDED, "A", 10, 12)
                .vm("vm3", "A", 10, 8)
                .settings(automated).build();
        plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(overrides);
        assertThat(plan.moves()).noneMatch(m -> m.vmId().equals("vm2"));
        assertThat(plan.moves()).filteredOn(m -> m.vmId().equals("vm1")).noneMatch(Move::autoApplicable);
        assertThat(plan.moves()).filteredOn(m -> m.vmId().equals("vm3")).allMatch(Move::autoApplicable);
        assertThat(plan.moves()).extracting(Move::vmId).contains("vm1");
    }

    @Test
    void vmOverrideAutomatedWinsInAManualCluster() {
        assertThat(AutomationPolicy.autoApplicable(BalancingSettings.defaults(), ReasonCode.BALANCE_DATASTORE_IO_LOAD,
                VmOverride.AUTOMATED)).isTrue();
        assertThat(AutomationPolicy.autoApplicable(BalancingSettings.defaults(), ReasonCode.BALANCE_DATASTORE_IO_LOAD,
                VmOverride.DEFAULT)).isFalse();
        BalancingSettings spaceAuto = BalancingSettings.builder().spaceAutomation(AutomationLevel.AUTOMATED).build();
        assertThat(AutomationPolicy.autoApplicable(spaceAuto, ReasonCode.BALANCE_DATASTORE_SPACE_USAGE, VmOverride.DEFAULT)).isTrue();
        assertThat(AutomationPolicy.autoApplicable(spaceAuto, ReasonCode.BALANCE_DATASTORE_IO_LOAD, VmOverride.DEFAULT)).isFalse();
    }
}
