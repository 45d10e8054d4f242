package io.opensdrs.model.basil;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.OioWeightedAggregation;
import io.opensdrs.model.Workload;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * BASIL (Gulati, Kumar, Ahmad): latency L = (K1+OIO)(K2+IOsize)(K3+read%/100)(K4+random%/100)/K5
 * (BASIL Eq. 1). K1..K4 are medians over pairs differing in one characteristic (Eqs. 2–3);
 * K5 is the least-squares fit of latency on the numerator through the origin. Workloads
 * placed together add their metrics (BASIL §4: Σ L_i), so a set's latency is Σ L_i / K5.
 *
 * <p>When the observations never vary a characteristic, its factor is a constant that K5
 * absorbs; its K is then set to 0 and reported as such.
 */
public final class BasilModel implements DatastoreModel {

    public static final String NAME = "basil";

    private BasilWorkloadMetric metric;
    private double k5;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public FitSummary fit(List<Observation> observations) {
        if (observations.size() < 2) {
            throw new IllegalArgumentException("basil needs at least 2 observations, got " + observations.size());
        }
        double[] k = new double[4];
        for (int c = 0; c < 4; c++) {
            double median = PairwiseConstantEstimator.median(observations, c);
            k[c] = Double.isNaN(median) ? 0 : median;
        }
        if (Double.isNaN(PairwiseConstantEstimator.median(observations, 0))) {
            throw new IllegalArgumentException("basil needs pairs of observations differing only in oio to find K1");
        }
        BasilWorkloadMetric candidate = new BasilWorkloadMetric(k[0], k[1], k[2], k[3]);
        SimpleRegression latencyOnMetric = new SimpleRegression(false);
        for (Observation o : observations) {
            latencyOnMetric.addData(candidate.of(o.workload()), o.latencyMs());
        }
        double slope = latencyOnMetric.getSlope();
        if (!(slope > 0)) {
            throw new IllegalArgumentException("basil: latency does not grow with the workload metric (slope " + slope + ")");
        }
        metric = candidate;
        k5 = 1 / slope;
        Map<String, Double> parameters = new LinkedHashMap<>();
        parameters.put("K1", k[0]);
        parameters.put("K2", k[1]);
        parameters.put("K3", k[2]);
        parameters.put("K4", k[3]);
        parameters.put("K5", k5);
        return new FitSummary(NAME, rSquared(observations), parameters, observations.size());
    }

    @Override
    public boolean isFitted() {
        return metric != null;
    }

    public BasilWorkloadMetric metric() {
        requireFitted();
        return metric;
    }

    /** L_i of BASIL Eq. 1 with this fit's K1..K4, once fitted. */
    @Override
    public Optional<ToDoubleFunction<Workload>> workloadMetric() {
        if (metric == null) {
            return Optional.empty();
        }
        BasilWorkloadMetric fitted = metric;
        return Optional.of(fitted::of);
    }

    public double k5() {
        requireFitted();
        return k5;
    }

    /** O summed, the rest weighted by O (for callers that need one workload). */
    @Override
    public Workload aggregate(List<Workload> workloads) {
        return OioWeightedAggregation.aggregate(workloads);
    }

    /** Σ L_i / K5: BASIL adds the workload metrics of co-located workloads (§4). */
    @Override
    public Prediction predict(List<Workload> workloads) {
        requireFitted();
        double sum = 0;
        double o = 0;
        for (Workload w : workloads) {
            sum += metric.of(w);
            o += w.outstandingIos();
        }
        return Prediction.of(o, sum / k5, null);
    }

    /** Σ L_i and Σ O kept as running sums ({@link WorkloadMetricSum}), O(1) per workload moved. */
    @Override
    public IncrementalAggregation incrementalAggregation(Workload[] workloads) {
        return new WorkloadMetricSum(this, workloads);
    }

    @Override
    public Prediction predict(Workload workload) {
        requireFitted();
        return Prediction.of(workload.outstandingIos(), metric.of(workload) / k5, null);
    }

    private void requireFitted() {
        if (metric == null) {
            throw new IllegalStateException("basil model is not fitted");
        }
    }
}
