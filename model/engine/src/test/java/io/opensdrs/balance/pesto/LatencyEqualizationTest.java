package io.opensdrs.balance.pesto;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.Clusters;
import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.LatencyPercentiles;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.VmState;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyEqualizationTest {

    /** A (m=1, C=2) carries 20 OIO → 22 ms; B is empty (2 ms). Moving one 10-OIO disk equalizes them at 12 ms. */
    static Clusters twoDatastores(double movingDiskGb, LatencyPercentiles a, LatencyPercentiles b) {
        return Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), a)
                .datastore("B", 10_000, LqSlopeModel.of(1, 2), b)
                .vm("mover", "A", movingDiskGb, 10)
                .vm("stayer", "A", movingDiskGb, 10);
    }

    @Test
    void movesWhenTheBenefitOverTheInvocationPeriodExceedsTheCopyCost() {
        MovePlan plan = new LatencyEqualization().plan(twoDatastores(10, null, null).build());
        assertThat(plan.moves()).hasSize(1);
        Move m = plan.moves().get(0);
        assertThat(m.sourceDatastoreId()).isEqualTo("A");
        assertThat(m.destinationDatastoreId()).isEqualTo("B");
        assertThat(m.benefit().lower()).isGreaterThan(m.cost().upper());
        assertThat(m.explanation().datastores()).hasSize(2);
        assertThat(m.explanation().datastores().get(0).latencyBeforeMs().value()).isEqualTo(22.0);
        assertThat(m.explanation().datastores().get(0).latencyAfterMs().value()).isEqualTo(12.0);
        assertThat(m.explanation().datastores().get(1).latencyAfterMs().value()).isEqualTo(12.0);
        assertThat(m.explanation().summary()).contains("Eqs. 10–11");
    }

    /**
     * A (m=1, C=2) carries two 30-OIO disks → 62 ms; B is empty. One move equalizes them at 32 ms,
     * both over the threshold and neither 5 ms lower than the other: the run stops after a move that
     * passed, and its note must say that, not that no move passes.
     */
    @Test
    void theStopNoteSaysNoMovePassesOnlyWhenNoneDid() {
        Clusters c = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(1, 2), null)
                .vm("one", "A", 10, 30)
                .vm("two", "A", 10, 30);
        MovePlan plan = new LatencyEqualization().plan(c.build());
        assertThat(plan.moves()).hasSize(1);
        assertThat(plan.notes()).noneMatch(n -> n.contains("no IO move passes"));
        assertThat(plan.notes()).anyMatch(n -> n.startsWith("after 1 IO move A, B are still over the 15 ms threshold (p90 32.00 ms, 32.00 ms")
                && n.contains("no destination 5 ms (the imbalance threshold) lower at p90"));
        // nothing passes (the copy of 2 TB does not pay): then it says so, with the count of what refused
        MovePlan none = new LatencyEqualization().plan(twoDatastores(2000, null, null)
                .settings(BalancingSettings.builder().spaceUtilizationThreshold(0.9).build()).build());
        assertThat(none.moves()).isEmpty();
        // each refusal named with the numbers the check read
        assertThat(none.notes()).anyMatch(n -> n.startsWith("no IO move passes")
                && n.contains("2 do not pay (Eqs. 10–11 on bounds) (VM mover → B: a gain of at least 10.00 ms per outstanding IO"
                        + " for the 16-h period against at most 16.00 ms during the ~21.6-h copy;")
                && n.contains("VM stayer → B: a gain of at least "));
    }

    @Test
    void skipsAMoveWhoseCostExceedsItsBenefit() {
        // 2 TB to copy at the copy's 16 / 38 ms ≈ 421 IOPS on A: 21.6 h at +16 OIO, for 16 h of benefit.
        MovePlan plan = new LatencyEqualization().plan(twoDatastores(2000, null, null)
                .settings(BalancingSettings.builder().spaceUtilizationThreshold(0.9).build()).build());
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.notes()).anyMatch(n -> n.contains("cost-benefit"));
    }

    @Test
    void costAndBenefitFollowEquations10And11() {
        ClusterStateProbe probe = new ClusterStateProbe(twoDatastores(10, null, null).build());
        CostBenefit.Result r = probe.evaluate("mover", "B");
        // Benefit per percentile: Qsrc·ΔLsrc − Qdst·ΔLdst + Qmig·(Lsrc_before − Ldst_after) = 10·10 − 0 + 10·(22 − 12) = 200.
        double period = 16 * 3600;
        assertThat(r.benefit().value()).isCloseTo(3 * 200 * period, org.assertj.core.data.Offset.offset(1e-6));
        // Cost per percentile: Qsrc·ΔLsrc(16 copy OIO) + Qdst·ΔLdst = 20·16 + 0 = 320, over the copy's duration.
        assertThat(r.cost().value()).isCloseTo(3 * 320 * r.migrationSeconds(), org.assertj.core.data.Offset.offset(1e-6));
        // 10 GB in 64 KiB IOs at the copy's IOPS by Little's law, 16 OIO / L with the copy added,
        // the lower of A (2 + 36 = 38 ms) and B (2 + 16 = 18 ms).
        double copyIops = 16 / 38.0 * 1000;
        assertThat(r.migrationSeconds()).isCloseTo(10 * 1024 * 1024 / 64.0 / copyIops, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aSaturatedSourceCanStillPayForAMove() {
        // A 7.2k spindle (m = 12 ms, C = 8 ms) at 37 OIO, 452 ms: the 83 IOPS it peaks at are all in
        // use, so "peak minus used" left the copy nothing and no disk could ever leave (B2's
        // pesto-like-10050 at 399 ms). The copy's 16 OIO compete: 16 / (8 + 12 · 53) ms ≈ 25 IOPS.
        Clusters c = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(12, 8), null)
                .datastore("B", 10_000, LqSlopeModel.of(0.1, 0.5), null)
                .vm("mover", "A", 40, 8)
                .vm("stayer", "A", 40, 29);
        CostBenefit.Result r = new ClusterStateProbe(c.build()).evaluate("mover", "B");
        double copyIops = 16 / (8 + 12 * 53.0) * 1000;
        assertThat(r.migrationSeconds()).isCloseTo(40 * 1024 * 1024 / 64.0 / copyIops, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.worthwhile()).isTrue();
        MovePlan plan = new LatencyEqualization().plan(c.build());
        assertThat(plan.moves()).isNotEmpty();
        assertThat(plan.moves().get(0).sourceDatastoreId()).isEqualTo("A");
    }

    @Test
    void skipsAMoveWhenTheSourceIsBelowTheDestinationAtAPercentile() {
        // Model says A → B helps, but B's observed p50 is higher than A's: Pesto §5.4 filters the move.
        MovePlan plan = new LatencyEqualization().plan(twoDatastores(10,
                new LatencyPercentiles(8, 14, 30), new LatencyPercentiles(10, 12, 14)).build());
        assertThat(plan.moves()).isEmpty();
        // Every percentile of A above B's: the same move goes ahead.
        plan = new LatencyEqualization().plan(twoDatastores(10,
                new LatencyPercentiles(12, 18, 30), new LatencyPercentiles(5, 8, 10)).build());
        assertThat(plan.moves()).hasSize(1);
    }

    @Test
    void skipsWhenTheSourcePercentilesAreAllBelowTheDestinations() {
        MovePlan plan = new LatencyEqualization().plan(twoDatastores(10,
                new LatencyPercentiles(10, 15, 20), new LatencyPercentiles(12, 18, 25)).build());
        assertThat(plan.moves()).isEmpty();
    }

    @Test
    void neverMovesADiskOntoADatastorePredictedSlowerWithItThanTheSourceIsNow() {
        // A (m=1, C=2) carries 4 + 36 OIO → 42 ms; the empty B (m=12, C=2) would run the 4-OIO disk
        // at 50 ms. Eq. 11 pays (36 OIO gain 4 ms each, the moved 4 lose 8 ms each) and an empty
        // destination is exempt from the pair guard, but the pair's worst latency rises 42 → 50 ms.
        Clusters slowSpare = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(12, 2), null)
                .vm("mover", "A", 1, 4)
                .vm("stayer", "A", 1, 36);
        ClusterStateProbe probe = new ClusterStateProbe(slowSpare.build());
        CostBenefit.Result r = probe.evaluate("mover", "B");
        assertThat(r.worthwhile()).isTrue();
        // closed loops: the 36 OIO on A run faster (42 → 38 ms) and the IO rate rises, but the moved disk slows
        assertThat(probe.raisesPerIoLatency("mover", "B")).isFalse();
        assertThat(LatencyEqualization.overshoots(r)).isTrue();
        assertThat(new LatencyEqualization().plan(slowSpare.build()).moves()).isEmpty();
        // Onto an equal device the disk runs faster than it does now: that move is made.
        assertThat(LatencyEqualization.overshoots(
                new ClusterStateProbe(twoDatastores(10, null, null).build()).evaluate("mover", "B"))).isFalse();
    }

    /**
     * The pair is judged by the IO rate its VMs get, not by the sum of its two latencies. A (m=1,
     * C=2) carries 10 + 40 OIO → 52 ms; B (m=2, C=1) carries 2 → 5 ms. Moving the 10-OIO disk: A
     * 52 → 42 ms, B 5 → 25 ms. The sum of the two latencies rises by 10 ms (the earlier guard refused
     * it), but the workloads are closed loops: A's 40 OIO and the moved 10 complete IOs faster, B's
     * 2 slower, and the pair's rate rises from 50/52 + 2/5 to 40/42 + 12/25 IOs per ms — per-IO
     * latency falls from 38.2 to 36.3 ms. Moving the 40-OIO disk instead would leave B at 105 ms
     * and the rate falls.
     */
    @Test
    void judgesAMoveByThePairsIoRateNotTheSumOfItsLatencies() {
        Clusters steeper = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(2, 1), null)
                .vm("mover", "A", 10, 10)
                .vm("stayer", "A", 10, 40)
                .vm("resident", "B", 10, 2);
        ClusterStateProbe probe = new ClusterStateProbe(steeper.build());
        assertThat(probe.evaluate("mover", "B").worthwhile()).isTrue();
        assertThat(probe.raisesPerIoLatency("mover", "B")).isFalse();
        assertThat(probe.raisesPerIoLatency("stayer", "B")).isTrue();
        var p = probe.placement();
        assertThat(p.perIoLatency()).isCloseTo(52 / (50 / 52.0 + 2 / 5.0), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(new LatencyEqualization().plan(steeper.build()).moves()).singleElement()
                .satisfies(m -> assertThat(m.vmId()).isEqualTo("mover"));
    }

    /**
     * Two spindles of nearly the same slope (the demo's silver cluster): A (m=10, C=5) holds five
     * 16-OIO disks at 805 ms, B (m=10.5, C=5) none. After the first move onto the empty B, every
     * further move lowers A by about what it raises B, so the sum of their latencies rises a little
     * (−160 + 168 ms for the second) and the earlier guard stopped there at 645 vs 173 ms. The
     * pair's IO rate still rises (64/645 + 16/173 → 48/485 + 32/341 IOs per ms): the second move is made.
     */
    @Test
    void keepsMovingBetweenSimilarSpindlesWhileThePairsIoRateRises() {
        Clusters silver = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(10, 5), null)
                .datastore("B", 10_000, LqSlopeModel.of(10.5, 5), null);
        for (int i = 1; i <= 5; i++) {
            silver.vm("vm" + i, "A", 10, 16);
        }
        MovePlan plan = new LatencyEqualization().plan(silver.build());
        assertThat(plan.moves()).hasSizeGreaterThanOrEqualTo(2).allMatch(m -> m.destinationDatastoreId().equals("B"));
    }

    /**
     * The LQ line sees outstanding IOs, not what kind they are; the disks' observed rates do. A
     * (m=1, C=2) holds a busy sequential reader (8 OIO at 800 IOPS: 10 ms) and a write log (8 OIO
     * at 40 IOPS: 200 ms), so its IOs see 16/840 s = 19 ms; B (m=1, C=2) holds a 2-OIO disk observed
     * at 100 IOPS (20 ms, five times its line's 4 ms). Moved to B the reader keeps its latency
     * relative to its datastore's, there three times B's 20 ms as the line rises from 4 to 12 ms:
     * 31 ms, 254 IOPS instead of 800 — the pair's rate falls from 940 to 359 IOPS and the move is
     * refused. Without observed rates (each disk at its line's latency) the same move raises it.
     */
    @Test
    void judgesThePairByTheObservedRatesOfItsDisks() {
        ClusterStateProbe probe = new ClusterStateProbe(mixedCluster(800, 40, 100).build());
        var p = probe.placement();
        assertThat(p.ioWeightedLatency(0)).isCloseTo(16 / 840.0 * 1000, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.ioRate(0) + p.ioRate(1)).isCloseTo(940, org.assertj.core.data.Offset.offset(1e-9));
        double[] after = p.rateAfter(p.vmDisks(0), 0, 1, 10, 12);
        assertThat(after[0]).isCloseTo(40 * 18 / 10.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(after[1]).isCloseTo(100 / 3.0 + 8000 / (10 / (16 / 840.0 * 1000) * 20 * 3), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(probe.evaluate("reader", "B").worthwhile()).isTrue();
        assertThat(probe.raisesPerIoLatency("reader", "B")).isTrue();
        assertThat(new LatencyEqualization().plan(mixedCluster(800, 40, 100).build()).moves()).noneMatch(m -> m.vmId().equals("reader"));

        Clusters unobserved = mixedCluster(0, 0, 0);
        assertThat(new ClusterStateProbe(unobserved.build()).raisesPerIoLatency("reader", "B")).isFalse();
        assertThat(new LatencyEqualization().plan(unobserved.build()).moves()).hasSize(1);
    }

    /**
     * A run that moves several disks: a moved disk carries its rate to its destination, and the
     * rates of both datastores' disks change with their models. A (m=1, C=2) holds three 10-OIO
     * disks at 32 ms (312.5 IOPS each); B (m=0.05, C=0.5) is empty. After one move A's two run at
     * 22 ms, and the moved one at B's 1 ms: 10,000 IOPS. Two moves onto B; then A is at 12 ms, under
     * the threshold.
     */
    @Test
    void aMovedDiskCarriesItsRateToItsDestination() {
        Clusters c = Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(0.05, 0.5), null);
        for (int i = 1; i <= 3; i++) {
            c.vm(new VmState("d" + i, "h0", VmOverride.DEFAULT, null,
                    List.of(new DiskState("d" + i + "-d0", 10, "A", new Workload(10, 8, 0.7, 1), 10 / 0.032))));
        }
        ClusterStateProbe probe = new ClusterStateProbe(c.build());
        var p = probe.placement();
        assertThat(p.ioWeightedLatency(0)).isCloseTo(32, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.ioWeightedLatency(1)).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        p.move(new int[] {0}, 1);
        assertThat(p.ioWeightedLatency(0)).isCloseTo(22, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.ioWeightedLatency(1)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.diskIoRate(0)).isCloseTo(10_000, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(p.ioRate(0)).isCloseTo(20 / 0.022, org.assertj.core.data.Offset.offset(1e-6));
        MovePlan plan = new LatencyEqualization().plan(c.build());
        assertThat(plan.moves()).hasSize(2).allMatch(m -> m.destinationDatastoreId().equals("B"));
    }

    /**
     * The datastore-mean artifact the per-IO view does not fall for: B's resident disk reports no
     * rate, so it runs at its line's 4 ms (500 IOPS). Moving A's busy reader there leaves A with the
     * write log alone, and A's IO-weighted latency rises from 19 to 111 ms — yet every IO that stays
     * on A is faster (the log 200 → 111 ms), the reader runs at 6 ms instead of 10, and the rate
     * rises: the move is allowed.
     */
    @Test
    void aDatastoreWhoseMeanRisesBecauseItsFastIosLeftIsNotWorseOff() {
        ClusterStateProbe probe = new ClusterStateProbe(mixedCluster(800, 40, 0).build());
        var p = probe.placement();
        assertThat(p.ioWeightedLatency(1)).isCloseTo(4, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(probe.raisesPerIoLatency("reader", "B")).isFalse();
        assertThat(probe.raisesPerIoLatency("log", "B")).isFalse();
    }

    private static Clusters mixedCluster(double readerIops, double logIops, double residentIops) {
        return Clusters.cluster()
                .datastore("A", 10_000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, LqSlopeModel.of(1, 2), null)
                .vm(new VmState("reader", "h0", VmOverride.DEFAULT, null,
                        List.of(new DiskState("reader-d0", 10, "A", new Workload(8, 64, 1, 0), readerIops))))
                .vm(new VmState("log", "h0", VmOverride.DEFAULT, null,
                        List.of(new DiskState("log-d0", 10, "A", new Workload(8, 64, 0, 0), logIops))))
                .vm(new VmState("resident", "h0", VmOverride.DEFAULT, null,
                        List.of(new DiskState("resident-d0", 10, "B", new Workload(2, 4, 1, 1), residentIops))));
    }

    @Test
    void percentileFilterReadsAnyPercentile() {
        assertThat(LatencyEqualization.sourceBetterSomewhere(new double[] {8, 14, 30}, new double[] {10, 12, 14})).isTrue();
        assertThat(LatencyEqualization.sourceBetterSomewhere(new double[] {12, 18, 30}, new double[] {5, 8, 10})).isFalse();
    }
}
