package io.opensdrs.balance.basil;

import io.opensdrs.balance.BalancingRun;
import io.opensdrs.balance.BalancingStrategy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.MovePlanBuilder;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.RuleChecker;
import io.opensdrs.balance.WorkingPlacement;
import io.opensdrs.balance.pesto.CostBenefit;
import io.opensdrs.model.Workload;
import io.opensdrs.model.basil.DevicePerformance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * BASIL's IO load balancing (Gulati, Kumar, Ahmad, BASIL Algorithm 1, SPEC §3.1): equalize
 * the normalized load N_j = Σ L_i / P_j (BASIL Eq. 5) by repeatedly pairing the datastore with
 * the largest N with the one with the smallest and moving disks between them, highest
 * L_i / disk size first, until the variance of N falls under a threshold. A move is taken only
 * when it brings the pair closer (the destination stays below the source's former N).
 *
 * <p>L_i is BASIL's workload metric (numerator of Eq. 1) with the K1..K4 of a fitted BASIL
 * model in the cluster (BASIL treats them as workload constants, device independent); with no
 * BASIL model, L_i = O_i (the other factors then are the same constant for every disk).
 * P_j = 1 / LQ slope of datastore j's model, read as a line ({@link io.opensdrs.model.DatastoreModel#lqLine}).
 *
 * <p>Faithful to the paper, BASIL does no cost-benefit analysis: the plan shows Pesto's cost and
 * benefit for each move, but they do not filter (Pesto Table 2 measures what that costs).
 */
public final class NormalizedLoadGreedy implements BalancingStrategy {

    public static final String NAME = "basil";

    private final double relativeVarianceThreshold;

    public NormalizedLoadGreedy() {
        this(0.01);
    }

    /** @param relativeVarianceThreshold stop when var(N)/mean(N)² is below this */
    public NormalizedLoadGreedy(double relativeVarianceThreshold) {
        this.relativeVarianceThreshold = relativeVarianceThreshold;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MovePlan plan(ClusterState state) {
        return BalancingRun.run(state, NAME, (b, cb) -> balance(state, b, cb));
    }

    /** The workload metric L_i BASIL balances with, for this cluster. */
    public static ToDoubleFunction<Workload> workloadMetric(ClusterState state) {
        for (DatastoreState d : state.datastores()) {
            if (d.fittedModel().isPresent()) {
                Optional<ToDoubleFunction<Workload>> metric = d.model().workloadMetric();
                if (metric.isPresent()) {
                    return metric.get();
                }
            }
        }
        return Workload::outstandingIos;
    }

    /** P_j = 1/LQ-slope (BASIL §4) of every datastore's model. */
    public static double[] devicePerformance(WorkingPlacement p) {
        double[] perf = new double[p.datastoreCount()];
        for (int j = 0; j < perf.length; j++) {
            perf[j] = 1 / p.model(j).lqLine().slopeMsPerIo();
        }
        return perf;
    }

    void balance(ClusterState state, MovePlanBuilder b, CostBenefit costBenefit) {
        WorkingPlacement p = b.placement();
        ToDoubleFunction<Workload> metric = workloadMetric(state);
        double[] perf = devicePerformance(p);
        int n = p.datastoreCount();
        double[] loadSum = new double[n];
        double[] diskMetric = new double[p.diskCount()];
        for (int i = 0; i < p.diskCount(); i++) {
            diskMetric[i] = metric.applyAsDouble(p.diskWorkload(i));
            loadSum[p.diskDatastore(i)] += diskMetric[i];
        }
        List<MovableUnit> units = p.units();
        while (b.underMoveCap()) {
            double[] nLoad = new double[n];
            for (int j = 0; j < n; j++) {
                nLoad[j] = DevicePerformance.normalizedLoad(loadSum[j], perf[j]);
            }
            if (relativeVariance(nLoad) < relativeVarianceThreshold) {
                b.note(String.format(Locale.ROOT, "normalized-load variance is under %.3g of its mean squared", relativeVarianceThreshold));
                break;
            }
            int source = 0;
            for (int j = 1; j < n; j++) {
                if (nLoad[j] > nLoad[source]) {
                    source = j;
                }
            }
            List<Integer> destinations = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                if (j != source && p.acceptsDisks(j)) {
                    destinations.add(j);
                }
            }
            destinations.sort(Comparator.comparingDouble(j -> nLoad[j]));
            List<MovableUnit> candidates = p.unitsOn(units, source);
            candidates.removeIf(b::hasMoved);
            ToDoubleFunction<MovableUnit> unitMetric = u -> {
                double s = 0;
                for (int i : u.disks()) {
                    s += diskMetric[i];
                }
                return s;
            };
            // BASIL §4: highest L_i / disk size first — the most load per GB copied.
            candidates.sort(Comparator.comparingDouble((MovableUnit u) -> -unitMetric.applyAsDouble(u) / Math.max(u.sizeGb(), 1e-9)));
            MovableUnit chosen = null;
            int chosenDst = -1;
            for (int dst : destinations) {
                for (MovableUnit u : candidates) {
                    double l = unitMetric.applyAsDouble(u);
                    if (l <= 0) {
                        continue;
                    }
                    double dstAfter = nLoad[dst] + l / perf[dst];
                    if (dstAfter >= nLoad[source]) {
                        continue;
                    }
                    if (RuleChecker.allows(p, u.vm(), u.disks(), dst, false)) {
                        chosen = u;
                        chosenDst = dst;
                        break;
                    }
                }
                if (chosen != null) {
                    break;
                }
            }
            if (chosen == null) {
                b.note("no disk of the most loaded datastore can move closer to balance under the rules");
                break;
            }
            double l = unitMetric.applyAsDouble(chosen);
            CostBenefit.Result r = costBenefit.evaluate(chosen, source, chosenDst);
            String summary = String.format(Locale.ROOT,
                    "normalized load N = ΣL/P: %s %.3g (max) → %.3g, %s %.3g → %.3g; moving %s (L/size %.3g) "
                            + "(BASIL Eq. 5); predicted latency source %s, destination %s; %s",
                    p.datastoreName(source), nLoad[source], nLoad[source] - l / perf[source], p.datastoreName(chosenDst),
                    nLoad[chosenDst], nLoad[chosenDst] + l / perf[chosenDst], p.unitName(chosen),
                    l / Math.max(chosen.sizeGb(), 1e-9), r.source().latencyChange(), r.destination().latencyChange(), r.describe());
            b.add(chosen, chosenDst, ReasonCode.BALANCE_DATASTORE_IO_LOAD, summary, List.of(r.source(), r.destination()),
                    r.cost(), r.benefit(), false);
            loadSum[source] -= l;
            loadSum[chosenDst] += l;
        }
    }

    static double relativeVariance(double[] values) {
        double mean = 0;
        for (double v : values) {
            mean += v;
        }
        mean /= values.length;
        if (mean <= 0) {
            return 0;
        }
        double var = 0;
        for (double v : values) {
            var += (v - mean) * (v - mean);
        }
        return var / values.length / (mean * mean);
    }
}
