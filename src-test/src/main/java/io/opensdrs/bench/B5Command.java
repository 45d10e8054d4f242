package io.opensdrs.bench;

import io.opensdrs.agent.injector.DirectIoFile;
import io.opensdrs.model.stats.LineFit;
import io.opensdrs.agent.injector.WorkloadInjector;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * B5 (SPEC §8): the real-IO injector on this machine's disk against {@code fio} (libaio,
 * direct=1, 4 KiB random reads) at the same queue depths on the same file. Prints both curves,
 * both LQ fits (Pesto Eq. 1) and their ratios, and the time the injector took to a model; writes
 * a CSV. Goal: slope and peak within 10 %, a model in ≤ 30 s.
 */
@Command(name = "b5", mixinStandardHelpOptions = true,
        description = "B5: real-IO injector vs fio on the same file and queue depths")
public final class B5Command implements Callable<Integer> {

    @Option(names = "--file", defaultValue = "/var/tmp/sdrs-b5/injector.dat",
            description = "file to read (written once with non-zero data); default ${DEFAULT-VALUE}")
    Path file;

    @Option(names = "--size-mib", defaultValue = "2048", description = "file size; default ${DEFAULT-VALUE}")
    long sizeMiB;

    @Option(names = "--levels", split = ",", defaultValue = "2,4,8,16,32", description = "queue depths")
    int[] levels;

    @Option(names = "--seconds", defaultValue = "4", description = "run per level, injector and fio; default ${DEFAULT-VALUE}")
    int seconds;

    @Option(names = "--csv", defaultValue = "target/b5.csv", description = "CSV output; default ${DEFAULT-VALUE}")
    Path csv;

    @Override
    public Integer call() throws Exception {
        String fio = FioRunner.version();
        if (fio == null) {
            System.out.println("B5: fio is not installed (Debian: apt-get install -y fio); the injector runs alone.");
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        long size = sizeMiB << 20;
        long t0 = System.nanoTime();
        boolean written = DirectIoFile.prepare(file, size, b -> { });
        System.out.printf(Locale.ROOT, "B5 file %s, %d MiB, %s in %.1f s%n", file, sizeMiB,
                written ? "written with non-zero data" : "reused", (System.nanoTime() - t0) / 1e9);

        WorkloadInjector injector = new WorkloadInjector(
                new WorkloadInjector.Settings(levels, Duration.ofSeconds(seconds), 4096));
        long start = System.nanoTime();
        InjectorResult r;
        try (DirectIoFile target = DirectIoFile.open(file)) {
            System.out.println("B5 injector target: " + target.describe());
            r = injector.run(target, "b5", InjectorMode.REAL_IO, 1, WorkloadInjector.LeaderGate.ALWAYS);
        }
        double modelSeconds = (System.nanoTime() - start) / 1e9;
        LineFit inj = new LineFit(r.getFit().getSlopeMsPerIo(), r.getFit().getInterceptMs(), r.getFit().getRSquared(),
                r.getFit().getPoints());

        List<FioRunner.FioPoint> fioPoints = new ArrayList<>();
        if (fio != null) {
            for (int qd : levels) {
                fioPoints.add(FioRunner.run(file, size, qd, seconds));
            }
        }
        double[] fq = fioPoints.stream().mapToDouble(p -> p.iops() * p.meanLatencyMs() / 1000).toArray();
        double[] fl = fioPoints.stream().mapToDouble(FioRunner.FioPoint::meanLatencyMs).toArray();
        LineFit fioFit = fioPoints.size() >= 2 ? WorkloadInjector.fit(fq, fl) : null;

        System.out.println();
        System.out.println("B5 curves (Q = Little's-law outstanding IOs = IOPS x mean latency)");
        System.out.printf(Locale.ROOT, "%4s | %10s %8s %9s %7s | %10s %8s %9s | %9s %9s%n", "QD", "inj IOPS", "inj Q",
                "inj L ms", "zeros", "fio IOPS", "fio Q", "fio L ms", "IOPS i/f", "L i/f");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csvPath()))) {
            out.println("qd,injector_iops,injector_oio,injector_latency_ms,injector_zero_drops,fio_iops,fio_oio,fio_latency_ms");
            for (int i = 0; i < r.getPointsCount(); i++) {
                InjectorPoint p = r.getPoints(i);
                FioRunner.FioPoint f = i < fioPoints.size() ? fioPoints.get(i) : null;
                double fo = f == null ? Double.NaN : f.iops() * f.meanLatencyMs() / 1000;
                System.out.printf(Locale.ROOT, "%4d | %10.0f %8.2f %9.4f %7d | %10.0f %8.2f %9.4f | %9.3f %9.3f%n",
                        p.getTargetOio(), p.getIops(), p.getMeasuredOio(), p.getMeanLatencyMs(), p.getZeroReadsDropped(),
                        f == null ? Double.NaN : f.iops(), fo, f == null ? Double.NaN : f.meanLatencyMs(),
                        f == null ? Double.NaN : p.getIops() / f.iops(),
                        f == null ? Double.NaN : p.getMeanLatencyMs() / f.meanLatencyMs());
                out.printf(Locale.ROOT, "%d,%.1f,%.3f,%.5f,%d,%.1f,%.3f,%.5f%n", p.getTargetOio(), p.getIops(),
                        p.getMeasuredOio(), p.getMeanLatencyMs(), p.getZeroReadsDropped(),
                        f == null ? Double.NaN : f.iops(), fo, f == null ? Double.NaN : f.meanLatencyMs());
            }
            out.printf(Locale.ROOT, "#fit,injector,slope_ms_per_io=%.6f,intercept_ms=%.6f,r2=%.4f,peak_iops=%.0f%n",
                    inj.slope(), inj.intercept(), inj.rSquared(), 1000.0 / inj.slope());
            if (fioFit != null) {
                out.printf(Locale.ROOT, "#fit,fio,slope_ms_per_io=%.6f,intercept_ms=%.6f,r2=%.4f,peak_iops=%.0f%n",
                        fioFit.slope(), fioFit.intercept(), fioFit.rSquared(), 1000.0 / fioFit.slope());
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "%-9s %14s %14s %8s %12s%n", "fit", "slope ms/IO", "intercept ms", "R2", "peak IOPS");
        printFit("injector", inj);
        if (fioFit != null) {
            printFit("fio", fioFit);
            System.out.printf(Locale.ROOT, "ratios injector/fio: slope %.3f, intercept %.3f, peak %.3f%n",
                    inj.slope() / fioFit.slope(), inj.intercept() / fioFit.intercept(),
                    fioFit.slope() / inj.slope()); // peak = 1/m (Pesto Eq. 4)
            boolean within = Math.abs(inj.slope() / fioFit.slope() - 1) <= 0.10
                    && Math.abs(fioFit.slope() / inj.slope() - 1) <= 0.10;
            System.out.println("goal slope and peak within 10 %: " + (within ? "MET" : "NOT MET"));
        }
        System.out.printf(Locale.ROOT, "injector run: valid=%s%s; time to a model %.1f s (goal <= 30 s): %s%n",
                r.getValid(), r.getValid() ? "" : " (" + r.getInvalidReason() + ": " + r.getInvalidDetail() + ")",
                modelSeconds, modelSeconds <= 30 ? "MET" : "NOT MET");
        System.out.println("CSV: " + csvPath().toAbsolutePath());
        return 0;
    }

    private Path csvPath() throws java.io.IOException {
        Path p = csv.toAbsolutePath();
        Files.createDirectories(p.getParent());
        return p;
    }

    private static void printFit(String name, LineFit f) {
        // peak throughput 1/m (Pesto Eq. 4), m in ms per IO
        System.out.printf(Locale.ROOT, "%-9s %14.6f %14.6f %8.4f %12.0f%n", name, f.slope(), f.intercept(),
                f.rSquared(), f.slope() > 0 ? 1000.0 / f.slope() : Double.POSITIVE_INFINITY);
    }
}
