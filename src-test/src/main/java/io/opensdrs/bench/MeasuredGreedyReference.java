package io.opensdrs.bench;

import io.opensdrs.balance.Estimate;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.balance.perio.IoRateCostBenefit;
import io.opensdrs.model.Prediction;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.sim.VirtualClock;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.world.SteadyStateRun;
import io.opensdrs.testbed.world.World;
import io.opensdrs.testbed.world.WorldRun;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * B2's reference row ({@value #NAME}), not a strategy: where a world gets with up to
 * {@code k} moves of one VM each when every move is chosen by <em>measuring</em> each candidate
 * placement in the testbed's steady state instead of predicting it — the move that lowers the
 * per-IO latency (what the VMs feel, the figure B2 scores) the most without making the world
 * worse by B2's definition (the worst datastore's p90 more than 2 % above the start's), until
 * none does. No model error, no cost-benefit filter, no copy load: what a one-VM-at-a-time
 * balancer that knew the devices exactly could reach with that many moves, and what a
 * strategy's captured share is measured against.
 * Greedy, so it bounds such balancers only roughly (a pair of moves can beat the best first
 * move); it says how much of a world's imbalance the testbed's devices let moves remove.
 * Rules and space are not consulted (a VM moves with all its disks, to any datastore its host
 * sees): on a given scenario with rules the reference may reach placements the product may not.
 */
final class MeasuredGreedyReference {
    static final String NAME = "measured";

    private static final class Measured extends RuntimeException {
        Measured() {
            super(null, null, false, false);
        }
    }

    private final BalancingTrial trial;
    private final int maxMoves;

    MeasuredGreedyReference(BalancingTrial trial, int maxMoves) {
        if (maxMoves < 1) {
            throw new IllegalArgumentException("reference moves must be ≥ 1, was " + maxMoves);
        }
        this.trial = trial;
        this.maxMoves = maxMoves;
    }

    /**
     * How often the after-move predictions of romano's and pesto's models held what the testbed
     * then measured: for every single-VM move from the world's first placement, each of the two
     * datastores (where it carried IO before and after) predicted as the cost-benefit predicts it —
     * its measured mean latency now shifted by the model's predicted change, with the bounds the
     * cost-benefit gives that ({@link CostBenefit#anchored}: romano's after-prediction interval,
     * pesto's change error) — against its measured mean after.
     */
    record IntervalCheck(Count romano, Count pesto, PerIoCheck perIo) {
    }

    /**
     * How the per-IO latency change the product predicts for a move held against what the testbed
     * measured, for every single-VM move from the world's first placement: predicted with the models
     * a server set to {@code auto} would have ({@link BalancingTrial#autoState}) exactly as
     * {@code per-io} screens its candidates ({@link IoRateCostBenefit#pointRateGain}, Little's law
     * over the cluster), measured as B2 scores it. {@code errorSum} and {@code errorSquares} sum
     * measured minus predicted relative change over all {@code moves}; of the {@code predictedGains}
     * moves predicted to lower per-IO latency by at least 2 %, {@code held} measured lower and
     * {@code worse} measured more than 2 % higher.
     */
    record PerIoCheck(int moves, double errorSum, double errorSquares, int predictedGains, int held, int worse) {
        PerIoCheck plus(PerIoCheck o) {
            return new PerIoCheck(moves + o.moves, errorSum + o.errorSum, errorSquares + o.errorSquares,
                    predictedGains + o.predictedGains, held + o.held, worse + o.worse);
        }

        double meanError() {
            return moves == 0 ? Double.NaN : errorSum / moves;
        }

        double errorSd() {
            if (moves == 0) {
                return Double.NaN;
            }
            double m = meanError();
            return Math.sqrt(Math.max(0, errorSquares / moves - m * m));
        }
    }


    /** Datastores checked, and how many of them measured inside their predicted bounds. */
    record Count(int sides, int inside) {
        double share() {
            return sides == 0 ? Double.NaN : (double) inside / sides;
        }
    }

    BalancingTrial.Outcome run(Scenario scenario, String group, long seed) throws InvalidScenarioException, InterruptedException {
        return run(scenario, group, seed, new SteadyStateRun.Samples());
    }

    /** As {@link #run(Scenario, String, long)}, sharing steady-state samples with the world's other runs. */
    BalancingTrial.Outcome run(Scenario scenario, String group, long seed, SteadyStateRun.Samples samples)
            throws InvalidScenarioException, InterruptedException {
        Scenario current = BalancingWorlds.steady(scenario);
        Map<String, Double> idle = trial.idleLatencies(World.build(current));
        List<List<DiskWindow>> beforeWindows = windows(current, seed, samples);
        DatastoreLatencies before = BalancingTrial.latencies(beforeWindows, idle);
        WorkingPlacement[] models = {
                new WorkingPlacement(trial.clusterState(World.build(current), beforeWindows, "romano")),
                new WorkingPlacement(trial.clusterState(World.build(current), beforeWindows, "pesto"))};
        Set<String> busyBefore = busy(beforeWindows);
        WorkingPlacement auto = new WorkingPlacement(trial.autoState(World.build(current), beforeWindows));
        IoRateCostBenefit rates = new IoRateCostBenefit(auto, new CostBenefit(auto));
        PerIoCheck perIo = new PerIoCheck(0, 0, 0, 0, 0, 0);
        int[] sides = new int[models.length];
        int[] inside = new int[models.length];
        DatastoreLatencies now = before;
        List<String> plan = new ArrayList<>();
        int moves = 0;
        while (moves < maxMoves) {
            Scenario best = null;
            DatastoreLatencies bestLatencies = now;
            String bestMove = null;
            for (int v = 0; v < current.vms().size(); v++) {
                VmSpec vm = current.vms().get(v);
                String from = vm.disks().get(0).datastore();
                for (String to : reachable(current, vm)) {
                    if (to.equals(from)) {
                        continue;
                    }
                    List<VmSpec> vms = new ArrayList<>(current.vms());
                    vms.set(v, BalancingWorlds.placed(vm, to));
                    Scenario candidate = BalancingWorlds.withVms(current, current.name(), vms);
                    List<List<DiskWindow>> windows = windows(candidate, seed, samples);
                    DatastoreLatencies measured = BalancingTrial.latencies(windows, idle);
                    if (moves == 0) {
                        double predictedChange = predictedPerIoChange(auto, rates, vm.name(), from, to);
                        if (!Double.isNaN(predictedChange)) {
                            double change = measured.perIoMeanMs() / before.perIoMeanMs() - 1;
                            // B2's smallest change that counts, which is also per-io's smallest gain
                            boolean gain = predictedChange <= -DatastoreLatencies.WORSE_TOLERANCE;
                            perIo = perIo.plus(new PerIoCheck(1, change - predictedChange, (change - predictedChange) * (change - predictedChange),
                                    gain ? 1 : 0, gain && change < 0 ? 1 : 0, gain && change > DatastoreLatencies.WORSE_TOLERANCE ? 1 : 0));
                        }
                        Set<String> busyAfter = busy(windows);
                        for (int i = 0; i < models.length; i++) {
                            WorkingPlacement predicted = models[i];
                            int[] disks = predicted.vmDisks(vmIndex(predicted, vm.name()));
                            int src = predicted.datastoreIndex(from);
                            int dst = predicted.datastoreIndex(to);
                            Prediction[] after = {predicted.load(src).predictWith(null, disks, null),
                                    predicted.load(dst).predictWith(disks, null, null)};
                            int[] side = {src, dst};
                            for (int k = 0; k < 2; k++) {
                                String ds = predicted.datastoreId(side[k]);
                                if (busyBefore.contains(ds) && busyAfter.contains(ds)) {
                                    Estimate e = CostBenefit.anchored(after[k], predicted.prediction(side[k]),
                                            before.byDatastore().get(ds), true);
                                    double m = measured.byDatastore().get(ds);
                                    sides[i]++;
                                    if (e.lower() <= m && m <= e.upper()) {
                                        inside[i]++;
                                    }
                                }
                            }
                        }
                    }
                    if (measured.perIoMeanMs() < bestLatencies.perIoMeanMs() - 1e-9
                            && !DatastoreLatencies.worse(before, measured)) {
                        best = candidate;
                        bestLatencies = measured;
                        bestMove = String.format(Locale.ROOT, "%s %s→%s: measured per-IO latency %.2f → %.2f ms, worst p90 "
                                        + "%.2f → %.2f ms", vm.name(), from, to, now.perIoMeanMs(), measured.perIoMeanMs(),
                                now.worstP90(), measured.worstP90());
                    }
                }
            }
            if (best == null) {
                plan.add("note: no single VM move lowers the measured per-IO latency without raising the worst p90");
                break;
            }
            current = best;
            now = bestLatencies;
            plan.add(bestMove);
            moves++;
        }
        return new BalancingTrial.Outcome(scenario.name(), group, NAME, before, now, moves, true, 0, List.of(), plan,
                new IntervalCheck(new Count(sides[0], inside[0]), new Count(sides[1], inside[1]), perIo));
    }

    /**
     * The cluster's per-IO latency change {@code per-io} predicts for moving the VM, as a share; NaN
     * when the VM moves as more than one unit there (its disks kept apart) or carries no IO.
     */
    private static double predictedPerIoChange(WorkingPlacement p, IoRateCostBenefit rates, String vm, String from, String to) {
        List<MovableUnit> units = p.unitsOf(vmIndex(p, vm));
        double total = p.ioRate();
        if (units.size() != 1 || !(total > 0)) {
            return Double.NaN;
        }
        MovableUnit u = units.get(0);
        int src = p.datastoreIndex(from);
        double gain = rates.pointRateGain(u, src, p.datastoreIndex(to), p.load(src).predictWith(null, u.disks(), null));
        // Σ O is fixed, so per-IO latency scales as T / (T + ΔT)
        return total / (total + gain) - 1;
    }

    private static int vmIndex(WorkingPlacement p, String vm) {
        for (int v = 0; v < p.vmCount(); v++) {
            if (p.vmId(v).equals(vm)) {
                return v;
            }
        }
        throw new IllegalStateException("VM " + vm + " is not in the cluster state");
    }

    /** The datastores that carried IO in the windows (a disk of theirs completed some). */
    private static Set<String> busy(List<List<DiskWindow>> windows) {
        Set<String> out = new HashSet<>();
        for (List<DiskWindow> w : windows) {
            for (DiskWindow d : w) {
                if (d.ios() > 0 && !BalancingTrial.isCopy(d)) {
                    out.add(d.datastore());
                }
            }
        }
        return out;
    }

    /** The datastores every disk of the VM could move to: those its host sees. */
    static List<String> reachable(Scenario s, VmSpec vm) {
        for (HostSpec h : s.hosts()) {
            if (h.name().equals(vm.host())) {
                return h.datastores();
            }
        }
        return s.datastores().stream().map(d -> d.name()).toList();
    }

    /** The steady state of {@code s} over three windows, as BalancingTrial measures "before" and "after". */
    DatastoreLatencies measure(Scenario s, Map<String, Double> idle, long seed)
            throws InvalidScenarioException, InterruptedException {
        return BalancingTrial.latencies(windows(s, seed, new SteadyStateRun.Samples()), idle);
    }

    static List<List<DiskWindow>> windows(Scenario s, long seed, SteadyStateRun.Samples samples)
            throws InvalidScenarioException, InterruptedException {
        List<List<DiskWindow>> windows = new ArrayList<>();
        WorldRun run = WorldRun.steadyState(World.build(s), seed, samples);
        try {
            run.run(1, new VirtualClock(), (t, disks, totals) -> {
                windows.add(disks);
                if (windows.size() == BalancingTrial.MEASURED_WINDOWS) {
                    throw new Measured();
                }
            }, WorldRun.PlacementPolicy.NONE);
        } catch (Measured done) {
            // three windows, as BalancingTrial's "before" and "after"
        }
        return windows;
    }
}
