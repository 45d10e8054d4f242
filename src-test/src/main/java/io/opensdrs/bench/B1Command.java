package io.opensdrs.bench;

import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.romano.RomanoAggregation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code sdrs bench b1}: model accuracy on the emulated devices (SPEC §8 B1, Romano Table 5). */
@Command(name = "b1", mixinStandardHelpOptions = true,
        description = {"B1 model accuracy: fit pesto, basil, romano and queueing from each model's own calibration "
                + "runs on an emulated device, then score them on Romano's test vector (X, R in {0..100} %, "
                + "Z in {1..64} KB, O in {1..64}) measured in independent (held-out) IO-level runs.",
                "Prints Romano Table 5's residual statistics (ε = predicted − measured, ms) and the share of "
                        + "measurements outside the 95 % prediction interval."})
public final class B1Command implements Callable<Integer> {
    @Option(names = "--device", split = ",", description = "device profiles (default: the four calibrated ones)")
    List<String> deviceNames;

    @Option(names = "--scenario", arity = "1..*",
            description = "scenario files or shipped names: score every distinct datastore device of them instead")
    List<String> scenarios;

    @Option(names = "--ios", defaultValue = "800", description = "IOs per measured point (default ${DEFAULT-VALUE})")
    long ios;

    @Option(names = "--sample", description = "score a random sample of N test-vector points per device (default: all 1,225)")
    Integer sample;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(names = "--threads", description = "worker threads (default: available processors)")
    Integer threads;

    @Option(names = "--csv", description = "write every scored point to this CSV file")
    Path csv;

    @Option(names = "--mixes", defaultValue = "0",
            description = "also score romano on N mixes per device of 2–4 Table 7 workloads run together, "
                    + "aggregated with Z and R weighted by O and by T (default ${DEFAULT-VALUE}: none)")
    int mixes;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        List<DeviceUnderTest> devices = devices();
        List<Workload> vector = CalibrationDesign.romanoTestVector();
        if (sample != null) {
            if (sample < 1) {
                throw new IllegalArgumentException("--sample must be ≥ 1");
            }
            vector = new ArrayList<>(vector);
            Collections.shuffle(vector, new Random(seed));
            vector = vector.subList(0, Math.min(sample, vector.size()));
        }
        if (ios < 50) {
            throw new IllegalArgumentException("--ios must be ≥ 50");
        }
        if (mixes < 0 || mixes > ModelAccuracyBenchmark.MAX_MIXES) {
            throw new IllegalArgumentException("--mixes must be between 0 and " + ModelAccuracyBenchmark.MAX_MIXES
                    + ", got " + mixes);
        }
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        ExecutorService executor = Executors.newFixedThreadPool(Math.max(1, n));
        long t0 = System.nanoTime();
        ModelAccuracyBenchmark.Result result;
        try {
            result = new ModelAccuracyBenchmark(vector, ios, seed, mixes).run(devices, executor);
        } finally {
            executor.shutdownNow();
        }
        print(result, out);
        printMixes(result.mixes(), out);
        out.printf(Locale.ROOT, "%nelapsed %.1f s, %d threads, %d IOs per point%n", (System.nanoTime() - t0) / 1e9, n, ios);
        if (csv != null) {
            writeCsv(result, csv);
            out.println("csv: " + csv);
        }
        return 0;
    }

    private List<DeviceUnderTest> devices() throws Exception {
        return DeviceUnderTest.of(scenarios, deviceNames);
    }

    static void print(ModelAccuracyBenchmark.Result r, PrintStream out) {
        out.printf(Locale.ROOT, "B1 model accuracy — %d devices × %d test-vector points (held-out runs; models fitted "
                + "from their own calibration runs)%n", r.devices().size(), r.testPoints());
        out.println("devices: " + String.join(", ", r.devices().stream().map(DeviceUnderTest::name).toList()));
        out.println();
        out.println("residuals ε = predicted − measured, ms, all devices pooled (cf. Romano Table 5)");
        List<String> models = new ArrayList<>(r.pooled().keySet());
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-22s", "statistic"));
        models.forEach(m -> head.append(String.format(Locale.ROOT, "%12s", m)));
        out.println(head);
        row(out, "n", models, r.pooled(), s -> (double) s.count(), "%12.0f");
        row(out, "min", models, r.pooled(), ResidualSummary::min, "%12.3f");
        row(out, "1st quartile", models, r.pooled(), ResidualSummary::q1, "%12.3f");
        row(out, "median", models, r.pooled(), ResidualSummary::median, "%12.3f");
        row(out, "mean", models, r.pooled(), ResidualSummary::mean, "%12.3f");
        row(out, "mean |ε|", models, r.pooled(), ResidualSummary::meanAbsolute, "%12.3f");
        row(out, "3rd quartile", models, r.pooled(), ResidualSummary::q3, "%12.3f");
        row(out, "max", models, r.pooled(), ResidualSummary::max, "%12.3f");
        row(out, "outside 95 % interval", models, r.pooled(), s -> s.outsideShare() * 100, "%11.1f%%");
        row(out, "95 % interval coverage", models, r.pooled(), s -> s.coverage() * 100, "%11.1f%%");
        out.println();
        out.println("mean |ε| per device, ms (coverage of romano's 95 % interval)");
        StringBuilder h2 = new StringBuilder(String.format(Locale.ROOT, "%-28s", "device"));
        models.forEach(m -> h2.append(String.format(Locale.ROOT, "%12s", m)));
        h2.append(String.format(Locale.ROOT, "%12s", "coverage"));
        out.println(h2);
        r.perDevice().forEach((device, byModel) -> {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-28s", device));
            for (String m : models) {
                ResidualSummary s = byModel.get(m);
                line.append(s == null ? String.format(Locale.ROOT, "%12s", "not fitted")
                        : String.format(Locale.ROOT, "%12.3f", s.meanAbsolute()));
            }
            ResidualSummary romano = byModel.get("romano");
            line.append(romano == null || Double.isNaN(romano.coverage()) ? String.format(Locale.ROOT, "%12s", "—")
                    : String.format(Locale.ROOT, "%11.1f%%", romano.coverage() * 100));
            out.println(line);
        });
        r.fitFailures().forEach(f -> out.println("not fitted: " + f));
        printRomanoByOutstandingIos(r, out);
        double[] floor = printRomanoFloor(r, out);
        ResidualSummary pesto = r.pooled().get(ModelAccuracyBenchmark.PESTO_AS_PUBLISHED);
        ResidualSummary product = r.pooled().get("pesto");
        ResidualSummary romano = r.pooled().get("romano");
        if (pesto != null && romano != null && pesto.count() > 0 && romano.count() > 0) {
            double ratio = romano.meanAbsolute() / pesto.meanAbsolute();
            out.println();
            out.printf(Locale.ROOT, "goal romano mean |ε| ≤ 0.15 × pesto's (Pesto as published, 4-KiB injector): %.3f × — %s%n",
                    ratio, ratio <= 0.15 ? "met" : "missed");
            if (floor != null) {
                double floorRatio = floor[1] / pesto.meanAbsolute();
                out.printf(Locale.ROOT, "the floor of Romano's form: ≥ %.3f × pesto's — %s%n", floorRatio,
                        floorRatio > 0.15 ? "no Romano model reaches the goal on these devices"
                                : "within the form's reach");
            }
            if (product != null && product.count() > 0) {
                out.printf(Locale.ROOT, "romano mean |ε| / the product's pesto (injector at 4 and 256 KiB): %.3f ×%n",
                        romano.meanAbsolute() / product.meanAbsolute());
            }
            double cov = romano.coverage();
            out.printf(Locale.ROOT, "goal 95 %% intervals cover 94–96 %%: %.1f %% — %s%n", cov * 100,
                    cov >= 0.94 && cov <= 0.96 ? "met" : "missed");
        }
        ResidualSummary agent = r.pooled().get(ModelAccuracyBenchmark.ROMANO_AGENT);
        if (agent != null && agent.count() > 0) {
            out.printf(Locale.ROOT, "%n%s: romano fitted from the agent's short calibration design, %d points (Romano's 1,600 ÷ %.1f;"
                            + " goal ≤ 160)%n", ModelAccuracyBenchmark.ROMANO_AGENT,
                    CalibrationDesign.romanoAgentCalibration().size(), 1600.0 / CalibrationDesign.romanoAgentCalibration().size());
            if (floor != null) {
                double toFloor = agent.meanAbsolute() / floor[0];
                out.printf(Locale.ROOT, "goal %s mean |ε| ≤ 1.05 × the floor of its form: %.3f / %.3f = %.3f × — %s%n",
                        ModelAccuracyBenchmark.ROMANO_AGENT, agent.meanAbsolute(), floor[0], toFloor, toFloor <= 1.05 ? "met" : "missed");
            }
            double cov = agent.coverage();
            out.printf(Locale.ROOT, "goal %s 95 %% intervals cover 94–96 %%: %.1f %% — %s%n", ModelAccuracyBenchmark.ROMANO_AGENT,
                    cov * 100, cov >= 0.94 && cov <= 0.96 ? "met" : "missed");
        }
    }

    /**
     * Romano's residuals and interval coverage per outstanding-IO level, all devices pooled:
     * Romano §5.2 asks for about 95 % inside the interval, and a pooled share can hide levels
     * covered far more and far less often than that.
     */
    static void printRomanoByOutstandingIos(ModelAccuracyBenchmark.Result r, PrintStream out) {
        Map<Double, List<ModelAccuracyBenchmark.ScoredPoint>> byOio = new TreeMap<>();
        for (ModelAccuracyBenchmark.ScoredPoint p : r.points()) {
            if (p.model().equals("romano")) {
                byOio.computeIfAbsent(p.workload().outstandingIos(), o -> new ArrayList<>()).add(p);
            }
        }
        if (byOio.isEmpty()) {
            return;
        }
        out.println();
        out.println("romano by outstanding IOs, all devices pooled");
        out.printf(Locale.ROOT, "%-8s%8s%12s%12s%12s%n", "O", "n", "mean ε", "mean |ε|", "coverage");
        byOio.forEach((o, points) -> {
            ResidualSummary s = ModelAccuracyBenchmark.summarize(points);
            out.printf(Locale.ROOT, "%-8.0f%8d%12.3f%12.3f%11.1f%%%n", o, s.count(), s.mean(), s.meanAbsolute(),
                    s.coverage() * 100);
        });
    }

    /**
     * Romano's score beside the floor of its form (the full factorial model fitted to the scored
     * runs by least absolute deviations, {@link io.opensdrs.model.romano.FullFactorialFloor}), per
     * device and pooled: what romano loses above the floor is estimation, the floor is the form's.
     *
     * @return the pooled floor {fit, certified lower bound} in ms, or null without one
     */
    static double[] printRomanoFloor(ModelAccuracyBenchmark.Result r, PrintStream out) {
        if (r.romanoFloor().isEmpty()) {
            return null;
        }
        out.println();
        out.println("the floor of Romano's form: the full factorial model (constant and 15 products of X, R, Z, O) fitted");
        out.println("to each device's scored runs themselves by least absolute deviations — no Romano model scores below it");
        out.printf(Locale.ROOT, "%-28s%12s%12s%12s%n", "device", "floor", "≥ (bound)", "romano");
        double fit = 0;
        double bound = 0;
        int n = 0;
        for (var e : r.romanoFloor().entrySet()) {
            var f = e.getValue();
            ResidualSummary romano = r.perDevice().getOrDefault(e.getKey(), Map.of()).get("romano");
            out.printf(Locale.ROOT, "%-28s%12.3f%12.3f%s%n", e.getKey(), f.meanAbsoluteResidual(), f.lowerBound(),
                    romano == null ? String.format(Locale.ROOT, "%12s", "not fitted")
                            : String.format(Locale.ROOT, "%12.3f", romano.meanAbsolute()));
            fit += f.meanAbsoluteResidual() * f.points();
            bound += f.lowerBound() * f.points();
            n += f.points();
        }
        ResidualSummary romano = r.pooled().get("romano");
        out.printf(Locale.ROOT, "%-28s%12.3f%12.3f%s%n", "pooled", fit / n, bound / n,
                romano == null || romano.count() == 0 ? String.format(Locale.ROOT, "%12s", "—")
                        : String.format(Locale.ROOT, "%12.3f", romano.meanAbsolute()));
        return new double[] {fit / n, bound / n};
    }

    private interface Statistic {
        double of(ResidualSummary s);
    }

    private static void row(PrintStream out, String label, List<String> models, Map<String, ResidualSummary> byModel,
                            Statistic stat, String format) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-22s", label));
        for (String m : models) {
            double v = stat.of(byModel.get(m));
            line.append(Double.isNaN(v) ? String.format(Locale.ROOT, "%12s", "—") : String.format(Locale.ROOT, format, v));
        }
        out.println(line);
    }

    static void writeCsv(ModelAccuracyBenchmark.Result r, Path file) throws java.io.IOException {
        boolean mixes = !r.mixes().isEmpty();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("device,model,oio,io_size_kb,read_pct,random_pct,measured_ms,predicted_ms,residual_ms,lower_ms,upper_ms"
                    + (mixes ? ",mix,sizes,members,aggregate_measured_ms" : ""));
            for (ModelAccuracyBenchmark.ScoredPoint p : r.points()) {
                w.printf(Locale.ROOT, "%s,%s,%.0f,%.0f,%.0f,%.0f,%.4f,%.4f,%.4f,%s,%s%s%n", p.device(), p.model(),
                        p.workload().outstandingIos(), p.workload().ioSizeKb(), p.workload().readFraction() * 100,
                        p.workload().randomFraction() * 100, p.measuredMs(), p.predictedMs(), p.residual(),
                        p.interval() == null ? "" : String.format(Locale.ROOT, "%.4f", p.interval().lower()),
                        p.interval() == null ? "" : String.format(Locale.ROOT, "%.4f", p.interval().upper()),
                        mixes ? ",,,," : "");
            }
            // a mix's row: the Eq. 24 aggregate the model predicted under one weighting, model "romano-mix/<fit>/<O|T>"
            for (RomanoMixAccuracy.MixPoint p : r.mixes()) {
                for (RomanoAggregation.Weighting weighting : RomanoAggregation.Weighting.values()) {
                    Workload a = p.aggregate().get(weighting);
                    Prediction pr = p.predicted().get(weighting);
                    String interval = pr.latencyInterval().map(i -> String.format(Locale.ROOT, "%.4f,%.4f", i.lower(), i.upper()))
                            .orElse(",");
                    w.printf(Locale.ROOT, "%s,%s,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%s,%d,%s,%s,%.4f%n", p.device(),
                            "romano-mix/" + p.fit().replace(' ', '-') + "/" + symbol(weighting), a.outstandingIos(),
                            a.ioSizeKb(), a.readFraction() * 100, a.randomFraction() * 100, p.measuredMs(),
                            pr.latencyMs(), p.residual(weighting), interval, p.mix().index(),
                            p.mix().sizes().name().toLowerCase(Locale.ROOT), p.mix().describe(),
                            p.aggregateMeasuredMs().get(weighting));
                }
            }
        }
    }

    private static String symbol(RomanoAggregation.Weighting w) {
        return w == RomanoAggregation.Weighting.OUTSTANDING_IOS ? "O" : "T";
    }

    /**
     * Romano on mixes ({@link RomanoMixAccuracy}): per device, fit and class of IO sizes, and pooled, the error of
     * the mix's latency predicted from Eq. 24's aggregate with Z and R weighted by O (a) and by T (b); then that
     * error split into the aggregation's own (the aggregate measured alone against the mix) and the model's (its
     * prediction against the aggregate measured alone).
     */
    static void printMixes(List<RomanoMixAccuracy.MixPoint> points, PrintStream out) {
        if (points.isEmpty()) {
            return;
        }
        RomanoAggregation.Weighting a = RomanoAggregation.Weighting.OUTSTANDING_IOS;
        RomanoAggregation.Weighting b = RomanoAggregation.Weighting.THROUGHPUT;
        out.println();
        out.println("romano on mixes: 2–4 Table 7 workloads (O 1–8) together on one device; the mix's IO-weighted mean latency");
        out.println("predicted from Eq. 24's aggregate of what the server sees of each disk, Z and R weighted by O (a) or by T (b,");
        out.println("Eq. 24 as printed); the product weighs by " + symbol(RomanoAggregation.MIX)
                + ". ε = predicted − measured, ms. fit: '" + ModelAccuracyBenchmark.FIT_TEST_VECTOR
                + "' = B1's romano (Z 1–64 KiB),");
        out.println("'" + ModelAccuracyBenchmark.FIT_BALANCING + "' = B2's 225-point design (Z 4, 64, 1024 KiB). "
                + "a closer = share of mixes where |ε(a)| < |ε(b)|.");
        out.printf(Locale.ROOT, "%-22s%-12s%-14s%5s%9s%10s%10s%10s%10s%9s%7s%n", "device", "fit", "sizes", "n",
                "measured", "|ε| (a)O", "|ε| (b)T", "med ε (a)", "med ε (b)", "a closer", "better");
        forEachMixGroup(points, (device, fit, sizes, ps) -> {
            double[] ea = ps.stream().mapToDouble(p -> p.residual(a)).toArray();
            double[] eb = ps.stream().mapToDouble(p -> p.residual(b)).toArray();
            ResidualSummary sa = ResidualSummary.of(ea, 0, 0);
            ResidualSummary sb = ResidualSummary.of(eb, 0, 0);
            long closer = 0;
            for (int i = 0; i < ea.length; i++) {
                if (Math.abs(ea[i]) < Math.abs(eb[i])) {
                    closer++;
                }
            }
            double measured = ps.stream().mapToDouble(RomanoMixAccuracy.MixPoint::measuredMs).average().orElse(Double.NaN);
            String better = sa.meanAbsolute() < sb.meanAbsolute() ? "O" : sb.meanAbsolute() < sa.meanAbsolute() ? "T" : "=";
            out.printf(Locale.ROOT, "%-22s%-12s%-14s%5d%9.3f%10.3f%10.3f%10.3f%10.3f%8.0f%%%7s%n", device, fit, sizes,
                    ps.size(), measured, sa.meanAbsolute(), sb.meanAbsolute(), sa.median(), sb.median(),
                    100.0 * closer / ps.size(), better);
        });
        out.println();
        out.println("where ε comes from: each aggregate also run alone as one closed-loop workload on the device (ms, means).");
        out.println("agg − mix: the aggregate alone − the mix, the aggregation's own error, no model in it; model: romano's");
        out.println("prediction − the aggregate alone, the model's error on it. ε = (agg − mix) + model.");
        out.printf(Locale.ROOT, "%-22s%-12s%-14s%5s%13s%14s%13s%14s%11s%11s%n", "device", "fit", "sizes", "n",
                "agg−mix (a)", "|agg−mix|(a)", "agg−mix (b)", "|agg−mix|(b)", "model (a)", "model (b)");
        forEachMixGroup(points, (device, fit, sizes, ps) -> out.printf(Locale.ROOT,
                "%-22s%-12s%-14s%5d%13.3f%14.3f%13.3f%14.3f%11.3f%11.3f%n", device, fit, sizes, ps.size(),
                mean(ps, p -> p.aggregationResidual(a)), mean(ps, p -> Math.abs(p.aggregationResidual(a))),
                mean(ps, p -> p.aggregationResidual(b)), mean(ps, p -> Math.abs(p.aggregationResidual(b))),
                mean(ps, p -> p.residual(a) - p.aggregationResidual(a)),
                mean(ps, p -> p.residual(b) - p.aggregationResidual(b))));
    }

    private interface MixGroup {
        void print(String device, String fit, String sizes, List<RomanoMixAccuracy.MixPoint> points);
    }

    /** Per device (then pooled), fit and class of IO sizes (then all): the rows of the mix tables. */
    private static void forEachMixGroup(List<RomanoMixAccuracy.MixPoint> points, MixGroup row) {
        Map<String, Map<String, Map<RomanoMixAccuracy.Sizes, List<RomanoMixAccuracy.MixPoint>>>> groups = new LinkedHashMap<>();
        for (RomanoMixAccuracy.MixPoint p : points) {
            groups.computeIfAbsent(p.device(), k -> new LinkedHashMap<>());
        }
        groups.put("pooled", new LinkedHashMap<>());
        for (RomanoMixAccuracy.MixPoint p : points) {
            for (String device : List.of(p.device(), "pooled")) {
                groups.get(device).computeIfAbsent(p.fit(), k -> new TreeMap<>())
                        .computeIfAbsent(p.mix().sizes(), k -> new ArrayList<>()).add(p);
            }
        }
        groups.forEach((device, byFit) -> byFit.forEach((fit, bySizes) -> {
            List<RomanoMixAccuracy.MixPoint> all = new ArrayList<>();
            bySizes.forEach((sizes, ps) -> {
                row.print(device, fit, sizes.label(), ps);
                all.addAll(ps);
            });
            row.print(device, fit, "all", all);
        }));
    }

    private static double mean(List<RomanoMixAccuracy.MixPoint> ps, java.util.function.ToDoubleFunction<RomanoMixAccuracy.MixPoint> f) {
        return ps.stream().mapToDouble(f).average().orElse(Double.NaN);
    }
}
