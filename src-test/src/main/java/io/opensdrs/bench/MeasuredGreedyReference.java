package io.opensdrs.bench;

import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.sim.VirtualClock;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.world.World;
import io.opensdrs.testbed.world.WorldRun;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * B2's reference row ({@value #NAME}), not a strategy: where a world gets with up to
 * {@code k} moves of one VM each when every move is chosen by <em>measuring</em> each candidate
 * placement in the testbed's steady state instead of predicting it — the move that lowers the
 * mean datastore latency (the figure Romano Fig. 11 and B2's goals are about) the most, until
 * none lowers it. No model error, no cost-benefit filter, no copy load: what a
 * one-VM-at-a-time balancer that knew the devices exactly could reach with that many moves.
 * Greedy, so it bounds such balancers only roughly (a pair of moves can beat the best first
 * move); it says how much of a world's imbalance the testbed's devices let moves remove.
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

    BalancingTrial.Outcome run(Scenario scenario, String group, long seed) throws InvalidScenarioException, InterruptedException {
        Scenario current = BalancingWorlds.steady(scenario);
        Map<String, Double> idle = trial.idleLatencies(World.build(current));
        DatastoreLatencies before = measure(current, idle, seed);
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
                    DatastoreLatencies measured = measure(candidate, idle, seed);
                    if (measured.mean() < bestLatencies.mean() - 1e-9) {
                        best = candidate;
                        bestLatencies = measured;
                        bestMove = String.format(Locale.ROOT, "%s %s→%s: measured mean datastore latency %.2f → %.2f ms",
                                vm.name(), from, to, now.mean(), measured.mean());
                    }
                }
            }
            if (best == null) {
                plan.add("note: no single VM move lowers the measured mean datastore latency");
                break;
            }
            current = best;
            now = bestLatencies;
            plan.add(bestMove);
            moves++;
        }
        return new BalancingTrial.Outcome(scenario.name(), group, NAME, before, now, moves, true, 0, List.of(), plan);
    }

    /** The datastores every disk of the VM could move to: those its host sees. */
    private static List<String> reachable(Scenario s, VmSpec vm) {
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
        List<List<DiskWindow>> windows = new ArrayList<>();
        WorldRun run = WorldRun.create(World.build(s), WorldRun.Method.STEADY_STATE, seed);
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
        return BalancingTrial.latencies(windows, idle);
    }
}
