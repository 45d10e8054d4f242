package io.opensdrs.balance.romano;

import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.RuleChecker;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.model.romano.MeritMetric;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Romano's minimizeMerit (Park, Ahmad, Lilja, SoCC'12, Algorithm 1): simulated annealing over
 * placements. Each iteration picks a random unit and a random other datastore, predicts the
 * two datastores' latencies after the move (Romano's aggregation and model, via
 * {@code DatastoreLoad}), and accepts it when the merit M (Eq. 25) falls, or with probability
 * e^((M − M')/T) when it rises; the best state seen is remembered and returned — which is what
 * makes annealing no worse than a greedy local optimum (Romano §4.3, citing Granville et al.).
 *
 * <p>Only placements that {@link RuleChecker} allows are explored, so the target is feasible.
 * Temperature: the paper's schedule is garbled ("divides k/k_max by 1.2"); here it falls
 * geometrically from 10 % to 0.01 % of the initial merit over the iterations. Deterministic
 * for a given seed.
 */
public final class SimulatedAnnealing {

    private final long seed;
    private final int iterations;
    private final MeritMetric merit;

    public SimulatedAnnealing(long seed, int iterations, MeritMetric merit) {
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
        }
        this.seed = seed;
        this.iterations = iterations;
        this.merit = merit;
    }

    /** Outcome: each unit's target datastore, and the merits. */
    public record Result(int[] target, double initialMerit, double bestMerit, int accepted) {
    }

    public Result minimize(WorkingPlacement placement, List<MovableUnit> units) {
        WorkingPlacement sa = placement.copy();
        Random random = new Random(seed);
        int n = sa.datastoreCount();
        int[] current = new int[units.size()];
        for (int u = 0; u < current.length; u++) {
            current[u] = sa.datastoreOf(units.get(u));
        }
        List<Integer> accepting = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            if (sa.acceptsDisks(j)) {
                accepting.add(j);
            }
        }
        double[] latency = sa.latencies();
        double m = merit.of(latency);
        double initial = m;
        double best = m;
        // The accepted moves, replayed up to the best state at the end: O(1) per step instead of
        // copying the whole assignment whenever a new best appears.
        int[] journalUnit = new int[Math.max(16, Math.min(iterations, 1 << 20))];
        int[] journalTo = new int[journalUnit.length];
        int journal = 0;
        int bestJournal = 0;
        double t0 = 0.1 * Math.max(m, 1e-9);
        double tEnd = 1e-4 * Math.max(m, 1e-9);
        if (units.isEmpty() || accepting.isEmpty()) {
            return new Result(current.clone(), initial, best, 0);
        }
        for (int k = 0; k < iterations; k++) {
            double temperature = t0 * Math.pow(tEnd / t0, (double) k / Math.max(1, iterations));
            int u = random.nextInt(units.size());
            MovableUnit unit = units.get(u);
            int src = current[u];
            int dst = accepting.get(random.nextInt(accepting.size()));
            if (dst == src || !RuleChecker.allows(sa, unit.vm(), unit.disks(), dst, false)) {
                continue;
            }
            double ls = sa.load(src).predictWith(null, unit.disks(), null).latencyMs();
            double ld = sa.load(dst).predictWith(unit.disks(), null, null).latencyMs();
            double oldS = latency[src];
            double oldD = latency[dst];
            latency[src] = ls;
            latency[dst] = ld;
            double candidate = merit.of(latency);
            if (candidate < m || random.nextDouble() < Math.exp((m - candidate) / temperature)) {
                sa.move(unit.disks(), dst);
                current[u] = dst;
                m = candidate;
                if (journal == journalUnit.length) {
                    journalUnit = java.util.Arrays.copyOf(journalUnit, journal * 2);
                    journalTo = java.util.Arrays.copyOf(journalTo, journal * 2);
                }
                journalUnit[journal] = u;
                journalTo[journal] = dst;
                journal++;
                if (m < best) {
                    best = m;
                    bestJournal = journal;
                }
            } else {
                latency[src] = oldS;
                latency[dst] = oldD;
            }
        }
        int[] target = new int[units.size()];
        for (int u = 0; u < target.length; u++) {
            target[u] = placement.datastoreOf(units.get(u));
        }
        for (int e = 0; e < bestJournal; e++) {
            target[journalUnit[e]] = journalTo[e];
        }
        return new Result(target, initial, best, journal);
    }
}
