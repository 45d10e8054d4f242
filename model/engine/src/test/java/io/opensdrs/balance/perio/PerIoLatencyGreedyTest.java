package io.opensdrs.balance.perio;

import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.Clusters;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PerIoLatencyGreedyTest {

    /**
     * An array (m = 1 ms, C = 2 ms) carrying three closed loops of 10 outstanding IOs, 32 ms,
     * beside an idle SSD (m = 0.05, C = 0.2). The VMs' per-IO latency is Σ O / Σ IOPS: 32 ms,
     * 30 IOs in flight at 0.94 IOs/ms.
     */
    static Clusters hotArrayBesideIdleSsd() {
        return Clusters.cluster()
                .datastore("array", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("ssd", 10_000, LqSlopeModel.of(0.05, 0.2), null)
                .vm("vm1", "array", 20, 10)
                .vm("vm2", "array", 20, 10)
                .vm("vm3", "array", 20, 10);
    }

    @Test
    void movesBusyDisksOntoTheIdleSsdUntilPerIoLatencyStopsFalling() {
        ClusterState state = hotArrayBesideIdleSsd().build();
        MovePlan plan = new PerIoLatencyGreedy().plan(state);

        assertThat(plan.moves()).isNotEmpty();
        assertThat(plan.moves()).allMatch(m -> m.sourceDatastoreId().equals("array") && m.destinationDatastoreId().equals("ssd"));
        // After one move: array 2 + 20 = 22 ms at 20/22 IOs/ms, SSD 0.2 + 0.5 = 0.7 ms at 10/0.7: the rate
        // rises from 0.94 to 15.2 IOs/ms, per-IO latency from 32 to about 2 ms. After two, the array
        // alone holds 10 OIO at 12 ms and the SSD 20 at 1.2 ms; both steps lower it by far more than 2 %.
        assertThat(plan.moves()).hasSizeGreaterThanOrEqualTo(2);
        Move first = plan.moves().get(0);
        assertThat(first.explanation().summary()).contains("per-IO latency 32.00 →");
        assertThat(first.benefit().lower()).isGreaterThan(first.cost().upper());
    }

    @Test
    void theRunsPredictedPerIoLatencyIsLittlesLawOverTheCluster() {
        WorkingPlacement p = new WorkingPlacement(hotArrayBesideIdleSsd().build());
        assertThat(p.perIoLatency()).isCloseTo(32.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.ioRate()).isCloseTo(1000 * 30 / 32.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    /**
     * Onto a slow spindle (m = 15, C = 2), moving one of the array's two 10-OIO loops would even the
     * datastores' work but lower the IO rate: the array falls to 12 ms (0.83 IOs/ms) and the spindle
     * rises to 152 ms (0.07), 0.90 IOs/ms in all against 20 / 22 = 0.91 now. Per-IO latency would rise.
     */
    @Test
    void refusesAMoveThatLowersTheClustersIoRate() {
        ClusterState state = Clusters.cluster()
                .datastore("array", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("spindle", 10_000, LqSlopeModel.of(15, 2), null)
                .vm("vm1", "array", 20, 10)
                .vm("vm2", "array", 20, 10)
                .build();
        MovePlan plan = new PerIoLatencyGreedy().plan(state);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.notes()).anyMatch(n -> n.contains("no further move lowers per-IO latency"));
    }

    /**
     * A move that lowers the worst datastore and narrows the gap, and still slows the VMs: A (m = 1,
     * C = 10) carries loops of 10 and 1 outstanding IOs, 21 ms; B (m = 1, C = 0.5) carries 10, 10.5 ms.
     * Moving the 1-OIO loop to B gives A 20 ms and B 11.5 ms: the maximum and the spread fall, no
     * p90 rises above the worst, yet the rate goes from 11/21 + 10/10.5 = 1.476 to 10/20 + 11/11.5
     * = 1.457 IOs/ms, so per-IO latency rises.
     */
    @Test
    void refusesAMoveThatNarrowsTheGapButLowersTheIoRate() {
        ClusterState state = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 10), null)
                .datastore("B", 10_000, LqSlopeModel.of(1, 0.5), null)
                .vm("big", "A", 20, 10)
                .vm("small", "A", 20, 1)
                .vm("resident", "B", 20, 10)
                .build();
        WorkingPlacement p = new WorkingPlacement(state);
        assertThat(p.perIoLatency()).isCloseTo(1000 * 21 / (1000 * (11 / 21.0 + 10 / 10.5)), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(new PerIoLatencyGreedy().plan(state).moves()).isEmpty();
    }

    @Test
    void aClusterUnderTheLatencyThresholdIsLeftAlone() {
        ClusterState state = Clusters.cluster()
                .datastore("array", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("ssd", 10_000, LqSlopeModel.of(0.05, 0.2), null)
                .vm("vm1", "array", 20, 5)
                .build();
        // 7 ms on the array: under SDRS's 15 ms, so no IO move, however much faster the SSD is
        assertThat(new PerIoLatencyGreedy().plan(state).moves()).isEmpty();
    }
}
