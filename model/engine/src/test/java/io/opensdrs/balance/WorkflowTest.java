package io.opensdrs.balance;

import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WorkflowTest {

    @Test
    void maintenanceEvacuatesEveryDiskAndReportsTheOnesThatCannotMove() {
        ClusterState state = Clusters.cluster()
                .datastore("A", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("B", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("C", 1000, LqSlopeModel.of(0.5, 2), null)
                .vm("a1", "A", 100, 4)
                .vm("a2", "A", 100, 4)
                .vm("b1", "B", 100, 4)
                .vm("big", "A", 900, 1)        // fits nowhere under 80 %
                .vm("excl", VmOverride.EXCLUDED, "A", 10, 1)
                .rule(new Rule.VmAntiAffinity("apart", Set.of("a1", "b1")))
                .build();
        MovePlan plan = MaintenanceEvacuation.plan(state, "A", false);
        assertThat(plan.moves()).extracting(Move::vmId).containsExactlyInAnyOrder("a1", "a2");
        assertThat(plan.moves()).allMatch(m -> m.reason() == ReasonCode.DATASTORE_MAINT);
        // a1 may not join b1 on B.
        assertThat(plan.moves()).filteredOn(m -> m.vmId().equals("a1")).allMatch(m -> m.destinationDatastoreId().equals("C"));
        assertThat(plan.faults()).extracting(Fault::vmId).containsExactlyInAnyOrder("big", "excl");
        assertThat(plan.faults()).filteredOn(f -> f.vmId().equals("big")).allMatch(f -> f.message().contains("space threshold"));
        assertThat(MaintenanceEvacuation.stateAfter(state, "A")).isEqualTo(MaintenanceState.ENTERING);

        // With "ignore affinity rules for maintenance", a1 may go to B too; space still binds.
        MovePlan ignoring = MaintenanceEvacuation.plan(state, "A", true);
        assertThat(ignoring.faults()).extracting(Fault::vmId).containsExactlyInAnyOrder("big", "excl");
    }

    @Test
    void aNewDatastoreWithoutAModelGetsTheAverageSlopeAndReceivesLoad() {
        ClusterState state = Clusters.cluster()
                .datastore("A", 1000, LqSlopeModel.of(3, 4), null)
                .datastore("B", 1000, LqSlopeModel.of(5, 4), null)
                .datastore("new", 1000, null, null)
                .vm("a1", "A", 10, 10)
                .vm("a2", "A", 10, 10)
                .build();
        // A is at 4 + 3·20 = 64 ms; with a 10-OIO disk the default line (slope 4, intercept 4)
        // predicts 44 ms on "new", B 54 ms.
        LqSlopeModel d = DefaultModelRule.defaultModel(List.of(state.datastore("A").model(), state.datastore("B").model()));
        assertThat(d.lqLine().slopeMsPerIo()).isEqualTo(4.0);
        assertThat(DefaultModelRule.defaultModel(List.of()).lqLine().slopeMsPerIo()).isEqualTo(1.0);
        MovePlan plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(state);
        assertThat(plan.moves()).isNotEmpty();
        assertThat(plan.moves().get(0).destinationDatastoreId()).isEqualTo("new");
        assertThat(plan.moves().get(0).explanation().datastores().get(1).model()).isEqualTo(DefaultModelRule.MODEL_NAME);
    }

    @Test
    void initialPlacementUsesTheAverageWorkloadAndPicksTheMostBalancedDatastore() {
        ClusterState state = Clusters.cluster()
                .datastore("busy", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("idle", 1000, LqSlopeModel.of(1, 2), null)
                .vm("x", "busy", 10, 12)
                .build();
        assertThat(InitialPlacement.averageWorkload(state).outstandingIos()).isEqualTo(12.0);
        InitialPlacement.Result r = InitialPlacement.recommendDatastores(state, new InitialPlacement.NewVm("n", "h0", null,
                List.of(new InitialPlacement.NewDisk("n-d0", 20, null), new InitialPlacement.NewDisk("n-d1", 20, null)), null, 0),
                InitialPlacement.Objective.PESTO_BALANCE);
        assertThat(r.faults()).isEmpty();
        assertThat(r.recommendations()).hasSize(1);
        assertThat(r.recommendations().get(0).datastoreId()).isEqualTo("idle");
        assertThat(r.recommendations().get(0).diskIds()).containsExactly("n-d0", "n-d1");
        assertThat(r.recommendations().get(0).rankedDatastores()).containsExactly("idle", "busy");

        InitialPlacement.Result basil = InitialPlacement.recommendDatastores(state, new InitialPlacement.NewVm("n", "h0", false,
                List.of(new InitialPlacement.NewDisk("n-d0", 20, new Workload(4, 4, 1, 1))),
                List.of(new Rule.VmAntiAffinity("r", Set.of("n", "x"))), 0), InitialPlacement.Objective.BASIL_MIN_NORMALIZED_LOAD);
        assertThat(basil.recommendations().get(0).datastoreId()).isEqualTo("idle");
        assertThat(basil.recommendations().get(0).rankedDatastores()).containsExactly("idle");
    }

    /** A new VM's home (its swap: memory less reservation) lands with its disks: a datastore it would fill past the threshold is no choice. */
    @Test
    void initialPlacementCountsTheNewVmsHomeAgainstTheSpaceThreshold() {
        ClusterState state = Clusters.cluster()
                .datastore("idle", 100, LqSlopeModel.of(1, 2), null)
                .datastore("busy", 1000, LqSlopeModel.of(1, 2), null)
                .vm("x", "busy", 10, 12)
                .build();
        List<InitialPlacement.NewDisk> disk = List.of(new InitialPlacement.NewDisk("n-d0", 20, null));
        InitialPlacement.Result small = InitialPlacement.recommendDatastores(state, new InitialPlacement.NewVm("n", "h0", null, disk,
                null, 8), InitialPlacement.Objective.PESTO_BALANCE);
        assertThat(small.recommendations().get(0).datastoreId()).isEqualTo("idle");
        assertThat(small.recommendations().get(0).rankedDatastores()).containsExactly("idle", "busy");
        // 20 GB of disk and a 64-GB home: 84 GB on idle, over its 80-GB threshold
        InitialPlacement.Result big = InitialPlacement.recommendDatastores(state, new InitialPlacement.NewVm("n", "h0", null, disk,
                null, 64), InitialPlacement.Objective.PESTO_BALANCE);
        assertThat(big.recommendations().get(0).datastoreId()).isEqualTo("busy");
        assertThat(big.recommendations().get(0).rankedDatastores()).containsExactly("busy");
    }

    @Test
    void capacityPlanningFollowsEquations12And13() {
        // Pesto Table 4-like device: m = 0.5 ms/IO, C = 4 ms; 10 OIO placed.
        ClusterState state = Clusters.cluster()
                .datastore("A", 1000, LqSlopeModel.of(0.5, 4), null)
                .vm("x", "A", 100, 10)
                .build();
        CapacityPlanner.Capacity c = CapacityPlanner.forDatastore(state, "A", new Workload(4, 4, 1, 1), 50, 30, 0.8);
        assertThat(c.qMax()).isCloseTo((30 - 4) / 0.5, within(1e-9));            // Eq. 12: 52
        assertThat(c.qAlpha()).isCloseTo(0.8 * 4 / (0.5 * 0.2), within(1e-9));   // Eq. 13: 32
        assertThat(c.moreByLatency()).isEqualTo(10);    // (52 − 10)/4
        assertThat(c.moreByThroughput()).isEqualTo(5);  // (32 − 10)/4
        assertThat(c.moreBySpace()).isEqualTo(14);      // (800 − 100)/50
        assertThat(c.more()).isEqualTo(5);
    }

    @Test
    void congestionThresholdIsLAlphaCappedByTheGlobalMaximum() {
        ClusterState state = Clusters.cluster()
                .datastore("A", 1000, LqSlopeModel.of(0.5, 4), null)
                .datastore("B", 1000, LqSlopeModel.of(0.1, 9), null)
                .build();
        Map<String, CongestionThresholds.Threshold> t = CongestionThresholds.of(state, 0.8, 0);
        assertThat(t.get("A").latencyMs()).isCloseTo(20.0, within(1e-9));  // C/(1 − α), Eq. 9
        assertThat(t.get("B").latencyMs()).isCloseTo(45.0, within(1e-9));
        assertThat(t.get("A").fallbackReason()).isNull();
        assertThat(CongestionThresholds.of(state, 0.8, 30).get("B").latencyMs()).isEqualTo(30.0);
    }

    @Test
    void aLineThroughTheOriginGetsSiocsDefaultThresholdWithAReasonNotZero() {
        // C = 0: a fit whose free C was negative, or Pesto's default model with no fitted datastore
        ClusterState state = Clusters.cluster()
                .datastore("origin", 1000, LqSlopeModel.of(2.19, 0), null)
                .build();
        CongestionThresholds.Threshold t = CongestionThresholds.of(state, 0.9, 0).get("origin");
        assertThat(LqSlopeModel.of(2.19, 0).lqLine().latencyAtFractionOfPeak(0.9)).isZero();  // what Eq. 9 gives
        assertThat(t.latencyMs()).isEqualTo(CongestionThresholds.SIOC_DEFAULT_THRESHOLD_MS);
        assertThat(t.fallbackReason()).contains("Eq. 9").contains("C = 0.0 ms").contains("SIOC");
        assertThat(CongestionThresholds.of(state, 0.9, 20).get("origin").latencyMs()).isEqualTo(20.0);
    }

    @Test
    void spaceBalancingMovesDisksOffADatastoreOverItsThreshold() {
        ClusterState state = Clusters.cluster()
                .datastore("full", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("roomy", 1000, LqSlopeModel.of(1, 2), null)
                .vm("a", "full", 500, 1)
                .vm("b", "full", 350, 1)
                .build();
        MovePlan plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(state);
        assertThat(plan.moves()).hasSize(1);
        assertThat(plan.moves().get(0).reason()).isEqualTo(ReasonCode.BALANCE_DATASTORE_SPACE_USAGE);
        assertThat(plan.moves().get(0).destinationDatastoreId()).isEqualTo("roomy");
    }

    /**
     * A VM that keeps its VMDKs together moves whole, its home — configuration files, logs, swap — along:
     * the destination's space threshold counts the home, and the move's size is what copies.
     */
    @Test
    void aWholeVmMoveCountsItsHomeAgainstTheDestinationsSpaceThreshold() {
        // A: 100 GB holding fat (a 30-GB disk and a 40-GB home) and other (20 GB): 90 %, over the 80 % threshold.
        // fat's disk alone would fit on B (20 GB used) and on C (45 GB); with its home it fits on neither
        ClusterState tight = fatOnA(100, 45);
        MovePlan plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(tight);
        PlanInvariants.check(tight, plan, false);
        assertThat(plan.moves()).extracting(Move::vmId).containsExactly("other");

        // with room on C, fat goes whole: 70 GB copy and land there
        ClusterState roomy = fatOnA(200, 0);
        plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(roomy);
        PlanInvariants.check(roomy, plan, false);
        Move fat = plan.moves().get(0);
        assertThat(fat.vmId()).isEqualTo("fat");
        assertThat(fat.wholeVm()).isTrue();
        assertThat(fat.destinationDatastoreId()).isEqualTo("C");
        assertThat(fat.sizeGb()).isEqualTo(70.0);
        assertThat(fat.explanation().summary()).contains("70.0 GB");
    }

    /**
     * What vCenter is asked is planned by the engine: a whole VM's relocation names no disk, reads the
     * datastores its disks are on, and copies the home's bytes with the disks'.
     */
    @Test
    void aMovesRelocationIsWhatTheApplierIssues() {
        ClusterState roomy = fatOnA(200, 0);
        Move fat = new io.opensdrs.balance.pesto.LatencyEqualization().plan(roomy).moves().get(0);
        assertThat(fat.relocation()).isEqualTo(new Relocation("fat", Relocation.Scope.WHOLE_VM, List.of(), List.of("A"), "C", "h0",
                70L << 30));
    }

    /**
     * A kept-together VM with a disk outside the cluster moves its disks in the cluster alone, by their
     * vCenter keys: the home stays with the disk the engine does not plan, and is not counted as copied.
     */
    @Test
    void aVmWithADiskOutsideTheClusterMovesItsDisksNotItsHome() {
        VmState fat = new VmState("fat", "h0", VmOverride.DEFAULT, true,
                List.of(new DiskState("fat/2001", 2001, 30, "A", new Workload(1, 4, 1, 1), 0)), "A", 40, 1);
        ClusterState state = Clusters.cluster()
                .datastore("A", 100, LqSlopeModel.of(1, 2), null)
                .datastore("B", 100, LqSlopeModel.of(1, 2), null)
                .datastore("C", 200, LqSlopeModel.of(1, 2), null)
                .vm(fat).vm("other", "A", 20, 1).vm("b1", "B", 20, 1).build();
        MovePlan plan = new io.opensdrs.balance.pesto.LatencyEqualization().plan(state);
        PlanInvariants.check(state, plan, false);
        Move moved = plan.moves().stream().filter(m -> m.vmId().equals("fat")).findFirst().orElseThrow(() ->
                new AssertionError("fat's disk does not move: " + plan.moves()));
        assertThat(moved.wholeVm()).isFalse();
        assertThat(moved.sizeGb()).isEqualTo(30.0);
        assertThat(moved.relocation()).isEqualTo(new Relocation("fat", Relocation.Scope.DISKS, List.of(2001), List.of("A"),
                moved.destinationDatastoreId(), "h0", 30L << 30));
    }

    /**
     * An evacuation moves a VM with all its disks whole, its home along, though it does not keep its
     * VMDKs together: vCenter counts the datastore empty only once no VM has a file there. A VM whose
     * disks leave one by one leaves them as disks, each by its key.
     */
    @Test
    void anEvacuationMovesAVmWithAllItsDisksWholeKeptTogetherOrNot() {
        Workload w = new Workload(1, 4, 1, 1);
        ClusterState state = Clusters.cluster()
                .datastoreIn(MaintenanceState.NORMAL, "leaving", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "roomy", 1000, LqSlopeModel.of(1, 2))
                .vm(new VmState("one", "h0", VmOverride.DEFAULT, false, List.of(new DiskState("one/2000", 2000, 10, "leaving", w, 0)),
                        "leaving", 2))
                .vm(new VmState("two", "h0", VmOverride.DEFAULT, false, List.of(new DiskState("two/2000", 2000, 10, "leaving", w, 0),
                        new DiskState("two/2001", 2001, 10, "leaving", w, 0)), "leaving", 2))
                .build();
        MovePlan plan = MaintenanceEvacuation.plan(state, "leaving", false);
        Move one = plan.moves().stream().filter(m -> m.vmId().equals("one")).findFirst().orElseThrow();
        assertThat(one.relocation()).isEqualTo(new Relocation("one", Relocation.Scope.WHOLE_VM, List.of(), List.of("leaving"), "roomy",
                "h0", 12L << 30));
        assertThat(one.sizeGb()).as("the home copies too").isEqualTo(12.0);
        assertThat(plan.moves()).filteredOn(m -> m.vmId().equals("two")).extracting(m -> m.relocation().scope() + " " + m.relocation().diskKeys())
                .containsExactlyInAnyOrder("DISKS [2000]", "DISKS [2001]");
    }

    /** A, B (20 GB used) of 100 GB and C of {@code capacityC} holding {@code usedOnC}; on A fat (30-GB disk, 40-GB home) and other (20 GB). */
    private static ClusterState fatOnA(double capacityC, double usedOnC) {
        Clusters c = Clusters.cluster()
                .datastore("A", 100, LqSlopeModel.of(1, 2), null)
                .datastore("B", 100, LqSlopeModel.of(1, 2), null)
                .datastore("C", capacityC, LqSlopeModel.of(1, 2), null)
                .vm(VmState.of("fat", "h0", List.of(new DiskState("fat-d0", 30, "A", new Workload(1, 4, 1, 1), 0))).withHome("A", 40))
                .vm("other", "A", 20, 1)
                .vm("b1", "B", 20, 1);
        return (usedOnC > 0 ? c.vm("c1", "C", usedOnC, 1) : c).build();
    }

    /**
     * A datastore entering maintenance mode is its evacuation's: no strategy moves a disk off it
     * (nor onto it), though it is over its space threshold and the most loaded — a balancing move of
     * a disk the evacuation moves would be a second relocation of the same disk.
     */
    @Test
    void noStrategyMovesDisksOffADatastoreEnteringMaintenanceItsEvacuationDoes() {
        ClusterState state = leavingWorld(MaintenanceState.ENTERING);
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        for (String name : registry.names()) {
            MovePlan plan = registry.create(name, 7).plan(state);
            assertThat(plan.moves()).as(name).noneMatch(m -> m.sourceDatastoreId().equals("leaving")
                    || m.destinationDatastoreId().equals("leaving"));
        }
        assertThat(MaintenanceEvacuation.plan(state, "leaving", false).moves()).extracting(Move::vmId).containsExactlyInAnyOrder("a", "b");
        // the same world out of maintenance: space balancing moves a disk off it
        ClusterState normal = leavingWorld(MaintenanceState.NORMAL);
        for (String name : registry.names()) {
            assertThat(registry.create(name, 7).plan(normal).moves()).as(name).anyMatch(m -> m.sourceDatastoreId().equals("leaving"));
        }
    }

    /** "leaving" (in the given maintenance state) 85 % used and the most loaded, beside "roomy" and "busy". */
    private static ClusterState leavingWorld(MaintenanceState leaving) {
        return Clusters.cluster()
                .datastoreIn(leaving, "leaving", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "roomy", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "busy", 1000, LqSlopeModel.of(1, 2))
                .vm("a", "leaving", 500, 30)
                .vm("b", "leaving", 350, 30)
                .vm("c", "busy", 100, 40)
                .vm("d", "busy", 100, 40)
                .build();
    }

    @Test
    void wavesRespectEightPerDatastoreAndTwoPerHost() {
        List<Move> moves = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            moves.add(new Move(0, 0, new Relocation("vm" + i, Relocation.Scope.WHOLE_VM, List.of(), List.of("A"), "B", "h" + (i % 2), 1L << 30),
                    List.of("d" + i), "A", 1, ReasonCode.BALANCE_DATASTORE_IO_LOAD, new Explanation("", List.of()), Estimate.exact(0),
                    Estimate.exact(0), false));
        }
        List<Move> waves = MoveScheduler.schedule(moves, BalancingSettings.defaults());
        // Two hosts × 2 per host = 4 in the first wave, then 2.
        assertThat(waves).extracting(Move::wave).containsExactly(1, 1, 1, 1, 2, 2);
        assertThat(waves).extracting(Move::sequence).containsExactly(1, 2, 3, 4, 5, 6);
    }

    @Test
    void aMoveIntoADatastoreAnEarlierMoveLeavesHasThatMoveAsParent() {
        List<Move> moves = List.of(move("shed", "B", "C"), move("other", "A", "C"), move("into", "A", "B"), move("more", "D", "B"));
        List<Move> plan = MoveScheduler.schedule(moves, BalancingSettings.defaults());
        assertThat(plan).extracting(Move::wave).containsExactly(1, 1, 2, 2);
        // the space B frees is what the moves into B wait for; the limits alone make no parent
        assertThat(plan).extracting(Move::parents).containsExactly(List.of(), List.of(), List.of(1), List.of(1));
    }

    private static Move move(String vm, String from, String to) {
        return new Move(0, 0, new Relocation(vm, Relocation.Scope.DISKS, List.of(2000), List.of(from), to, "h-" + vm, 1L << 30),
                List.of(vm + "/2000"), from, 1, ReasonCode.BALANCE_DATASTORE_SPACE_USAGE, new Explanation("", List.of()),
                Estimate.exact(0), Estimate.exact(0), false);
    }
}
