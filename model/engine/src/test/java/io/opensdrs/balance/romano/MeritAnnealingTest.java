package io.opensdrs.balance.romano;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.Clusters;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.MovePlanBuilder;
import io.opensdrs.balance.StrategyRegistry;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.romano.MeritMetric;
import io.opensdrs.model.romano.RomanoModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MeritAnnealingTest {

    static RomanoModel slow;
    static RomanoModel fast;

    @BeforeAll
    static void fit() {
        slow = RomanoWorlds.fitted(1.0, 1);
        fast = RomanoWorlds.fitted(0.25, 2);
    }

    static Clusters world(int maxMoves) {
        Clusters c = Clusters.cluster()
                .datastore("slow", 5000, slow, null)
                .datastore("fast", 5000, fast, null)
                .datastore("mid", 5000, RomanoWorlds.fitted(0.5, 3), null)
                .settings(BalancingSettings.builder().maxMovesPerRun(maxMoves).build());
        for (int i = 0; i < 6; i++) {
            c.vm("vm" + i, "slow", 1, 2 + i);
        }
        return c;
    }

    static double merit(ClusterState state, MovePlan plan) {
        WorkingPlacement p = new WorkingPlacement(state);
        for (Move m : plan.moves()) {
            for (MovableUnit u : p.units()) {
                if (p.vmId(u.vm()).equals(m.vmId())) {
                    p.move(u.disks(), p.datastoreIndex(m.destinationDatastoreId()));
                }
            }
        }
        return MeritMetric.romano().of(p.latencies());
    }

    @Test
    void reducesTheMeritWithinTheMoveCapAndIsTheDefaultForRomanoClusters() {
        ClusterState state = world(3).build();
        assertThat(StrategyRegistry.defaultName(state)).isEqualTo("romano");
        double before = MeritMetric.romano().of(new WorkingPlacement(state).latencies());
        MovePlan plan = new MeritAnnealing(42).plan(state);
        assertThat(plan.moves()).isNotEmpty().hasSizeLessThanOrEqualTo(3);
        assertThat(plan.moves()).allMatch(m -> m.sourceDatastoreId().equals("slow"));
        assertThat(merit(state, plan)).isLessThan(before * 0.7);
        // Every recommendation explains itself with the Romano model's intervals.
        assertThat(plan.moves().get(0).explanation().datastores())
                .allMatch(f -> f.model().equals("romano") && f.latencyAfterMs().hasInterval());
        // Same seed, same plan.
        assertThat(new MeritAnnealing(42).plan(state).moves()).extracting(Move::vmId)
                .containsExactlyElementsOf(plan.moves().stream().map(Move::vmId).toList());
    }

    @Test
    void greedyOrderTakesTheLargestMeritReductionFirst() {
        ClusterState state = world(10).build();
        WorkingPlacement p = new WorkingPlacement(state);
        List<MovableUnit> units = p.units();
        int fastIndex = p.datastoreIndex("fast");
        int[] target = new int[units.size()];
        for (int u = 0; u < target.length; u++) {
            target[u] = u % 2 == 0 ? fastIndex : p.datastoreOf(units.get(u));
        }
        // Brute force, independently: which single move toward the target lowers M the most?
        String expected = null;
        double bestMerit = Double.POSITIVE_INFINITY;
        for (int u = 0; u < units.size(); u++) {
            if (target[u] == p.datastoreOf(units.get(u))) {
                continue;
            }
            WorkingPlacement trial = p.copy();
            trial.move(units.get(u).disks(), target[u]);
            double m = MeritMetric.romano().of(trial.latencies());
            if (m < bestMerit) {
                bestMerit = m;
                expected = p.vmId(units.get(u).vm());
            }
        }
        MovePlanBuilder b = new MovePlanBuilder(p, "romano");
        int made = new GreedyMoveOrder(MeritMetric.romano(), true).apply(b, new CostBenefit(p), units, target);
        MovePlan plan = b.build();
        assertThat(made).isPositive();
        assertThat(plan.moves().get(0).vmId()).isEqualTo(expected);
        // Merit falls at every step.
        WorkingPlacement replay = new WorkingPlacement(state);
        double last = MeritMetric.romano().of(replay.latencies());
        for (Move m : plan.moves()) {
            for (MovableUnit u : replay.units()) {
                if (replay.vmId(u.vm()).equals(m.vmId())) {
                    replay.move(u.disks(), replay.datastoreIndex(m.destinationDatastoreId()));
                }
            }
            double now = MeritMetric.romano().of(replay.latencies());
            assertThat(now).isLessThan(last);
            last = now;
        }
    }

    @Test
    void respectsTheMoveCap() {
        MovePlan plan = new MeritAnnealing(7).plan(world(1).build());
        assertThat(plan.moves()).hasSize(1);
    }

    @Test
    void annealingNeverReturnsAWorseStateThanItStartedFrom() {
        WorkingPlacement p = new WorkingPlacement(world(5).build());
        SimulatedAnnealing.Result r = new SimulatedAnnealing(3, 500, MeritMetric.romano()).minimize(p, p.units());
        assertThat(r.bestMerit()).isLessThanOrEqualTo(r.initialMerit());
        assertThat(r.bestMerit()).isLessThan(r.initialMerit() * 0.7);
    }

    @Test
    void mixedClustersDefaultToPesto() {
        ClusterState mixed = world(3).build().withDatastore(
                DatastoreState.of("lq", 100, 0, io.opensdrs.model.pesto.LqSlopeModel.of(1, 1), null));
        assertThat(StrategyRegistry.defaultName(mixed)).isEqualTo("pesto");
    }

    /**
     * A cluster whose datastores carry different kinds (the server's per-datastore choice): every
     * strategy plans it, and {@code auto} runs Pesto's there, which moves load off the crowded
     * Romano datastore.
     */
    @Test
    void everyStrategyPlansAClusterOfMixedKinds() {
        ClusterState mixed = world(3).build().withDatastore(
                DatastoreState.of("lq", 100_000, 0, io.opensdrs.model.pesto.LqSlopeModel.of(0.05, 0.2), null));
        java.util.Set<String> kinds = new java.util.HashSet<>();
        mixed.datastores().forEach(d -> kinds.add(d.model().name()));
        assertThat(kinds).containsExactlyInAnyOrder("romano", "pesto");
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        for (String name : registry.names()) {
            assertThat(registry.create(name, 7).plan(mixed).strategy()).isEqualTo(name);
        }
        MovePlan auto = registry.create(StrategyRegistry.defaultName(mixed), 7).plan(mixed);
        assertThat(auto.strategy()).isEqualTo("pesto");
        assertThat(auto.moves()).allMatch(m -> m.sourceDatastoreId().equals("slow")).isNotEmpty();
    }

    /** Romano models fitted to the injector's random reads alone (no R or X measured) do not make a cluster Romano's. */
    @Test
    void romanoModelsFittedToRandomReadsAloneDefaultToPesto() {
        java.util.List<io.opensdrs.model.Observation> reads = new java.util.ArrayList<>();
        for (double z : new double[] {4, 256}) {
            for (int o = 2; o <= 32; o *= 2) {
                io.opensdrs.model.Workload w = new io.opensdrs.model.Workload(o, z, 1, 1);
                reads.add(new io.opensdrs.model.Observation(w, 0.5 * o * (1 + z / 64)));
            }
        }
        RomanoModel uncalibrated = new RomanoModel();
        uncalibrated.fit(reads);
        ClusterState state = world(3).build().withDatastore(DatastoreState.of("reads-only", 5000, 0, uncalibrated, null));
        assertThat(StrategyRegistry.defaultName(state)).isEqualTo("pesto");
    }

    /**
     * The merit (a soft maximum, Eq. 25) rewards lowering the worst datastore; the guard asks what
     * the VMs' IOs get. A (m=1, C=2) at 52 ms with a 10- and a 40-OIO disk, B (m=2, C=1) at 5 ms with
     * a 2-OIO one: moving the 10-OIO disk gives 42 and 25 ms and the pair's IO rate rises (closed
     * loops: 50/52 + 2/5 → 40/42 + 12/25 IOs per ms); moving the 40-OIO one gives 12 and 105 ms and
     * the rate falls: that move is refused.
     */
    @Test
    void refusesAMoveThatLowersThePairsIoRate() {
        Clusters c = Clusters.cluster()
                .datastore("A", 10_000, io.opensdrs.model.pesto.LqSlopeModel.of(1, 2), null)
                .datastore("B", 10_000, io.opensdrs.model.pesto.LqSlopeModel.of(2, 1), null)
                .vm("mover", "A", 10, 10)
                .vm("stayer", "A", 10, 40)
                .vm("resident", "B", 10, 2);
        WorkingPlacement p = new WorkingPlacement(c.build());
        for (MovableUnit u : p.units()) {
            if (p.datastoreOf(u) == 0) {
                CostBenefit.Result r = new CostBenefit(p).evaluate(u, 0, 1);
                assertThat(new CostBenefit(p).raisesPerIoLatency(u, 0, 1, r)).as(p.vmId(u.vm()))
                        .isEqualTo(p.vmId(u.vm()).equals("stayer"));
            }
        }
        assertThat(new MeritAnnealing(7).plan(c.build()).moves()).noneMatch(m -> m.vmId().equals("stayer"));
    }

    /**
     * Romano's greedy order takes a move only if the merit falls even with the source's and
     * destination's latencies at their intervals' upper ends. A busy, well-measured datastore
     * (162 outstanding IOs, 56 ms, its model within ±0.1 ms) and an empty one whose model is
     * uncertain (4.6 ms predicted for the disk, up to 34 ms): moving a small disk there lowers the
     * merit at the point predictions (56.49 → 55.79 ms) and Eq. 11 pays on bounds (the busy
     * datastore's many IOs each gain a little), but with the quiet one at its upper end the
     * merit is 56.76 ms.
     */
    @Test
    void doesNotMoveWhenTheMeritRisesAtTheIntervalsUpperEnds() {
        Clusters c = Clusters.cluster()
                .datastore("busy", 10_000, RomanoWorlds.fitted(0.3, 1, 0, 0.001), new io.opensdrs.balance.LatencyPercentiles(56, 56, 56))
                .datastore("quiet", 10_000, RomanoWorlds.fitted(2.0, 2, 25), null);
        for (int v = 0; v < 5; v++) {
            c.vm("big" + v, "busy", 10, 32);
        }
        c.vm("small", "busy", 10, 2);
        MovePlan plan = new MeritAnnealing(7).plan(c.build());
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.notes()).anyMatch(n -> n.contains("intervals' upper ends"));
    }

    /** A run's notes list at most {@link GreedyMoveOrder#NOTED_DROPS} dropped candidates one by one, then count the rest. */
    @Test
    void notesTheFirstDroppedCandidatesAndCountsTheRest() {
        Clusters c = Clusters.cluster()
                .datastore("busy", 10_000, RomanoWorlds.fitted(0.3, 1, 0, 0.001), new io.opensdrs.balance.LatencyPercentiles(56, 56, 56))
                .datastore("quiet", 10_000, RomanoWorlds.fitted(2.0, 2, 25), null)
                .datastore("quiet2", 10_000, RomanoWorlds.fitted(2.0, 3, 25), null)
                .settings(BalancingSettings.builder().maxMovesPerRun(40).build());
        for (int v = 0; v < 4; v++) {
            c.vm("big" + v, "busy", 10, 32);
        }
        for (int v = 0; v < 30; v++) {
            c.vm("small" + v, "busy", 10, 1);
        }
        MovePlan plan = new MeritAnnealing(7).plan(c.build());
        assertThat(plan.notes().stream().filter(n -> n.startsWith("not moved: "))).hasSize(GreedyMoveOrder.NOTED_DROPS);
        assertThat(plan.notes()).anyMatch(n -> n.matches("\\d+ more moves toward the annealed placement not made for the same reasons"));
    }
}
