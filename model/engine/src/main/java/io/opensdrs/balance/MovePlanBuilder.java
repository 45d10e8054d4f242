package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects a run's moves on a {@link WorkingPlacement} (applying each there, so that later
 * decisions see it), then finishes the plan: automation flags per move, concurrency waves.
 */
public final class MovePlanBuilder {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final WorkingPlacement placement;
    private final String strategy;
    private final List<Move> moves = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Set<Integer> movedDisks = new HashSet<>();

    public MovePlanBuilder(WorkingPlacement placement, String strategy) {
        this.placement = placement;
        this.strategy = strategy;
    }

    public WorkingPlacement placement() {
        return placement;
    }

    public int moveCount() {
        return moves.size();
    }

    /**
     * Whether a disk of {@code unit} already has a move in this run. A run moves each disk at
     * most once: each move becomes its own recommendation, recorded with the disk's location
     * now, so a second move of the same disk would reach the applier with a stale source and
     * fail its pre-condition (PostgresLoopIT: pesto moved silver-log4 10k1 → 7k1, then 7k1 → 10k2).
     */
    public boolean hasMoved(MovableUnit unit) {
        for (int i : unit.disks()) {
            if (movedDisks.contains(i)) {
                return true;
            }
        }
        return false;
    }

    /** True while the run may still add moves under {@link BalancingSettings#maxMovesPerRun()}. */
    public boolean underMoveCap() {
        return moves.size() < placement.settings().maxMovesPerRun();
    }

    /**
     * Records a move of {@code unit} to {@code destination} and applies it to the working
     * placement. The caller has checked it with {@link RuleChecker}; this checks again, so that
     * no code path can record a move that breaks a rule.
     */
    public Move add(MovableUnit unit, int destination, ReasonCode reason, String summary,
                    List<DatastoreForecast> forecasts, Estimate cost, Estimate benefit, boolean ignoreAffinity) {
        String violation = RuleChecker.check(placement, unit.vm(), unit.disks(), destination, ignoreAffinity);
        if (violation != null) {
            throw new IllegalStateException("refusing to record a move that breaks a rule: " + violation);
        }
        if (hasMoved(unit)) {
            throw new IllegalStateException("refusing to move a disk twice in one run: " + placement.vmId(unit.vm()));
        }
        int source = placement.datastoreOf(unit);
        List<String> diskIds = new ArrayList<>();
        List<Integer> diskKeys = new ArrayList<>();
        Set<String> sources = new LinkedHashSet<>();
        int[] disks = unit.disks().clone();
        Arrays.sort(disks);
        for (int i : disks) {
            diskIds.add(placement.diskId(i));
            // a disk already on the destination (a kept-together VM gathered there) is no part of what vCenter moves
            if (placement.diskDatastore(i) != destination) {
                diskKeys.add(placement.diskKey(i));
                sources.add(placement.datastoreId(placement.diskDatastore(i)));
            }
        }
        boolean auto = AutomationPolicy.autoApplicable(placement.settings(), reason, placement.vmOverride(unit.vm()));
        boolean wholeVm = placement.carriesHome(unit.vm(), disks);
        // what copies: a VM gathered onto a datastore already holding some of its disks leaves those where they are;
        // a whole VM's home (configuration, logs, swap) copies too unless it is there already
        double copiedGb = placement.homeArrivingGb(unit.vm(), disks, destination);
        for (int i : disks) {
            if (placement.diskDatastore(i) != destination) {
                copiedGb += placement.diskSizeGb(i);
            }
        }
        Relocation relocation = new Relocation(placement.vmId(unit.vm()), wholeVm ? Relocation.Scope.WHOLE_VM : Relocation.Scope.DISKS,
                wholeVm ? List.of() : diskKeys, List.copyOf(sources), placement.datastoreId(destination),
                placement.vmHostId(unit.vm()), Math.round(copiedGb * GIB));
        Move m = new Move(moves.size() + 1, 0, relocation, diskIds, placement.datastoreId(source), copiedGb, reason,
                new Explanation(summary, forecasts), cost, benefit, auto);
        placement.move(unit.disks(), destination);
        for (int i : unit.disks()) {
            movedDisks.add(i);
        }
        moves.add(m);
        return m;
    }

    public void fault(Fault f) {
        faults.add(f);
    }

    public void note(String note) {
        notes.add(note);
    }

    public MovePlan build() {
        BalancingSettings s = placement.settings();
        return new MovePlan(placement.state().clusterId(), strategy, MoveScheduler.schedule(moves, s), faults, notes,
                s.maxConcurrentMigrationsPerDatastore(), s.maxConcurrentMigrationsPerHost());
    }
}
