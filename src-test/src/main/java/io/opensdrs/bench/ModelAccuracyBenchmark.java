package io.opensdrs.bench;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Interval;
import io.opensdrs.model.ModelRegistry;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.FullFactorialFloor;
import io.opensdrs.model.romano.RomanoModel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * B1, model accuracy (SPEC §8; Romano Table 5 and §5.2). For each device: fit every model
 * from what a real system would have measured on it (Pesto: its injector's 4 KiB random
 * reads at OIO 2–32; Romano: its test vector, as Romano §4.1 calibrates; BASIL: its pairs;
 * queueing: its per-class calibration), then measure Romano's full test vector on the same
 * emulated device again in independent runs (other seeds: held-out measurements) and score
 * every model's prediction of every point. The testbed is ground truth; the models are under
 * test. Romano Table 5 scores its model on the test vector it was calibrated from (§5.2); here
 * the scoring runs are fresh measurements of those points, so measurement noise counts against it.
 */
public final class ModelAccuracyBenchmark {
    /**
     * The rows: each model kind from the calibration a real system gives it; {@code pesto} is the
     * product's LQ model (the agent's injector at 4 and 256 KiB, {@link LqSlopeModel}),
     * {@code pesto-4k} the same model from 4-KiB reads only — Pesto as published (§5.1), the model
     * Romano compares itself with.
     */
    public static final String PESTO_AS_PUBLISHED = "pesto-4k";
    /** Romano fitted from the short design the host agent runs ({@link CalibrationDesign#romanoAgentCalibration}); short for a column. */
    public static final String ROMANO_AGENT = "romano-agt";
    public static final List<String> MODELS = List.of("pesto", PESTO_AS_PUBLISHED, "basil", "romano", ROMANO_AGENT, "queueing");

    /** One scored point: a model's prediction of one measured test-vector workload on one device. */
    public record ScoredPoint(String device, String model, Workload workload, double measuredMs, double predictedMs,
                              Interval interval) {
        public double residual() {
            return predictedMs - measuredMs;
        }
    }

    /**
     * @param pooled      per model, all devices together (Romano Table 5 pools its four datastores)
     * @param perDevice   device → model → summary
     * @param fitFailures "device model: reason" for models that could not be fitted
     * @param romanoFloor device → the least mean |ε| any model of Romano's form reaches on its
     *                    scored runs ({@link FullFactorialFloor}); absent (and a fit failure) where
     *                    the scored points cannot identify the design's terms
     */
    public record Result(List<DeviceUnderTest> devices, int testPoints, Map<String, ResidualSummary> pooled,
                         Map<String, Map<String, ResidualSummary>> perDevice, List<ScoredPoint> points,
                         List<String> fitFailures, Map<String, FullFactorialFloor.Floor> romanoFloor,
                         List<RomanoMixAccuracy.MixPoint> mixes) {
    }

    /** The Romano fits B1's mixes are predicted with: B1's own, and B2's (the design the balancers' models come from). */
    public static final String FIT_TEST_VECTOR = "test vector";
    public static final String FIT_BALANCING = "balancing";
    public static final int MAX_MIXES = 4_000;

    private final List<Workload> testVector;
    private final long measuredIos;
    private final long seed;
    private final int mixes;

    public ModelAccuracyBenchmark(List<Workload> testVector, long measuredIos, long seed) {
        this(testVector, measuredIos, seed, 0);
    }

    /**
     * @param mixes how many mixes of workloads to score romano on per device ({@link RomanoMixAccuracy}), at most
     *              {@link #MAX_MIXES} (seeds per device are spaced 100,000 apart)
     */
    public ModelAccuracyBenchmark(List<Workload> testVector, long measuredIos, long seed, int mixes) {
        this.testVector = List.copyOf(testVector);
        this.measuredIos = measuredIos;
        this.seed = seed;
        if (mixes < 0 || mixes > MAX_MIXES) {
            throw new IllegalArgumentException("mixes must be between 0 and " + MAX_MIXES + ", got " + mixes);
        }
        this.mixes = mixes;
    }

    public Result run(List<DeviceUnderTest> devices, ExecutorService executor) {
        ModelRegistry registry = ModelRegistry.withBuiltInModels();
        List<ScoredPoint> points = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Map<String, Map<String, ResidualSummary>> perDevice = new LinkedHashMap<>();
        Map<String, FullFactorialFloor.Floor> floors = new LinkedHashMap<>();
        List<RomanoMixAccuracy.MixPoint> mixPoints = new ArrayList<>();
        for (int d = 0; d < devices.size(); d++) {
            DeviceUnderTest device = devices.get(d);
            ClosedLoopMeasurement bench = new ClosedLoopMeasurement(device.profile(), device.capacityBytes(), measuredIos);
            // Distinct seed ranges: calibration runs and scoring runs never share a random stream.
            long base = seed * 1_000_003L + d * 100_000L;
            Map<String, List<Observation>> calibration = new LinkedHashMap<>();
            List<Observation> injector = bench.measureAll(CalibrationDesign.pestoInjector(), base + 10_000, executor);
            calibration.put("pesto", injector);
            calibration.put(PESTO_AS_PUBLISHED, injector.stream()
                    .filter(o -> o.workload().ioSizeKb() == LqSlopeModel.BASE_SIZE_KB).toList());
            calibration.put("basil", bench.measureAll(CalibrationDesign.basilPairs(), base + 20_000, executor));
            calibration.put("romano", bench.measureAll(CalibrationDesign.romanoTestVector(), base + 30_000, executor));
            calibration.put(ROMANO_AGENT, bench.measureAll(CalibrationDesign.romanoAgentCalibration(), base + 35_000, executor));
            calibration.put("queueing", bench.measureAll(CalibrationDesign.queueingCalibration(), base + 40_000, executor));
            List<Observation> measured = bench.measureAll(testVector, base + 50_000, executor);
            try {
                floors.put(device.name(), FullFactorialFloor.of(measured));
            } catch (IllegalArgumentException e) {
                failures.add(device.name() + " floor of Romano's form: " + e.getMessage());
            }
            Map<String, ResidualSummary> byModel = new LinkedHashMap<>();
            RomanoModel fitted = null;
            for (String kind : MODELS) {
                DatastoreModel model = registry.create(kind.equals(PESTO_AS_PUBLISHED) ? LqSlopeModel.NAME
                        : kind.equals(ROMANO_AGENT) ? RomanoModel.NAME : kind);
                try {
                    model.fit(calibration.get(kind));
                } catch (IllegalArgumentException e) {
                    failures.add(device.name() + " " + kind + ": " + e.getMessage());
                    continue;
                }
                List<ScoredPoint> scored = new ArrayList<>();
                for (Observation o : measured) {
                    Prediction p = model.predict(o.workload());
                    scored.add(new ScoredPoint(device.name(), kind, o.workload(), o.latencyMs(), p.latencyMs(),
                            p.latencyInterval().orElse(null)));
                }
                points.addAll(scored);
                byModel.put(kind, summarize(scored));
                if (kind.equals(RomanoModel.NAME) && model instanceof RomanoModel romano) {
                    fitted = romano;
                }
            }
            perDevice.put(device.name(), byModel);
            if (mixes > 0 && fitted != null) {
                mixPoints.addAll(scoreMixes(device, bench, fitted, base, executor, failures));
            }
        }
        Map<String, ResidualSummary> pooled = new LinkedHashMap<>();
        for (String kind : MODELS) {
            List<ScoredPoint> ofModel = new ArrayList<>();
            for (ScoredPoint p : points) {
                if (p.model().equals(kind)) {
                    ofModel.add(p);
                }
            }
            pooled.put(kind, summarize(ofModel));
        }
        return new Result(List.copyOf(devices), testVector.size(), pooled, perDevice, points, failures, floors,
                List.copyOf(mixPoints));
    }

    /**
     * The device's mixes predicted by B1's romano and by one fitted from B2's design, whose 1 MiB
     * level the mixes' largest streams need (B1's test vector stops at 64 KiB).
     */
    private List<RomanoMixAccuracy.MixPoint> scoreMixes(DeviceUnderTest device, ClosedLoopMeasurement bench,
                                                        RomanoModel testVectorFit, long base, ExecutorService executor,
                                                        List<String> failures) {
        Map<String, RomanoModel> fits = new LinkedHashMap<>();
        fits.put(FIT_TEST_VECTOR, testVectorFit);
        RomanoModel balancing = new RomanoModel();
        try {
            balancing.fit(bench.measureAll(CalibrationDesign.romanoBalancingCalibration(), base + 60_000, executor));
            fits.put(FIT_BALANCING, balancing);
        } catch (IllegalArgumentException e) {
            failures.add(device.name() + " romano (" + FIT_BALANCING + "): " + e.getMessage());
        }
        return RomanoMixAccuracy.score(device, fits, RomanoMixAccuracy.draw(mixes, base + 70_000), base + 70_000,
                bench, base + 80_000, executor);
    }

    static ResidualSummary summarize(List<ScoredPoint> points) {
        double[] r = new double[points.size()];
        int withInterval = 0;
        int outside = 0;
        for (int i = 0; i < r.length; i++) {
            ScoredPoint p = points.get(i);
            r[i] = p.residual();
            if (p.interval() != null) {
                withInterval++;
                if (p.measuredMs() < p.interval().lower() || p.measuredMs() > p.interval().upper()) {
                    outside++;
                }
            }
        }
        return ResidualSummary.of(r, withInterval, outside);
    }
}
