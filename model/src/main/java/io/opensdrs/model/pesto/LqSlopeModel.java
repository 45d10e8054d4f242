package io.opensdrs.model.pesto;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.OioWeightedAggregation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.stats.LineFit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pesto's device model (Gulati et al., SoCC'11): latency is linear in outstanding IOs,
 * L = m·Q + C (Pesto Eq. 1), fitted to injector runs of 4 KiB random reads at OIO 2–32
 * (§5.1), rejected when R² &lt; 0.93. Throughput follows from Little's law, T = Q/(m·Q + C)
 * (Eqs. 2–3). The model ignores IO size, read ratio and randomness: a datastore has one
 * LQ-slope whatever the workload, which is exactly what Romano later refines.
 */
public final class LqSlopeModel implements DatastoreModel {

    public static final String NAME = "pesto";

    private final LqEstimator estimator;
    private final LinearityGate gate;
    private LineFit line;

    public LqSlopeModel() {
        this(new OrdinaryLqEstimator(), LinearityGate.PESTO);
    }

    public LqSlopeModel(LqEstimator estimator, LinearityGate gate) {
        this.estimator = estimator;
        this.gate = gate;
    }

    /** A model with a known line, e.g. Pesto's default model (§5.1.3) or one transcribed from a paper. */
    public static LqSlopeModel of(double slopeMsPerIo, double interceptMs) {
        LqSlopeModel model = new LqSlopeModel();
        model.line = new LineFit(slopeMsPerIo, interceptMs, Double.NaN, 0);
        return model;
    }

    @Override
    public String name() {
        return NAME;
    }

    public LqEstimator estimator() {
        return estimator;
    }

    @Override
    public FitSummary fit(List<Observation> observations) {
        if (observations.size() < 2) {
            throw new IllegalArgumentException("pesto needs at least 2 observations at different oio, got " + observations.size());
        }
        double[] q = new double[observations.size()];
        double[] l = new double[observations.size()];
        for (int i = 0; i < q.length; i++) {
            q[i] = observations.get(i).outstandingIos();
            l[i] = observations.get(i).latencyMs();
        }
        // The gate judges the run's linearity, so it looks at the ordinary fit whichever
        // estimator draws the line: a weighted line that ignores flat low-Q points on purpose
        // would otherwise fail runs that are perfectly usable.
        LineFit ordinary = LineFit.ordinary(q, l);
        gate.check(ordinary);
        LineFit candidate = estimator.fit(q, l);
        if (!(candidate.slope() > 0)) {
            throw new IllegalArgumentException("LQ slope is not positive (" + candidate.slope()
                    + "): latency does not grow with oio in these observations");
        }
        line = candidate;
        Map<String, Double> parameters = new LinkedHashMap<>();
        parameters.put("m", line.slope());
        parameters.put("C", line.intercept());
        parameters.put("peak_iops", quantities().peakIops());
        parameters.put("run_r2", ordinary.rSquared());
        return new FitSummary(NAME + "/" + estimator.name(), line.rSquared(), parameters, q.length);
    }

    @Override
    public boolean isFitted() {
        return line != null;
    }

    public PestoQuantities quantities() {
        requireFitted();
        return new PestoQuantities(line.slope(), line.intercept());
    }

    /**
     * O summed (each workload keeps its IOs in flight in a closed loop); the other
     * characteristics averaged weighted by O, as Pesto does (Romano §4.2 describes it so).
     */
    @Override
    public Workload aggregate(List<Workload> workloads) {
        return OioWeightedAggregation.aggregate(workloads);
    }

    @Override
    public Prediction predict(Workload workload) {
        requireFitted();
        double q = workload.outstandingIos();
        return Prediction.of(q, line.at(q), null);
    }

    private void requireFitted() {
        if (line == null) {
            throw new IllegalStateException("pesto model is not fitted");
        }
    }
}
