package io.opensdrs.balance;

import io.opensdrs.balance.pesto.LatencyEqualization;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Storage DRS's space rules as {@link SpaceBalancer} applies them (SPEC §4). */
class SpaceBalancerTest {

    private static final BalancingSettings DEFAULTS = BalancingSettings.defaults();

    /**
     * "full" is 82 % used, over the 80 % threshold; "big" is a large datastore that stays under its
     * own threshold whatever moves there. The move is allowed only when the source stays at least
     * the minimum utilization difference (5 %) fuller than the destination after it.
     */
    private static ClusterState world(double bigUsedGb, BalancingSettings settings) {
        return Clusters.cluster()
                .datastore("full", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("big", 100_000, LqSlopeModel.of(1, 2), null)
                .vm("a", "full", 420, 1)
                .vm("b", "full", 400, 1)
                .vm("filler", VmOverride.EXCLUDED, "big", bigUsedGb, 1)
                .settings(settings)
                .build();
    }

    @Test
    void noMoveLeavesTheSourceLessThanFivePerCentFullerThanTheDestination() {
        // after either move "big" is 78.3 % used: 82 − 78.3 < 5
        MovePlan plan = new LatencyEqualization().plan(world(77_900, DEFAULTS));
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.faults()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(ReasonCode.BALANCE_DATASTORE_SPACE_USAGE);
            assertThat(f.message()).contains("full").contains("82.0 %").contains("5 % minimum difference");
        });
    }

    @Test
    void aMoveThatKeepsTheFivePerCentDifferenceIsMade() {
        // after moving "a" "big" is 75.4 % used: 82 − 75.4 ≥ 5
        MovePlan plan = new LatencyEqualization().plan(world(75_000, DEFAULTS));
        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.reason()).isEqualTo(ReasonCode.BALANCE_DATASTORE_SPACE_USAGE);
            assertThat(m.destinationDatastoreId()).isEqualTo("big");
        });
        assertThat(plan.faults()).isEmpty();
    }

    @Test
    void theMinimumDifferenceIsASetting() {
        BalancingSettings threePerCent = DEFAULTS.toBuilder().minSpaceUtilizationDifference(0.03).build();
        assertThat(new LatencyEqualization().plan(world(77_900, threePerCent)).moves()).hasSize(1);
    }

    private static ClusterState twoDatastores(double sourceGb, double[] sourceDisksGb, double destinationGb,
                                              double destinationUsedGb, BalancingSettings settings) {
        Clusters c = Clusters.cluster()
                .datastore("source", sourceGb, LqSlopeModel.of(1, 2), null)
                .datastore("destination", destinationGb, LqSlopeModel.of(1, 2), null)
                .vm("filler", VmOverride.EXCLUDED, "destination", destinationUsedGb, 1)
                .settings(settings);
        for (int i = 0; i < sourceDisksGb.length; i++) {
            c.vm("vm" + i, "source", sourceDisksGb[i], 1);
        }
        return c.build();
    }

    private static final BalancingSettings FREE_SPACE = DEFAULTS.toBuilder()
            .spaceThresholdMode(SpaceThresholdMode.FREE_SPACE).freeSpaceThresholdGb(50).build();

    @Test
    void freeSpaceModeIgnoresUtilizationWhileEnoughGigabytesAreFree() {
        // 85 % used, 1,500 GB free
        double[] disks = {4_000, 4_500};
        assertThat(new LatencyEqualization().plan(twoDatastores(10_000, disks, 10_000, 1_000, DEFAULTS)).moves())
                .singleElement().satisfies(m -> assertThat(m.reason()).isEqualTo(ReasonCode.BALANCE_DATASTORE_SPACE_USAGE));
        assertThat(new LatencyEqualization().plan(twoDatastores(10_000, disks, 10_000, 1_000, FREE_SPACE)).moves()).isEmpty();
    }

    @Test
    void freeSpaceModeMovesWhenFewerGigabytesThanTheThresholdAreFree() {
        // 220 GB with 175 GB used: 79.5 %, under 80 %, but 45 GB free, under 50
        double[] disks = {100, 75};
        assertThat(new LatencyEqualization().plan(twoDatastores(220, disks, 10_000, 1_000, DEFAULTS)).moves()).isEmpty();
        assertThat(new LatencyEqualization().plan(twoDatastores(220, disks, 10_000, 1_000, FREE_SPACE)).moves())
                .singleElement().satisfies(m -> {
                    assertThat(m.reason()).isEqualTo(ReasonCode.BALANCE_DATASTORE_SPACE_USAGE);
                    assertThat(m.destinationDatastoreId()).isEqualTo("destination");
                });
    }

    @Test
    void freeSpaceModeLetsADestinationFillToItsLastFiftyGigabytes() {
        // source 95.5 % used; the destination at 79 % would be 88.6 % after: over 80 %, yet 1,145 GB free
        double[] disks = {955};
        assertThat(new LatencyEqualization().plan(twoDatastores(1_000, disks, 10_000, 7_900, DEFAULTS)).moves()).isEmpty();
        assertThat(new LatencyEqualization().plan(twoDatastores(1_000, disks, 10_000, 7_900, FREE_SPACE)).moves())
                .singleElement().satisfies(m -> assertThat(m.destinationDatastoreId()).isEqualTo("destination"));
    }
}
