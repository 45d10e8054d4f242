package io.opensdrs.cli.model;

import io.opensdrs.model.pesto.AsymptoteWeightedLqEstimator;
import io.opensdrs.model.pesto.LinearityGate;
import io.opensdrs.model.pesto.LqCurve;
import io.opensdrs.model.pesto.LqEstimator;
import io.opensdrs.model.pesto.OneStepAheadSelection;
import io.opensdrs.model.pesto.OrdinaryLqEstimator;
import io.opensdrs.model.pesto.QueueDepthExtrapolation;
import io.opensdrs.model.pesto.QueueDepthExtrapolation.Outcome;
import io.opensdrs.model.stats.ErrorDistribution;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code sdrs model devices}: for every device in a fio-plot file, the LQ fit over queue
 * depths 2–32 and its predicted vs measured IOPS at queue depth 64, by ordinary least
 * squares (Pesto) and by asymptote-weighted least squares, with both error distributions.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "Score LQ fits on every device of a fio-plot CSV: fit over --min-qd..--max-qd, predict IOPS at --predict-qd.")
public final class DevicesCommand implements Callable<Integer> {

    static final double[] CANDIDATE_EXPONENTS = {0, 1, 2, 3, 4};

    @Spec
    CommandSpec spec;

    @Option(names = "--fio-csv", required = true, description = "fio-plot runs CSV (e.g. ../shared/data/fio-plot/fio-runs.csv)")
    Path fioCsv;

    @Option(names = "--rw", defaultValue = "randread", description = "fio rw mode (default: ${DEFAULT-VALUE})")
    String rw;

    @Option(names = "--bs", defaultValue = "4k", description = "fio block size (default: ${DEFAULT-VALUE})")
    String bs;

    @Option(names = "--numjobs", defaultValue = "1", description = "fio numjobs to keep (default: ${DEFAULT-VALUE})")
    int numjobs;

    @Option(names = "--min-qd", defaultValue = "2", description = "lowest outstanding IOs in the fit (default: ${DEFAULT-VALUE})")
    double minQd;

    @Option(names = "--max-qd", defaultValue = "32", description = "highest outstanding IOs in the fit (default: ${DEFAULT-VALUE})")
    double maxQd;

    @Option(names = "--predict-qd", defaultValue = "64", description = "outstanding IOs to predict at (default: ${DEFAULT-VALUE})")
    double predictQd;

    @Option(names = "--weight-exponent", description = "k of the Q^k weights; default: chosen by one-step-ahead validation (fit to the level below --max-qd, predict --max-qd) pooled over all devices")
    Double weightExponent;

    @Option(names = "--limit", defaultValue = "0.10", description = "error goal as a fraction (default: ${DEFAULT-VALUE})")
    double limit;

    @Option(names = "--csv", description = "also write the table to this CSV file")
    Path csv;

    /** The whole report, computed; public so tests can assert on it. */
    public record Report(double exponent, OneStepAheadSelection.Choice selection,
                         List<Outcome> ordinary, List<Outcome> weighted,
                         ErrorDistribution ordinaryErrors, ErrorDistribution weightedErrors) {
    }

    @Override
    public Integer call() {
        FioRuns runs = FioRuns.read(fioCsv, rw, bs, numjobs);
        if (runs.devices().isEmpty()) {
            throw new IllegalArgumentException("--fio-csv " + fioCsv + " has no runs with rw=" + rw + " bs=" + bs + " numjobs=" + numjobs);
        }
        Report report = compute(runs, minQd, maxQd, predictQd, weightExponent, limit);
        print(spec.commandLine().getOut(), report);
        if (csv != null) {
            writeCsv(csv, report);
        }
        return 0;
    }

    public static Report compute(FioRuns runs, double minQd, double maxQd, double predictQd, Double exponent, double limit) {
        List<LqCurve> training = new ArrayList<>();
        for (String device : runs.devices()) {
            LqCurve c = runs.curve(device).between(minQd, maxQd);
            if (c.size() >= 2) {
                training.add(c);
            }
        }
        OneStepAheadSelection.Choice choice = OneStepAheadSelection.choose(training, CANDIDATE_EXPONENTS);
        double k = exponent != null ? exponent : choice.exponent();
        LqEstimator ols = new OrdinaryLqEstimator();
        LqEstimator wls = new AsymptoteWeightedLqEstimator(k);
        List<Outcome> a = new ArrayList<>();
        List<Outcome> b = new ArrayList<>();
        List<Double> ea = new ArrayList<>();
        List<Double> eb = new ArrayList<>();
        for (LqCurve c : training) {
            LqCurve full = runs.curve(c.device());
            Outcome oa = QueueDepthExtrapolation.run(full, ols, minQd, maxQd, predictQd);
            Outcome ob = QueueDepthExtrapolation.run(full, wls, minQd, maxQd, predictQd);
            a.add(oa);
            b.add(ob);
            if (oa.scored()) {
                ea.add(oa.relativeError());
                eb.add(ob.relativeError());
            }
        }
        return new Report(k, choice, a, b, ErrorDistribution.of(ea, limit), ErrorDistribution.of(eb, limit));
    }

    static void print(PrintWriter out, Report r) {
        out.printf(Locale.ROOT, "weight exponent k = %s (one-step-ahead pooled mean |error| by k:", fmt(r.exponent()));
        for (int i = 0; i < r.selection().candidates().length; i++) {
            out.printf(Locale.ROOT, " %s→%.1f%%", fmt(r.selection().candidates()[i]), 100 * r.selection().meanAbsoluteError()[i]);
        }
        out.println(")");
        out.printf(Locale.ROOT, "%-66s %3s %9s %9s %6s %4s %10s %7s %9s %10s %7s %10s%n",
                "device", "n", "m(ms/IO)", "C(ms)", "R2", "gate", "OLS@Q", "OLSerr", "WLS m", "WLS@Q", "WLSerr", "measured");
        for (int i = 0; i < r.ordinary().size(); i++) {
            Outcome a = r.ordinary().get(i);
            Outcome b = r.weighted().get(i);
            out.printf(Locale.ROOT, "%-66s %3d %9.5f %9.4f %6.3f %4s %10.1f %7s %9.5f %10.1f %7s %10s%n",
                    a.device(), a.line().points(), a.line().slope(), a.line().intercept(), a.line().rSquared(),
                    LinearityGate.PESTO.accepts(a.line()) ? "ok" : "FAIL",
                    a.predictedIops(), pct(a.relativeError()), b.line().slope(), b.predictedIops(), pct(b.relativeError()),
                    a.scored() ? String.format(Locale.ROOT, "%.1f", a.measuredIops()) : "-");
        }
        summary(out, "OLS (Pesto)", r.ordinaryErrors(), r.ordinary());
        summary(out, "WLS Q^" + fmt(r.exponent()), r.weightedErrors(), r.weighted());
    }

    private static void summary(PrintWriter out, String name, ErrorDistribution d, List<Outcome> outcomes) {
        out.printf(Locale.ROOT, "%-14s |error| over %d devices: mean %.1f%%, median %.1f%%, p90 %.1f%%, max %.1f%%, %d over %.0f%%",
                name, d.count(), 100 * d.mean(), 100 * d.median(), 100 * d.p90(), 100 * d.max(), d.overLimit(), 100 * d.limit());
        List<String> over = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o.scored() && Math.abs(o.relativeError()) > d.limit()) {
                over.add(o.device() + " " + pct(o.relativeError()));
            }
        }
        out.println(over.isEmpty() ? "" : ": " + String.join(", ", over));
    }

    private static void writeCsv(Path file, Report r) {
        List<String> lines = new ArrayList<>();
        lines.add("device,points,ols_m_ms,ols_c_ms,ols_r2,ols_pred_iops,ols_error,wls_k,wls_m_ms,wls_c_ms,wls_pred_iops,wls_error,measured_iops");
        for (int i = 0; i < r.ordinary().size(); i++) {
            Outcome a = r.ordinary().get(i);
            Outcome b = r.weighted().get(i);
            lines.add(String.format(Locale.ROOT, "%s,%d,%.6g,%.6g,%.4f,%.1f,%s,%s,%.6g,%.6g,%.1f,%s,%s",
                    a.device(), a.line().points(), a.line().slope(), a.line().intercept(), a.line().rSquared(), a.predictedIops(),
                    a.scored() ? String.format(Locale.ROOT, "%.4f", a.relativeError()) : "",
                    fmt(r.exponent()), b.line().slope(), b.line().intercept(), b.predictedIops(),
                    b.scored() ? String.format(Locale.ROOT, "%.4f", b.relativeError()) : "",
                    a.scored() ? String.format(Locale.ROOT, "%.2f", a.measuredIops()) : ""));
        }
        try {
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write --csv " + file, e);
        }
    }

    private static String pct(double e) {
        return Double.isNaN(e) ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * e);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
