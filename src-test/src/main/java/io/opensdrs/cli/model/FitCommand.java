package io.opensdrs.cli.model;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.ModelRegistry;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.AsymptoteWeightedLqEstimator;
import io.opensdrs.model.pesto.LinearityGate;
import io.opensdrs.model.pesto.LqCurve;
import io.opensdrs.model.pesto.LqEstimator;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.pesto.OrdinaryLqEstimator;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code sdrs model fit}: fit one model to measurements (a plain CSV or one device of a
 * fio-plot file) and print the fit, its R² and predictions at the requested outstanding IOs.
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Fit a datastore model to measurements and predict latency and IOPS at given outstanding IOs.")
public final class FitCommand implements Callable<Integer> {

    /** Default k for --estimator wls; `sdrs model devices` shows the one-step-ahead validation that picks it. */
    static final double DEFAULT_WEIGHT_EXPONENT = 4;

    @Spec
    CommandSpec spec;

    static final class Source {
        @Option(names = "--csv", description = "measurements CSV: oio,latency_ms[,iops,io_size_kb,read_pct,random_pct]")
        Path csv;

        @Option(names = "--fio-csv", description = "fio-plot runs CSV (needs --device)")
        Path fioCsv;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--device", description = "device path in the fio-plot CSV")
    String device;

    @Option(names = "--rw", defaultValue = "randread", description = "fio rw mode (default: ${DEFAULT-VALUE})")
    String rw;

    @Option(names = "--bs", defaultValue = "4k", description = "fio block size (default: ${DEFAULT-VALUE})")
    String bs;

    @Option(names = "--numjobs", defaultValue = "1", description = "fio numjobs to keep; outstanding IOs = iodepth × numjobs (default: ${DEFAULT-VALUE})")
    int numjobs;

    @Option(names = "--min-qd", defaultValue = "2", description = "lowest outstanding IOs used in the fit (default: ${DEFAULT-VALUE})")
    double minQd;

    @Option(names = "--max-qd", defaultValue = "1e9", description = "highest outstanding IOs used in the fit (default: all)")
    double maxQd;

    @Option(names = "--predict-qd", split = ",", defaultValue = "64", description = "outstanding IOs to predict at, comma-separated (default: ${DEFAULT-VALUE})")
    List<Double> predictQd;

    @Option(names = "--model", defaultValue = "pesto", description = "pesto|basil|romano|queueing (default: ${DEFAULT-VALUE})")
    String model;

    @Option(names = "--estimator", defaultValue = "ols", description = "pesto only: ols (Pesto) or wls (asymptote-weighted, weights Q^k) (default: ${DEFAULT-VALUE})")
    String estimator;

    @Option(names = "--weight-exponent", description = "k for --estimator wls (default: 4)")
    Double weightExponent;

    @Option(names = "--min-r2", defaultValue = "0.93", description = "pesto only: reject fits below this R² (Pesto §5.1) (default: ${DEFAULT-VALUE})")
    double minR2;

    @Override
    public Integer call() {
        List<Observation> all = load();
        List<Observation> used = new ArrayList<>();
        for (Observation o : all) {
            if (o.outstandingIos() >= minQd && o.outstandingIos() <= maxQd) {
                used.add(o);
            }
        }
        if (used.size() < 2) {
            throw new IllegalArgumentException("too few points to fit: " + used.size() + " between --min-qd " + minQd + " and --max-qd " + maxQd);
        }
        DatastoreModel m = createModel();
        FitSummary fit = m.fit(used);
        print(spec.commandLine().getOut(), fit, m, all, used.get(0).workload());
        return 0;
    }

    private List<Observation> load() {
        if (source.fioCsv != null) {
            if (device == null) {
                throw new IllegalArgumentException("--fio-csv needs --device <path>");
            }
            LqCurve c = FioRuns.read(source.fioCsv, rw, bs, numjobs).curve(device);
            double sizeKb = parseSizeKb(bs);
            boolean read = rw.contains("read");
            boolean random = rw.startsWith("rand");
            List<Observation> out = new ArrayList<>();
            for (int i = 0; i < c.size(); i++) {
                Workload w = new Workload(c.outstandingIos()[i], sizeKb, read ? 1 : 0, random ? 1 : 0);
                out.add(new Observation(w, c.latencyMs()[i], c.iops()[i]));
            }
            return out;
        }
        if (device != null) {
            throw new IllegalArgumentException("--device only applies with --fio-csv");
        }
        return MeasurementCsv.read(source.csv);
    }

    private DatastoreModel createModel() {
        if (model.equals(LqSlopeModel.NAME)) {
            LqEstimator e;
            if (estimator.equals(OrdinaryLqEstimator.NAME)) {
                e = new OrdinaryLqEstimator();
            } else if (estimator.equals(AsymptoteWeightedLqEstimator.NAME)) {
                e = new AsymptoteWeightedLqEstimator(weightExponent == null ? DEFAULT_WEIGHT_EXPONENT : weightExponent);
            } else {
                throw new IllegalArgumentException("unknown --estimator '" + estimator + "'; known: ols, wls");
            }
            return new LqSlopeModel(e, new LinearityGate(minR2));
        }
        if (!estimator.equals(OrdinaryLqEstimator.NAME)) {
            throw new IllegalArgumentException("--estimator applies to --model pesto only");
        }
        return ModelRegistry.withBuiltInModels().create(model);
    }

    private void print(PrintWriter out, FitSummary fit, DatastoreModel m, List<Observation> all, Workload template) {
        out.printf(Locale.ROOT, "model %s fitted on %d points, R² = %.4f%n", fit.model(), fit.points(), fit.rSquared());
        for (Map.Entry<String, Double> p : fit.parameters().entrySet()) {
            out.printf(Locale.ROOT, "  %-12s %.6g%n", p.getKey(), p.getValue());
        }
        out.printf(Locale.ROOT, "%8s %12s %12s %22s %14s %9s%n", "oio", "latency_ms", "iops", "95% interval (ms)", "measured_iops", "error");
        for (double q : predictQd) {
            Prediction p = m.predict(template.withOutstandingIos(q));
            String interval = p.latencyInterval()
                    .map(i -> String.format(Locale.ROOT, "[%.4g, %.4g]", i.lower(), i.upper())).orElse("-");
            Observation measured = null;
            for (Observation o : all) {
                if (o.outstandingIos() == q && o.hasIops()) {
                    measured = o;
                }
            }
            out.printf(Locale.ROOT, "%8.0f %12.4f %12.1f %22s %14s %9s%n", q, p.latencyMs(), p.iops(), interval,
                    measured == null ? "-" : String.format(Locale.ROOT, "%.1f", measured.iops()),
                    measured == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * (p.iops() - measured.iops()) / measured.iops()));
        }
    }

    static double parseSizeKb(String bs) {
        String s = bs.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("k")) {
                return Double.parseDouble(s.substring(0, s.length() - 1));
            }
            if (s.endsWith("m")) {
                return 1024 * Double.parseDouble(s.substring(0, s.length() - 1));
            }
            return Double.parseDouble(s) / 1024.0;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--bs '" + bs + "' is not a block size like 4k");
        }
    }
}
