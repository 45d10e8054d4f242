package io.opensdrs.bench.ingest;

import io.opensdrs.server.SdrsServerApplication;
import io.opensdrs.server.stats.DiskWindowIngestion;
import io.opensdrs.server.stats.vcenter.VCenterStatistics;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * B9's data (SPEC §8: the server's restart after kill -9): fills a server data directory with
 * {@code --hours} of vCenter statistics for {@code --disks} disks, one 20-s window per disk and
 * period, through the server's own ingestion path ({@link DiskWindowIngestion#ingest} under source
 * {@link VCenterStatistics#SOURCE}, as each read of vCenter's counters stores them) in a server
 * started in this JVM on that directory, then stops the server cleanly. {@code sdrs bench b9}
 * runs it ({@code java -cp sdrs-ingest-bench.jar ...StatisticsDayFill}) before it starts the
 * server jar on the directory.
 */
@Command(name = "statistics-day-fill", mixinStandardHelpOptions = true,
        description = "B9's data: --hours of 20-s vCenter windows of --disks disks, through the server's ingestion, into --data-dir.")
public final class StatisticsDayFill implements Callable<Integer> {

    @Option(names = "--data-dir", required = true, description = "the server's sdrs.data-dir (H2), created if missing")
    Path dataDir;
    @Option(names = "--disks", defaultValue = "1000")
    int disks;
    @Option(names = "--hours", defaultValue = "24")
    int hours;
    @Option(names = "--datastores", defaultValue = "16")
    int datastores;
    @Option(names = "--seed", defaultValue = "1")
    long seed;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StatisticsDayFill()).execute(args));
    }

    @Override
    public Integer call() {
        if (disks < 1 || hours < 1 || datastores < 1) {
            throw new IllegalArgumentException("--disks, --hours and --datastores must be ≥ 1, were " + disks + ", " + hours
                    + ", " + datastores);
        }
        long t0 = System.nanoTime();
        // no vCenter: nothing but this fill stores statistics; retention's bounds as configured
        // (a day of 1,000 disks is within raw-max-samples, and every row is received now)
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(SdrsServerApplication.class).run(
                "--sdrs.data-dir=" + dataDir, "--server.port=0", "--sdrs.grpc.port=0",
                "--sdrs.security.users[0].name=fill", "--sdrs.security.users[0].password=fill",
                "--logging.level.root=WARN", "--spring.main.banner-mode=off");
        long stored = 0;
        int periods = hours * 3600 / VCenterStatistics.INTERVAL_SECONDS;
        try {
            DiskWindowIngestion ingestion = ctx.getBean(DiskWindowIngestion.class);
            Random random = new Random(seed);
            long interval = VCenterStatistics.INTERVAL_SECONDS * 1000L;
            long first = (System.currentTimeMillis() / interval - periods) * interval;
            double[] rate = new double[disks];
            for (int d = 0; d < disks; d++) {
                rate[d] = 20 + random.nextDouble() * 400;
            }
            long tFill = System.nanoTime();
            for (int p = 0; p < periods; p++) {
                DiskStatsBatch.Builder batch = DiskStatsBatch.newBuilder().setHost(VCenterStatistics.SOURCE);
                for (int d = 0; d < disks; d++) {
                    long ios = Math.max(0, Math.round(rate[d] * VCenterStatistics.INTERVAL_SECONDS * (0.5 + random.nextDouble())));
                    long reads = ios * 7 / 10;
                    long bytes = ios * 16 * 1024;
                    batch.addSamples(DiskWindowStats.newBuilder()
                            .setVm("vm-" + (1000 + d / 3)).setDiskKey(2000 + d % 3)
                            .setDiskFile("[b9-ds" + d % datastores + "] vm-" + (1000 + d / 3) + "/disk" + d % 3 + ".vmdk")
                            .setDatastore("b9-ds" + d % datastores)
                            .setWindowStartMs(first + p * interval).setWindowSeconds(VCenterStatistics.INTERVAL_SECONDS)
                            .setIoCount(ios).setReads(reads).setWrites(ios - reads)
                            .setBytesRead(reads * 16 * 1024).setBytesWritten(bytes - reads * 16 * 1024)
                            .setMeanOutstandingIos(1 + random.nextDouble() * 8).setMeanLatencyMs(0.5 + random.nextDouble() * 20)
                            .setMeanIoSizeKb(16).setReadShare(0.7).setRandomness(random.nextDouble())
                            .build());
                }
                stored += ingestion.ingest(VCenterStatistics.SOURCE, batch.build(), b -> { }).getSamplesCount();
                if ((p + 1) % 720 == 0) {
                    System.out.printf(Locale.ROOT, "  filled %d of %d periods (%.0f s)%n", p + 1, periods,
                            (System.nanoTime() - tFill) / 1e9);
                }
            }
        } finally {
            ctx.close();
        }
        System.out.printf(Locale.ROOT, "filled %d windows (%d disks × %d periods of %d s) in %.1f s%n", stored, disks,
                periods, VCenterStatistics.INTERVAL_SECONDS, (System.nanoTime() - t0) / 1e9);
        return stored == (long) disks * periods ? 0 : 1;
    }
}
