package io.opensdrs.bench.ingest;

import io.opensdrs.server.SdrsServerApplication;
import io.opensdrs.server.ingest.AgentCredentialStore;
import io.opensdrs.server.ingest.AgentGrpcServer;
import io.opensdrs.server.ingest.SimulatedAgent;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * B4 (SPEC §8): statistics ingestion. Starts the server in this JVM on an embedded H2 file, then
 * N simulated agents stream DiskStatsBatch messages over real loopback gRPC (authenticated, acked
 * after commit), while a client queries a datastore's percentiles over HTTP. Prints samples/s per
 * interval and overall, and the percentile-query latency under that load; writes a CSV.
 *
 * <p>Agents and server share this machine's cores: the figure includes the agents' own cost.
 */
@Command(name = "ingest-benchmark", mixinStandardHelpOptions = true,
        description = "B4: agents' streams through gRPC into P² percentiles and storage; samples/s and query latency.")
public final class IngestBenchmark implements Callable<Integer> {

    private static final String BASIC_AUTH = "Basic " + Base64.getEncoder().encodeToString("bench:bench".getBytes(StandardCharsets.UTF_8));

    @Option(names = "--agents", defaultValue = "8", description = "simulated agents (one gRPC session each)")
    int agents;
    @Option(names = "--duration", defaultValue = "60", description = "measured seconds")
    int durationS;
    @Option(names = "--warmup", defaultValue = "10", description = "seconds streamed before measuring")
    int warmupS;
    @Option(names = "--samples-per-message", defaultValue = "500", description = "per-disk samples in one DiskStatsBatch")
    int samplesPerMessage;
    @Option(names = "--in-flight", defaultValue = "8", description = "unacknowledged messages per agent")
    int inFlight;
    @Option(names = "--datastores", defaultValue = "16")
    int datastores;
    @Option(names = "--raw-max-samples", defaultValue = "5000000", description = "raw-sample retention bound during the run")
    long rawMaxSamples;
    @Option(names = "--csv", defaultValue = "target/b4-ingest.csv")
    Path csv;

    public static void main(String[] args) {
        System.exit(new CommandLine(new IngestBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path dataDir = Files.createTempDirectory("sdrs-b4-");
        // command-line arguments: they outrank application.yml (default properties would not)
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(SdrsServerApplication.class).run(
                "--sdrs.data-dir=" + dataDir, "--server.port=0", "--sdrs.grpc.port=0",
                "--sdrs.security.users[0].name=bench", "--sdrs.security.users[0].password=bench",
                "--sdrs.stats.raw-max-samples=" + rawMaxSamples, "--sdrs.stats.retention-check-interval=PT10S",
                "--logging.level.root=WARN", "--spring.main.banner-mode=off");
        try {
            return run(ctx);
        } finally {
            ctx.close();
        }
    }

    private int run(ConfigurableApplicationContext ctx) throws Exception {
        int grpcPort = ctx.getBean(AgentGrpcServer.class).port();
        int httpPort = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        AgentCredentialStore credentials = ctx.getBean(AgentCredentialStore.class);
        List<String> dsNames = new ArrayList<>();
        for (int i = 0; i < datastores; i++) {
            dsNames.add("b4-ds" + i);
        }

        // Spring Security hashes a dummy password with bcrypt at the first authentication (its
        // timing-attack protection), still interpreted then: seconds of CPU. Once, before the
        // agents start, so that it is not counted against ingestion or query latency.
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + "/api/v1/datastores"))
                .header("Authorization", BASIC_AUTH).build(), HttpResponse.BodyHandlers.discarding());

        AtomicLong accepted = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int a = 0; a < agents; a++) {
            String id = "b4-agent-" + a;
            String token = credentials.issue(id, List.of("esx-" + a)).token();
            int agentIndex = a;
            Thread t = new Thread(() -> {
                try {
                    stream(id, token, grpcPort, agentIndex, dsNames, accepted, stop);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, id);
            t.start();
            threads.add(t);
        }

        // percentile queries under load: one client, back to back with a 10 ms pause
        List<Long> queryNanos = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> readNanos = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean measuring = new AtomicBoolean();
        WorkloadPercentiles percentiles = ctx.getBean(WorkloadPercentiles.class);
        Thread query = new Thread(() -> queries(httpPort, percentiles, dsNames, stop, measuring, queryNanos, readNanos), "b4-query");
        query.start();

        Thread.sleep(warmupS * 1000L);
        measuring.set(true);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long startCpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        long startCount = accepted.get();
        List<long[]> intervals = new ArrayList<>();
        long last = startCount;
        for (int s = 1; s <= durationS; s++) {
            Thread.sleep(Math.max(0, start + s * 1_000_000_000L - System.nanoTime()) / 1_000_000);
            long now = accepted.get();
            intervals.add(new long[]{s, now - last});
            last = now;
        }
        long elapsed = System.nanoTime() - start;
        long total = accepted.get() - startCount;
        // CPU of this process (server and agents) per sample: unlike samples/s, it does not depend
        // on what else runs on the machine
        double cpuUsPerSample = (os.getProcessCpuTime() - startCpu) / 1e3 / Math.max(1, total);
        double cores = (os.getProcessCpuTime() - startCpu) / (double) elapsed;
        measuring.set(false);
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
        }
        query.join(10_000);
        if (!failures.isEmpty()) {
            failures.get(0).printStackTrace();
        }

        double rate = total / (elapsed / 1e9);
        long minPerSecond = intervals.stream().mapToLong(i -> i[1]).min().orElse(0);
        long[] lat = sorted(queryNanos);
        double p50 = quantile(lat, 0.50) / 1e6;
        double p99 = quantile(lat, 0.99) / 1e6;
        long[] reads = sorted(readNanos);
        double readP50 = quantile(reads, 0.50) / 1e3;
        double readP99 = quantile(reads, 0.99) / 1e3;
        long rawRetained = ctx.getBean(io.opensdrs.server.stats.StatisticsRepository.class).retainedSamples();

        System.out.println();
        System.out.println("B4 statistics ingestion (" + agents + " agents x " + samplesPerMessage + " samples/message, "
                + inFlight + " in flight, " + Runtime.getRuntime().availableProcessors() + " cores, H2 file)");
        System.out.println("+--------------------------------------+------------------+");
        row("measured duration (s)", String.format("%.1f", elapsed / 1e9));
        row("samples accepted (acked after commit)", String.valueOf(total));
        row("samples/s sustained (mean)", String.format("%.0f", rate));
        row("samples/s slowest 1-s interval", String.valueOf(minPerSecond));
        row("process CPU per sample (us)", String.format("%.2f", cpuUsPerSample));
        row("process CPU used (cores)", String.format("%.2f", cores));
        row("percentile queries under load", String.valueOf(lat.length));
        row("percentile query p50 (ms)", String.format("%.2f", p50));
        row("percentile query p99 (ms)", String.format("%.2f", p99));
        row("in-process percentile read p50 (us)", String.format("%.1f", readP50));
        row("in-process percentile read p99 (us)", String.format("%.1f", readP99));
        row("raw samples retained (bound)", rawRetained + " (" + rawMaxSamples + ")");
        row("goal 150,000 samples/s for 60 s", rate >= 150_000 && durationS >= 60 ? "met" : "NOT met");
        System.out.println("+--------------------------------------+------------------+");

        Files.createDirectories(csv.toAbsolutePath().getParent());
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
            w.println("second,samples");
            for (long[] i : intervals) {
                w.println(i[0] + "," + i[1]);
            }
            w.println();
            w.println("metric,value");
            w.println("agents," + agents);
            w.println("samples_per_message," + samplesPerMessage);
            w.println("duration_s," + String.format("%.1f", elapsed / 1e9));
            w.println("samples_total," + total);
            w.println("samples_per_s_mean," + String.format("%.0f", rate));
            w.println("samples_per_s_min_1s," + minPerSecond);
            w.println("query_p50_ms," + String.format("%.3f", p50));
            w.println("query_p99_ms," + String.format("%.3f", p99));
            w.println("queries," + lat.length);
            w.println("cpu_us_per_sample," + String.format("%.2f", cpuUsPerSample));
            w.println("cpu_cores," + String.format("%.2f", cores));
            w.println("read_p50_us," + String.format("%.1f", readP50));
            w.println("read_p99_us," + String.format("%.1f", readP99));
        }
        System.out.println("CSV: " + csv.toAbsolutePath());
        return failures.isEmpty() ? 0 : 1;
    }

    private static long[] sorted(List<Long> nanos) {
        synchronized (nanos) {
            return nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        }
    }

    private static double quantile(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))];
    }

    private static void row(String k, String v) {
        System.out.printf("| %-36s | %16s |%n", k, v);
    }

    private void stream(String id, String token, int port, int agentIndex, List<String> ds, AtomicLong accepted,
                        AtomicBoolean stop) throws InterruptedException {
        Random rnd = new Random(agentIndex);
        // a pool of successive 20-s windows, built and encoded once: the machine's CPU should go to
        // the server; each message is a fresh seq in front of one of these bodies
        byte[][] pool = new byte[16][];
        long t0 = 1_700_000_000_000L;
        for (int i = 0; i < pool.length; i++) {
            pool[i] = SimulatedAgent.encodedDiskStats(SimulatedAgent.batch("esx-" + agentIndex, "a" + agentIndex + "-vm",
                    samplesPerMessage, ds, t0 + i * 20_000L, rnd));
        }
        try (SimulatedAgent agent = new SimulatedAgent("localhost", port, token)) {
            agent.register(id, "esx-" + agentIndex, ds);
            SimulatedAgent.Session s = agent.openEncodedSession();
            ArrayDeque<Long> unacked = new ArrayDeque<>();
            long seq = 1;
            while (!stop.get()) {
                while (unacked.size() < inFlight) {
                    s.sendEncoded(SimulatedAgent.encodedMessage(seq, pool[(int) (seq % pool.length)]));
                    unacked.add(seq++);
                }
                ServerMessage m = s.take(30_000);
                if (m == null) {
                    throw new IllegalStateException(id + ": no ack, stream " + s.closedStatus());
                }
                if (m.getAck().getStatus() != AckStatus.ACCEPTED) {
                    throw new IllegalStateException(id + ": " + m.getAck());
                }
                unacked.remove(m.getAck().getSeq());
                accepted.addAndGet(samplesPerMessage);
            }
            s.complete();
        }
    }

    /**
     * One client, back to back with a 10 ms pause: each round an HTTP query (the plugin's path:
     * Tomcat, authentication, JSON) and the same read in-process (the percentiles alone, which
     * is what ingestion can slow down).
     */
    private static void queries(int port, WorkloadPercentiles percentiles, List<String> ds, AtomicBoolean stop,
                                AtomicBoolean measuring, List<Long> nanos, List<Long> readNanos) {
        HttpClient http = HttpClient.newHttpClient();
        int i = 0;
        while (!stop.get()) {
            String name = ds.get(i++ % ds.size());
            HttpRequest r = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/datastores/"
                    + name + "/percentiles?window=PT1H")).header("Authorization", BASIC_AUTH).build();
            long t = System.nanoTime();
            try {
                HttpResponse<String> resp = http.send(r, HttpResponse.BodyHandlers.ofString());
                long d = System.nanoTime() - t;
                long t2 = System.nanoTime();
                boolean found = percentiles.datastore(name, Duration.ofHours(1)).isPresent();
                long d2 = System.nanoTime() - t2;
                if (measuring.get() && resp.statusCode() == 200) {
                    nanos.add(d);
                }
                if (measuring.get() && found) {
                    readNanos.add(d2);
                }
                Thread.sleep(10);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    return;
                }
            }
        }
    }

}
