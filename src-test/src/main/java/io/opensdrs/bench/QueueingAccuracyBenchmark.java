package io.opensdrs.bench;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.ModelRegistry;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.queueing.CalibrationPoint;
import io.opensdrs.model.queueing.ClassLoad;
import io.opensdrs.model.queueing.QueueingNetworkModel;
import io.opensdrs.model.queueing.RequestClass;
import io.opensdrs.model.romano.RomanoModel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * B1q: the queueing model's validation as Noorshams et al. run it (§V): calibrate per request
 * class from response times on a grid of threads × request sizes × working sets (§IV), then
 * predict mean response times the calibration never saw — random configurations inside the
 * calibrated ranges (interpolation, §V-A, Table I), more threads than calibrated (§V-B), and the
 * load spread over 2 and 3 VMs (§V-C, Table II) — each measured on a fresh emulated device.
 * Pesto's LQ line, fitted from the host agent's injector runs, and Romano's model, fitted from the
 * agent's short calibration design, predict the same points (several VMs as their aggregate, each model's own).
 */
public final class QueueingAccuracyBenchmark {

    /** The calibration grid (§IV-C/D, scaled to the testbed's loads and caches). */
    static final double[] CALIBRATION_THREADS = {1, 4, 16, 32, 64};
    static final double[] SIZES_KB = {4, 16, 64};
    static final double[] WORKING_SETS_GB = {1, 6, 32};
    /** Extrapolation to more threads: 25 % and 50 % above the calibrated 64 (§V-B: 125 and 150 over 100). */
    static final double[] MORE_THREADS = {80, 96};
    /** Threads per VM with 2 and 3 VMs (§V-C): up to 200 % and 300 % of the calibrated load. */
    static final double[] VM_THREADS = {16, 32, 64};
    static final double VM_WORKING_SET_GB = 6;
    /**
     * The cache/RAID separation (§IV-D.2): a response within 1 ms involved no spindle — a seek and
     * rotation take several ms on every testbed disk — so it was served by a cache (controller,
     * drive buffer or flash).
     */
    static final double CACHE_MODE_MS = 1.0;

    public static final String QUEUEING = "queueing";
    /** The same network calibrated from mean response times only, as through {@code DatastoreModel.fit}. */
    public static final String QUEUEING_MEANS = "queueing-means";
    public static final String PESTO = "pesto";
    public static final String PESTO_4K = ModelAccuracyBenchmark.PESTO_AS_PUBLISHED;
    /** Romano fitted from the host agent's short calibration design ({@link CalibrationDesign#romanoAgentCalibration}). */
    public static final String ROMANO = ModelAccuracyBenchmark.ROMANO_AGENT;
    public static final List<String> MODELS = List.of(QUEUEING, QUEUEING_MEANS, PESTO, PESTO_4K, ROMANO);
    public static final List<String> SCENARIOS = List.of("interpolation", "more threads", "2 VMs", "3 VMs");

    /** One measured run: VMs × threads of one class and size, each VM over its own working set. */
    record Run(String scenario, RequestClass requestClass, int vms, double threadsPerVm, double sizeKb, double workingSetGbPerVm) {
        Workload vmWorkload() {
            boolean read = requestClass == RequestClass.RANDOM_READ || requestClass == RequestClass.SEQUENTIAL_READ;
            boolean random = requestClass == RequestClass.RANDOM_READ || requestClass == RequestClass.RANDOM_WRITE;
            return new Workload(threadsPerVm, sizeKb, read ? 1 : 0, random ? 1 : 0);
        }

        double fileSetGb() {
            return vms * workingSetGbPerVm;
        }
    }

    /**
     * A scored run: the model's prediction against the measured mean; {@code repeatMs} is the same
     * run measured again with another seed, {@code fastShare} the share of its IOs in the fast (cache) mode.
     */
    public record ScoredPoint(String device, String model, Run run, double measuredMs, double predictedMs, double repeatMs,
                              double fastShare) {
        double relativeError() {
            return Math.abs(predictedMs - measuredMs) / measuredMs;
        }

        /**
         * The error of predicting this run by the mean of it and its repeat: |m1 − m2| / (m1 + m2). A
         * model that knew the device's true mean would err about this much from run-to-run noise alone.
         */
        double repeatError() {
            return Math.abs(measuredMs - repeatMs) / (measuredMs + repeatMs);
        }
    }

    /** Per device and request class what the calibration found: the topology and the mean share of IOs in the fast mode. */
    public record Topology(String device, RequestClass requestClass, boolean raidStation, double meanFastShare) {
    }

    public record Result(List<DeviceUnderTest> devices, List<ScoredPoint> points, List<String> failures,
                         Map<String, Integer> calibrationPoints, Map<String, Double> calibrationSimulatedSeconds,
                         List<Topology> topologies) {
    }

    private final long measuredIos;
    private final long seed;
    private final int interpolationPerClass;

    public QueueingAccuracyBenchmark(long measuredIos, long seed, int interpolationPerClass) {
        this.measuredIos = measuredIos;
        this.seed = seed;
        this.interpolationPerClass = interpolationPerClass;
    }

    static List<Run> calibrationDesign() {
        List<Run> out = new ArrayList<>();
        for (RequestClass c : RequestClass.values()) {
            for (double f : WORKING_SETS_GB) {
                for (double s : SIZES_KB) {
                    for (double t : CALIBRATION_THREADS) {
                        out.add(new Run("calibration", c, 1, t, s, f));
                    }
                }
            }
        }
        return out;
    }

    List<Run> validationDesign(Random rnd) {
        List<Run> out = new ArrayList<>();
        double tMin = CALIBRATION_THREADS[0];
        double tMax = CALIBRATION_THREADS[CALIBRATION_THREADS.length - 1];
        double fMin = WORKING_SETS_GB[0];
        double fMax = WORKING_SETS_GB[WORKING_SETS_GB.length - 1];
        for (RequestClass c : RequestClass.values()) {
            for (int i = 0; i < interpolationPerClass; i++) {
                // Table I: uniform ranges, sizes rounded to 512 bytes, file sets to 16 MB
                double t = Math.round(tMin + rnd.nextDouble() * (tMax - tMin));
                double s = Math.round((SIZES_KB[0] + rnd.nextDouble() * (SIZES_KB[SIZES_KB.length - 1] - SIZES_KB[0])) * 2) / 2.0;
                double f = Math.round((fMin + rnd.nextDouble() * (fMax - fMin)) * 64) / 64.0;
                out.add(new Run("interpolation", c, 1, t, s, f));
            }
            for (double t : MORE_THREADS) {
                for (double s : new double[] {SIZES_KB[0], SIZES_KB[SIZES_KB.length - 1]}) {
                    for (double f : new double[] {fMin, fMax}) {
                        out.add(new Run("more threads", c, 1, t, s, f));
                    }
                }
            }
            for (int vms = 2; vms <= 3; vms++) {
                for (double t : VM_THREADS) {
                    for (double s : new double[] {SIZES_KB[0], SIZES_KB[SIZES_KB.length - 1]}) {
                        out.add(new Run(vms + " VMs", c, vms, t, s, VM_WORKING_SET_GB));
                    }
                }
            }
        }
        return out;
    }

    public Result run(List<DeviceUnderTest> devices, ExecutorService executor) {
        List<ScoredPoint> points = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Map<String, Integer> calibrationPoints = new LinkedHashMap<>();
        Map<String, Double> calibrationSeconds = new LinkedHashMap<>();
        List<Topology> topologies = new ArrayList<>();
        ModelRegistry registry = ModelRegistry.withBuiltInModels();
        for (int d = 0; d < devices.size(); d++) {
            DeviceUnderTest device = devices.get(d);
            ClosedLoopMeasurement bench = new ClosedLoopMeasurement(device.profile(), device.capacityBytes(), measuredIos);
            long base = seed * 1_000_003L + d * 100_000L;
            List<Run> calibration = calibrationDesign();
            List<ClosedLoopMeasurement.StreamsResult> calMeasured = measure(bench, calibration, base + 10_000, executor);
            List<CalibrationPoint> separated = new ArrayList<>();
            List<CalibrationPoint> means = new ArrayList<>();
            double simulatedMs = 0;
            for (int i = 0; i < calibration.size(); i++) {
                Run r = calibration.get(i);
                ClosedLoopMeasurement.StreamsResult m = calMeasured.get(i);
                separated.add(new CalibrationPoint(r.requestClass(), r.threadsPerVm(), r.sizeKb(), r.fileSetGb(),
                        m.meanLatencyMs(), m.fastShare(), m.fastShare() > 0 ? Math.min(m.fastMeanMs(), m.meanLatencyMs()) : Double.NaN));
                means.add(CalibrationPoint.mean(r.requestClass(), r.threadsPerVm(), r.sizeKb(), r.fileSetGb(), m.meanLatencyMs()));
                simulatedMs += m.simulatedMs();
            }
            calibrationPoints.put(device.name(), calibration.size());
            calibrationSeconds.put(device.name(), simulatedMs / 1000);
            Map<String, QueueingNetworkModel> queueing = new LinkedHashMap<>();
            for (var e : Map.of(QUEUEING, separated, QUEUEING_MEANS, means).entrySet()) {
                QueueingNetworkModel model = new QueueingNetworkModel();
                try {
                    Map<String, Double> parameters = model.calibrate(e.getValue());
                    queueing.put(e.getKey(), model);
                    if (e.getKey().equals(QUEUEING)) {
                        for (RequestClass c : RequestClass.values()) {
                            String prefix = c.name().toLowerCase(java.util.Locale.ROOT) + ".raid.";
                            double fast = separated.stream().filter(p -> p.requestClass() == c)
                                    .mapToDouble(CalibrationPoint::hitShare).average().orElse(Double.NaN);
                            topologies.add(new Topology(device.name(), c,
                                    parameters.keySet().stream().anyMatch(k -> k.startsWith(prefix)), fast));
                        }
                    }
                } catch (IllegalArgumentException ex) {
                    failures.add(device.name() + " " + e.getKey() + ": " + ex.getMessage());
                }
            }
            List<Observation> injector = bench.measureAll(CalibrationDesign.pestoInjector(), base + 20_000, executor);
            Map<String, DatastoreModel> pesto = new LinkedHashMap<>(); // and romano: the models behind DatastoreModel
            for (String kind : List.of(PESTO, PESTO_4K)) {
                DatastoreModel model = registry.create(LqSlopeModel.NAME);
                try {
                    model.fit(kind.equals(PESTO) ? injector
                            : injector.stream().filter(o -> o.workload().ioSizeKb() == LqSlopeModel.BASE_SIZE_KB).toList());
                    pesto.put(kind, model);
                } catch (IllegalArgumentException ex) {
                    failures.add(device.name() + " " + kind + ": " + ex.getMessage());
                }
            }
            DatastoreModel romano = registry.create(RomanoModel.NAME);
            try {
                romano.fit(bench.measureAll(CalibrationDesign.romanoAgentCalibration(), base + 25_000, executor));
                pesto.put(ROMANO, romano);
            } catch (IllegalArgumentException ex) {
                failures.add(device.name() + " " + ROMANO + ": " + ex.getMessage());
            }
            List<Run> validation = validationDesign(new Random(base + 30_000));
            List<ClosedLoopMeasurement.StreamsResult> measured = measure(bench, validation, base + 40_000, executor);
            List<ClosedLoopMeasurement.StreamsResult> repeated = measure(bench, validation, base + 60_000, executor);
            for (int i = 0; i < validation.size(); i++) {
                Run r = validation.get(i);
                double m = measured.get(i).meanLatencyMs();
                double again = repeated.get(i).meanLatencyMs();
                double fast = measured.get(i).fastShare();
                List<ClassLoad> classes = new ArrayList<>();
                List<Workload> workloads = new ArrayList<>();
                for (int v = 0; v < r.vms(); v++) {
                    classes.add(new ClassLoad(r.requestClass(), r.threadsPerVm(), r.sizeKb()));
                    workloads.add(r.vmWorkload());
                }
                for (String kind : MODELS) {
                    double predicted;
                    if (queueing.containsKey(kind)) {
                        predicted = queueing.get(kind).solve(classes, r.fileSetGb()).meanResponseMs();
                    } else if (pesto.containsKey(kind)) {
                        predicted = pesto.get(kind).predict(workloads).latencyMs();
                    } else {
                        continue;
                    }
                    points.add(new ScoredPoint(device.name(), kind, r, m, predicted, again, fast));
                }
            }
        }
        return new Result(devices, points, failures, calibrationPoints, calibrationSeconds, topologies);
    }

    private static List<ClosedLoopMeasurement.StreamsResult> measure(ClosedLoopMeasurement bench, List<Run> runs, long seed,
                                                                     ExecutorService executor) {
        List<Future<ClosedLoopMeasurement.StreamsResult>> futures = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            long s = seed + i;
            List<Workload> streams = new ArrayList<>();
            for (int v = 0; v < r.vms(); v++) {
                streams.add(r.vmWorkload());
            }
            long span = (long) (r.workingSetGbPerVm() * (1L << 30));
            futures.add(executor.submit(() -> bench.measureStreams(streams, span, CACHE_MODE_MS, s)));
        }
        return ClosedLoopMeasurement.results(futures);
    }
}
