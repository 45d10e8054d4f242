package io.opensdrs.model.romano;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.stats.LeastSquaresFit;
import io.opensdrs.model.stats.ResidualVariance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Romano (Park, Ahmad, Lilja, SoCC'12): a per-datastore regression P = M_W·M_S over the
 * product terms of {X, R, Z, O} that a factorial ANOVA finds significant (Romano §4.1,
 * Table 3), coefficients by least squares (Eq. 7). Each prediction carries a 95 % prediction
 * interval (the calibrated form of Eq. 19, see {@link LeastSquaresFit#predictionInterval}) whose
 * width follows the fitted latency ({@link ResidualVariance}): Eq. 19's single σ is set by the
 * test vector's slowest points, so it is too wide at low O and too narrow at high O; sized by
 * the fitted latency, the interval follows the error where it is.
 * Aggregation is {@link RomanoAggregation}.
 *
 * <p><b>The constant.</b> The candidates are the 15 products and the constant β0 of Eq. 4 —
 * the 16 terms of §5.1's full factorial model (FFLM). On Romano's arrays the ANOVA kept only
 * terms holding O (Table 3), so P = O·(M'_W·M_S) (Eqs. 17–18); on an array whose spindles
 * serve several commands at once latency is C + m·O with C the service time (Pesto Eq. 1:
 * E2's 4 KiB random reads take 6.3, 8.1, 14.9 ms at O = 1, 4, 16) and an O-proportional
 * model predicts 2.6 ms at O = 4 where 7.5 ms is measured. The ANOVA decides, per datastore,
 * whether the constant and the terms without O belong in M_W, as it does for every other term.
 * Throughput (the aggregation's weight) is then T = O/P by Little's law, which is
 * 1/LQ-slope (§4.1) when every term holds O.
 */
public final class RomanoModel implements DatastoreModel {

    public static final String NAME = "romano";
    /**
     * How much of the range of R and of X a fit's observations must span for the model to count
     * as calibrated: Romano's test vector spans all of it (Eqs. 12–13); the agents' injector reads
     * only random reads (R = X = 100 %), so a model fitted to its runs has never tested a term in
     * R or X.
     */
    public static final double CALIBRATION_SPREAD = 0.5;

    private final FactorialTermSelection selection;
    private final double confidence;
    private List<RomanoTerm> terms;
    private LeastSquaresFit fit;
    private ResidualVariance residualVariance;
    private boolean calibrated;

    public RomanoModel() {
        this(FactorialTermSelection.romanoDefault(), 0.95);
    }

    public RomanoModel(FactorialTermSelection selection, double confidence) {
        this.selection = selection;
        this.confidence = confidence;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public FitSummary fit(List<Observation> observations) {
        List<RomanoTerm> identifiable = identifiableTerms(observations);
        List<RomanoTerm> candidates = new ArrayList<>();
        if (identifiable.stream().anyMatch(t -> !t.containsO())) {
            // β0 is identifiable from the O-terms only when O varies, as it does whenever a term without O is.
            candidates.add(RomanoTerm.CONSTANT);
        }
        candidates.addAll(identifiable);
        if (observations.size() <= candidates.size() + 1) {
            throw new IllegalArgumentException("romano needs more than " + (candidates.size() + 1)
                    + " observations for its " + candidates.size() + "-term ANOVA, got " + observations.size());
        }
        List<RomanoTerm> chosen = selection.select(observations, candidates);
        LeastSquaresFit candidate = LeastSquaresFit.of(DesignMatrix.of(observations, chosen), DesignMatrix.latencies(observations), false);
        terms = List.copyOf(chosen);
        fit = candidate;
        residualVariance = ResidualVariance.fit(fit.fittedValues(), fit.residuals(), fit.errorVariance());
        calibrated = spread(observations, Workload::readFraction) >= CALIBRATION_SPREAD
                && spread(observations, Workload::randomFraction) >= CALIBRATION_SPREAD;
        Map<String, Double> parameters = new LinkedHashMap<>();
        double[] beta = fit.coefficients();
        for (int i = 0; i < terms.size(); i++) {
            parameters.put(terms.get(i).toString(), beta[i]);
        }
        parameters.put("sigma", Math.sqrt(fit.errorVariance()));
        return new FitSummary(NAME, rSquared(observations), parameters, observations.size());
    }

    /**
     * The terms whose factors all vary in the data. A characteristic that is constant (e.g.
     * fio runs that are all 4 KiB random reads) makes its terms copies of the term without
     * it, and the full model singular; those terms cannot be told apart, so they are not tested.
     */
    static List<RomanoTerm> identifiableTerms(List<Observation> observations) {
        int varying = 0;
        int[] factors = {RomanoTerm.X, RomanoTerm.R, RomanoTerm.Z, RomanoTerm.O};
        for (int f : factors) {
            RomanoTerm t = new RomanoTerm(f);
            double first = t.value(observations.get(0).workload());
            for (Observation o : observations) {
                if (t.value(o.workload()) != first) {
                    varying |= f;
                    break;
                }
            }
        }
        List<RomanoTerm> out = new java.util.ArrayList<>();
        for (RomanoTerm t : RomanoTerm.all()) {
            if (t.containsO() && (t.mask() & ~varying & ~RomanoTerm.O) == 0) {
                out.add(t);
            } else if (!t.containsO() && (t.mask() & ~varying) == 0) {
                out.add(t);
            }
        }
        return out;
    }

    @Override
    public boolean isFitted() {
        return fit != null;
    }

    /**
     * True when the fit's observations spanned R and X as Romano's calibration does (at least
     * {@link #CALIBRATION_SPREAD} of each range), not only the injector's random reads: only then
     * are the model's R and X terms measured rather than absent.
     */
    @Override
    public boolean isCalibrated() {
        return fit != null && calibrated;
    }

    private static double spread(List<Observation> observations, java.util.function.ToDoubleFunction<Workload> f) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Observation o : observations) {
            double v = f.applyAsDouble(o.workload());
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi - lo;
    }

    public List<RomanoTerm> terms() {
        requireFitted();
        return terms;
    }

    /**
     * M'_W·M_S (Eq. 18): latency per outstanding IO for this workload's X, R, Z, in ms — the
     * prediction at O = 1 (with a constant or terms without O in M_W, it includes them).
     */
    public double lqSlope(Workload w) {
        requireFitted();
        return fit.predict(DesignMatrix.row(w.withOutstandingIos(1), terms));
    }

    /**
     * A workload's throughput on this datastore in IOs per ms, T = O/P (Little's law; Romano
     * §4.1 reads M'_W·M_S as the inter-arrival time, so T = 1/LQ-slope when every term holds O).
     * A workload without outstanding IOs is read at O = 1; a prediction extrapolated to ≤ 0 is
     * guarded, as the LQ-slope was.
     */
    public double throughput(Workload w) {
        requireFitted();
        Workload at = w.outstandingIos() > 0 ? w : w.withOutstandingIos(1);
        return at.outstandingIos() / Math.max(fit.predict(DesignMatrix.row(at, terms)), 1e-9);
    }

    @Override
    public Workload aggregate(List<Workload> workloads) {
        // Romano Eq. 24 with this model's T (X by Eqs. 20–22; Z and R by RomanoAggregation.MIX).
        return RomanoAggregation.aggregate(workloads, this::throughput);
    }

    /** Eq. 24 folded incrementally ({@link RomanoFold}): O(1) to add a workload, O(n) to remove one. */
    @Override
    public IncrementalAggregation incrementalAggregation(Workload[] workloads) {
        return new RomanoFold(this, workloads);
    }

    @Override
    public Prediction predict(Workload workload) {
        requireFitted();
        double[] row = DesignMatrix.row(workload, terms);
        double[] pi = fit.predictionInterval(row, confidence, residualVariance);
        // A latency is never negative; the regression's normal interval does not know that.
        double upper = Math.max(pi[1], 0);
        return Prediction.of(workload.outstandingIos(), fit.predict(row), new Interval(Math.min(Math.max(pi[0], 0), upper), upper, confidence));
    }

    private void requireFitted() {
        if (fit == null) {
            throw new IllegalStateException("romano model is not fitted");
        }
    }
}
