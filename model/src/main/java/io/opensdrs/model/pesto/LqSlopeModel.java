package io.opensdrs.model.pesto;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.OioWeightedAggregation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.stats.LineFit;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pesto's device model (Gulati et al., SoCC'11): latency is linear in outstanding IOs,
 * L = m·Q + C (Pesto Eq. 1), fitted to injector runs of 4 KiB random reads at OIO 2–32
 * (§5.1), rejected when R² &lt; 0.93. Throughput follows from Little's law, T = Q/(m·Q + C)
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
 * Why: fitted on the testbed's calibrated profiles a 1 MiB read weighs 107 reads of 4 KiB on the
 * SATA SSD and 3.8 on one spindle, and the 4-KiB line gave them the same weight (B2: destinations
 * predicted to rise 12 times less than measured).
 */
public final class LqSlopeModel implements DatastoreModel {

    public static final String NAME = "pesto";
    /** Reference IO size of m and C: Pesto's injector reads (§5.1). */
    public static final double BASE_SIZE_KB = 4;
    /** The IO sizes (KiB) of the host agent's injector runs by default: Pesto's 4 KiB, then 256 KiB for the size factor. */
    public static final String INJECTOR_IO_SIZES_KB = "4,256";
    /** A finite K must lower the squared error by this share, else the size-blind line stays. */
    static final double SIZE_TERM_MIN_GAIN = 0.05;

    private final LqEstimator estimator;
    private final LinearityGate gate;
    private LineFit line;
    private double sizeScaleKb = Double.POSITIVE_INFINITY;

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

    /** A known line for 4-KiB reads with the size factor's K in KiB (∞: size-blind). */
    public static LqSlopeModel of(double slopeMsPerIo, double interceptMs, double sizeScaleKb) {
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
        // would otherwise fail runs that are perfectly usable.
        LineFit ordinary = LineFit.ordinary(qe, l);
        gate.check(ordinary);
        LineFit candidate = estimator.fit(qe, l);
        if (!(candidate.slope() > 0)) {
            throw new IllegalArgumentException("LQ slope is not positive (" + candidate.slope()
                    + "): latency does not grow with oio in these observations");
        }
        line = candidate;
        sizeScaleKb = k;
        Map<String, Double> parameters = new LinkedHashMap<>();
        parameters.put("m", line.slope());
        parameters.put("C", line.intercept());
        parameters.put("peak_iops", quantities().peakIops());
        parameters.put("run_r2", ordinary.rSquared());
        if (Double.isFinite(sizeScaleKb)) {
            parameters.put("size_scale_kb", sizeScaleKb);
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
        return Prediction.of(q, line.at(q * sizeFactor(workload.ioSizeKb())), null);
    }

    /** The K (KiB) whose effective OIO fits latency best by ordinary least squares; ∞ for a single size. */
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
        double blind = squaredError(LineFit.ordinary(q, l), q, l);
        double best = Double.POSITIVE_INFINITY;
        double bestError = blind;
        for (double k = 0.25; k <= 65536; k *= Math.sqrt(2)) {
            double[] qe = effectiveOio(q, z, k);
            double e = squaredError(LineFit.ordinary(qe, l), qe, l);
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
