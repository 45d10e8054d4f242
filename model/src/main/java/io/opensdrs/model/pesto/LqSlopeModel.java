package io.opensdrs.model.pesto;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.OioWeightedAggregation;
import io.opensdrs.model.OioWeightedRunningSums;
import io.opensdrs.model.Workload;
import io.opensdrs.model.stats.LeastSquaresFit;
import io.opensdrs.model.stats.LineFit;
import io.opensdrs.model.stats.ResidualVariance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pesto's device model (Gulati et al., SoCC'11): latency is linear in outstanding IOs,
 * L = m·Q + C (Pesto Eq. 1), fitted to injector runs of 4 KiB random reads at OIO 2–32
 * (§5.1), rejected when R² &lt; 0.93. The line keeps C ≥ 0 ({@link LqEstimator}: C is the service
 * time at zero queue): where least squares would give C &lt; 0, the line through the origin that fits
 * best, and the R² gate judges that line. Throughput follows from Little's law, T = Q/(m·Q + C)
 * (Eqs. 2–3). As published the model ignores IO size, read ratio and randomness: a datastore
 * has one LQ-slope whatever the workload, which is exactly what Romano later refines.
 *
 * <p><b>IO size</b> (beyond Pesto): when the observations hold more than one IO size (an injector
 * run at a second size, or production statistics), each outstanding IO counts as
 * (K + Z)/(K + 4 KiB) outstanding 4-KiB reads — BASIL's size factor (K2 + IOsize) of Eq. 1 with
 * the device's own K — so L = m·Σ Q_i·(K + Z_i)/(K + 4) + C, and m, C stay the 4-KiB line. The
 * effective OIO is linear in Z, so the OIO-weighted mean size of a mix gives the mix's exact
 * effective OIO. K is chosen by least squares over a log grid (0.25 KiB to 64 MiB); a single IO
 * size, or sizes that do not explain latency better, leave K = ∞: Pesto's size-blind line.
 * Why: how much a large IO weighs against a small one differs by device, far more on a flash
 * device, whose per-IO cost is small, than on a spindle, whose seek dominates; the 4-KiB line
 * gives them the same weight and so predicts too little rise where large IOs arrive.
 *
 * <p><b>Prediction interval</b> (beyond Pesto, which gives none): a fitted line's prediction
 * carries the 95 % interval for one new measurement that least-squares theory gives at its
 * effective OIO ({@link LeastSquaresFit#predictionInterval}), the residual variance proportional
 * to the fitted latency squared ({@link ResidualVariance#proportional}: an error in the slope m is
 * an error proportional to Q; an injector run has too few levels to estimate the exponent). The
 * interval is built from the injector's own runs, so it states how well the line fits the
 * device's random reads; it cannot know how far another workload's latency departs from the line
 * (Romano's point); the model README reports its coverage on Romano's test vector. A known line ({@link #of}: a default model, a paper's line) has no interval. A fitted
 * line also states the relative error of the changes it predicts ({@link #changeError}), which
 * the cost-benefit uses where a datastore's latency is observed and only its change is predicted.
 */
public final class LqSlopeModel implements DatastoreModel {

    public static final String NAME = "pesto";
    /** Reference IO size of m and C: Pesto's injector reads (§5.1). */
    public static final double BASE_SIZE_KB = 4;
    /** The IO sizes (KiB) of the host agent's injector runs by default: Pesto's 4 KiB, then 256 KiB for the size factor. */
    public static final String INJECTOR_IO_SIZES_KB = "4,256";
    /** A finite K must lower the squared error by this share, else the size-blind line stays. */
    static final double SIZE_TERM_MIN_GAIN = 0.05;

    /** Confidence of the prediction interval and of the change error. */
    public static final double CONFIDENCE = 0.95;
    /** Two levels of one IO size count as a change when the higher has at least this multiple of the lower's OIO. */
    static final double CHANGE_STEP = 1.5;

    private final LqEstimator estimator;
    private final LinearityGate gate;

    private LineFit line;
    private double sizeScaleKb = Double.POSITIVE_INFINITY;
    /** Ordinary least squares on the effective OIO, for the interval's leverage; null for a known line. */
    private LeastSquaresFit spread;
    private ResidualVariance residualVariance;
    /** See {@link #changeError}; NaN for a known line or a run without two levels of one size. */
    private double relativeChangeError = Double.NaN;

    public LqSlopeModel() {
        this(new OrdinaryLqEstimator(), LinearityGate.PESTO);
    }

    public LqSlopeModel(LqEstimator estimator, LinearityGate gate) {
        this.estimator = estimator;
        this.gate = gate;
    }

    /** A model with a known line, e.g. Pesto's default model (§5.1.3) or one transcribed from a paper. */
    public static LqSlopeModel of(double slopeMsPerIo, double interceptMs) {
        return of(slopeMsPerIo, interceptMs, Double.POSITIVE_INFINITY);
    }

    /** A known line for 4-KiB reads with the size factor's K in KiB (∞: size-blind); C ≥ 0 as for a fitted line. */
    public static LqSlopeModel of(double slopeMsPerIo, double interceptMs, double sizeScaleKb) {
        if (!(interceptMs >= 0)) {
            throw new IllegalArgumentException("C (intercept_ms) must be >= 0: it is the latency at zero queue (Pesto Eq. 1), got " + interceptMs);
        }
        if (!(sizeScaleKb > 0)) {
            throw new IllegalArgumentException("size_scale_kb must be > 0 (or infinite), got " + sizeScaleKb);
        }
        LqSlopeModel model = new LqSlopeModel();
        model.line = new LineFit(slopeMsPerIo, interceptMs, Double.NaN, 0);
        model.sizeScaleKb = sizeScaleKb;
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
        double[] z = new double[observations.size()];
        for (int i = 0; i < q.length; i++) {
            q[i] = observations.get(i).outstandingIos();
            l[i] = observations.get(i).latencyMs();
            z[i] = observations.get(i).workload().ioSizeKb();
        }
        double k = sizeScale(q, z, l);
        double[] qe = effectiveOio(q, z, k);
        // The gate judges the run's linearity, so it looks at the ordinary fit whichever
        // estimator draws the line: a weighted line that ignores flat low-Q points on purpose
        // would otherwise fail runs that are perfectly usable. It is the ordinary fit under
        // C ≥ 0 (Eq. 1's C is a service time), so a run is kept only if a physical line fits it.
        LineFit ordinary = LineFit.ordinaryNonNegativeIntercept(qe, l);
        gate.check(ordinary);
        LineFit candidate = estimator.fit(qe, l);
        if (!(candidate.slope() > 0)) {
            throw new IllegalArgumentException("LQ slope is not positive (" + candidate.slope()
                    + "): latency does not grow with oio in these observations");
        }
        if (!(candidate.intercept() >= 0)) {
            throw new IllegalStateException("LQ estimator " + estimator.name() + " drew C = " + candidate.intercept()
                    + " ms < 0; every LqEstimator must keep C >= 0 (the latency at zero queue, Pesto Eq. 1)");
        }
        line = candidate;
        sizeScaleKb = k;
        spread = null;
        residualVariance = null;
        relativeChangeError = changeError(q, z, l, line, k);
        if (qe.length > 2) {
            double[][] design = new double[qe.length][];
            double[] fitted = new double[qe.length];
            double[] residuals = new double[qe.length];
            for (int i = 0; i < qe.length; i++) {
                design[i] = new double[] {qe[i]};
                fitted[i] = line.at(qe[i]);
                residuals[i] = l[i] - fitted[i];
            }
            spread = LeastSquaresFit.of(design, l, true);
            // The residuals are the drawn line's, which is the ordinary one unless a weighted
            // estimator chose otherwise; the interval states the error of the line in use.
            residualVariance = ResidualVariance.proportional(fitted, residuals, 2);
        }
        Map<String, Double> parameters = new LinkedHashMap<>();
        parameters.put("m", line.slope());
        parameters.put("C", line.intercept());
        parameters.put("peak_iops", lqLine().peakIops());
        parameters.put("run_r2", ordinary.rSquared());
        if (Double.isFinite(sizeScaleKb)) {
            parameters.put("size_scale_kb", sizeScaleKb);
        }
        if (Double.isFinite(relativeChangeError)) {
            parameters.put("change_error", relativeChangeError);
        }
        return new FitSummary(NAME + "/" + estimator.name(), line.rSquared(), parameters, q.length);
    }

    @Override
    public boolean isFitted() {
        return line != null;
    }

    /** {@link #INJECTOR_IO_SIZES_KB} as numbers. */
    public static double[] injectorIoSizesKb() {
        return Arrays.stream(INJECTOR_IO_SIZES_KB.split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    /** K of the size factor (K + Z)/(K + 4 KiB), in KiB; ∞ when the model is size-blind. */
    public double sizeScaleKb() {
        requireFitted();
        return sizeScaleKb;
    }

    /** How many outstanding 4-KiB reads one outstanding IO of {@code ioSizeKb} weighs on this device. */
    public double sizeFactor(double ioSizeKb) {
        return factor(sizeScaleKb, ioSizeKb);
    }

    /** The fitted line itself. */
    @Override
    public PestoQuantities lqLine() {
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

    /** The same aggregation as running sums, O(1) per workload moved. */
    @Override
    public IncrementalAggregation incrementalAggregation(Workload[] workloads) {
        return new OioWeightedRunningSums(this, workloads);
    }

    @Override
    public Prediction predict(Workload workload) {
        requireFitted();
        double q = workload.outstandingIos();
        double qe = q * sizeFactor(workload.ioSizeKb());
        double latency = line.at(qe);
        if (spread == null) {
            return Prediction.of(q, latency, null, relativeChangeError);
        }
        double[] pi = spread.predictionInterval(new double[] {qe}, CONFIDENCE, residualVariance);
        double half = (pi[1] - pi[0]) / 2;
        // A latency is never negative; the normal interval does not know that.
        double upper = Math.max(latency + half, 0);
        return Prediction.of(q, latency, new Interval(Math.min(Math.max(latency - half, 0), upper), upper, CONFIDENCE),
                relativeChangeError);
    }

    /**
     * The relative error of a change the line predicts, read off the observations themselves: for
     * each level of one IO size and the next level of that size at least {@link #CHANGE_STEP} times
     * its OIO (the injector's levels double), the measured latency difference against the line's
     * (|ΔL_measured / ΔL_line − 1|), and the {@link #CONFIDENCE} quantile of those. The line's
     * change between two loads is m·ΔQ_effective, so an error in m — or in the size factor, which
     * draws the 4-KiB and the 256-KiB runs through one intercept — is an error proportional to the
     * change, whatever the level's own error. Levels of one size and OIO are averaged first; levels
     * closer than the step (passive observations of a steady workload) would measure their noise,
     * not the line's change. NaN with fewer than two such pairs.
     */
    static double changeError(double[] q, double[] z, double[] l, LineFit line, double k) {
        Map<Double, TreeMap<Double, double[]>> bySize = new TreeMap<>();
        for (int i = 0; i < q.length; i++) {
            double[] sum = bySize.computeIfAbsent(z[i], s -> new TreeMap<>()).computeIfAbsent(q[i], s -> new double[2]);
            sum[0] += l[i];
            sum[1]++;
        }
        List<Double> errors = new ArrayList<>();
        for (Map.Entry<Double, TreeMap<Double, double[]>> size : bySize.entrySet()) {
            double factor = factor(k, size.getKey());
            TreeMap<Double, double[]> levels = size.getValue();
            for (Map.Entry<Double, double[]> level : levels.entrySet()) {
                Map.Entry<Double, double[]> next = levels.ceilingEntry(level.getKey() * CHANGE_STEP);
                if (next == null || !(level.getKey() > 0)) {
                    continue;
                }
                double measured = next.getValue()[0] / next.getValue()[1] - level.getValue()[0] / level.getValue()[1];
                double predicted = line.slope() * factor * (next.getKey() - level.getKey());
                if (predicted > 0) {
                    errors.add(Math.abs(measured / predicted - 1));
                }
            }
        }
        if (errors.size() < 2) {
            return Double.NaN;
        }
        double[] sorted = errors.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[Math.max(0, (int) Math.ceil(CONFIDENCE * sorted.length) - 1)];
    }

    /** The K (KiB) whose effective OIO fits latency best by least squares with C ≥ 0, as the line is drawn; ∞ for a single size. */
    static double sizeScale(double[] q, double[] z, double[] l) {
        double zMin = Double.POSITIVE_INFINITY;
        double zMax = 0;
        for (double v : z) {
            zMin = Math.min(zMin, v);
            zMax = Math.max(zMax, v);
        }
        if (zMax <= zMin * 1.25) {
            return Double.POSITIVE_INFINITY;
        }
        double blind = squaredError(LineFit.ordinaryNonNegativeIntercept(q, l), q, l);
        double best = Double.POSITIVE_INFINITY;
        double bestError = blind;
        for (double k = 0.25; k <= 65536; k *= Math.sqrt(2)) {
            double[] qe = effectiveOio(q, z, k);
            double e = squaredError(LineFit.ordinaryNonNegativeIntercept(qe, l), qe, l);
            if (e < bestError) {
                bestError = e;
                best = k;
            }
        }
        return bestError < (1 - SIZE_TERM_MIN_GAIN) * blind ? best : Double.POSITIVE_INFINITY;
    }

    private static double[] effectiveOio(double[] q, double[] z, double k) {
        double[] qe = new double[q.length];
        for (int i = 0; i < q.length; i++) {
            qe[i] = q[i] * factor(k, z[i]);
        }
        return qe;
    }

    private static double factor(double k, double ioSizeKb) {
        return Double.isInfinite(k) ? 1 : (k + ioSizeKb) / (k + BASE_SIZE_KB);
    }

    private static double squaredError(LineFit f, double[] x, double[] y) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            double r = y[i] - f.at(x[i]);
            s += r * r;
        }
        return s;
    }

    private void requireFitted() {
        if (line == null) {
            throw new IllegalStateException("pesto model is not fitted");
        }
    }
}
