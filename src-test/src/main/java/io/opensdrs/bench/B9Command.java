package io.opensdrs.bench;

import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.loop.ServerApi;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code sdrs bench b9} (SPEC §8 B9): the server's restart after kill -9 with a day of statistics.
 * Fills a data directory with {@code --hours} of 20-s vCenter windows of {@code --disks} disks through
 * the server's own ingestion (src-test/ingest-bench's {@code StatisticsDayFill}), starts the server jar
 * on it, kills it with SIGKILL once healthy, starts it again and measures from that start until
 * {@code /actuator/health} answers 200 and until the server logs that the percentile windows are rebuilt.
 * The phases of that start come from the server's own log lines' timestamps.
 */
@Command(name = "b9", mixinStandardHelpOptions = true,
        description = {"B9 restart after kill -9: a day of vCenter statistics for --disks disks in the server's H2, the"
                + " server jar started, killed with SIGKILL, started again; time to healthy and to the percentile windows"
                + " rebuilt, and where the start's time went (the server's log)."})
public final class B9Command implements Callable<Integer> {
    /** The goal: healthy within 10 s of the start after kill -9. */
    static final double GOAL_SECONDS = 10;
    static final int INTERVAL_SECONDS = 20;

    /** The server's log lines that mark a start's phases, in the order they come. */
    private static final List<Map.Entry<String, Pattern>> MARKS = List.of(
            Map.entry("JVM and Spring Boot up", Pattern.compile("Starting SdrsServerApplication")),
            Map.entry("web server initialized", Pattern.compile("Tomcat initialized")),
            Map.entry("H2 pool started", Pattern.compile("HikariPool-\\d+ - Start completed")),
            Map.entry("Flyway checked the schema", Pattern.compile("Schema .* is up to date|Successfully applied")),
            Map.entry("Hibernate ready", Pattern.compile("Initialized JPA EntityManagerFactory")),
            Map.entry("P² rebuild started", Pattern.compile("rebuilding P² percentiles from")),
            Map.entry("P² windows rebuilt", Pattern.compile("rebuilt P² percentiles from")),
            Map.entry("agents' gRPC listening", Pattern.compile("agent gRPC service listening")),
            Map.entry("web server started", Pattern.compile("Tomcat started on port")),
            Map.entry("application started", Pattern.compile("Started SdrsServerApplication in")));
    /** What {@link ManagedProcess#restart} writes to the log. */
    private static final String RESTARTED = "---- restarted ----";
    private static final Pattern REBUILT = Pattern.compile("rebuilt P² percentiles from (\\d+) retained samples in (\\d+) ms");
    private static final Pattern TIMESTAMP = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+(?:Z|[+-]\\d\\d:\\d\\d))");

    @Option(names = "--disks", defaultValue = "1000", paramLabel = "N", description = "virtual disks (default ${DEFAULT-VALUE})")
    int disks;

    @Option(names = "--hours", defaultValue = "24", paramLabel = "H", description = "hours of 20-s windows (default ${DEFAULT-VALUE})")
    int hours;

    @Option(names = "--server-jvm", paramLabel = "OPTIONS",
            description = "the server JVM's options, space-separated (default: the Docker image's, -XX:MaxRAMPercentage=75)")
    String serverJvm;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "data dir and logs (emptied first); default target/b9 at the repository root")
    Path workDir;

    @Option(names = "--cds", negatable = true, defaultValue = "true",
            description = "also restart as the Docker image runs the server: the jar extracted, with an AppCDS archive"
                    + " (default ${DEFAULT-VALUE}; --no-cds: only java -jar)")
    boolean cds;

    @Option(names = "--csv", paramLabel = "FILE", description = "write the phases (phase, ms) to this CSV file")
    Path csv;

    /** One row of the table. */
    record Row(String phase, double ms, String note) {
    }

    @Override
    public Integer call() throws Exception {
        if (disks < 1) {
            throw new IllegalArgumentException("--disks must be ≥ 1, was " + disks);
        }
        if (hours < 1) {
            throw new IllegalArgumentException("--hours must be ≥ 1, was " + hours);
        }
        Path root = B4vCommand.repositoryRoot();
        Path fillJar = root.resolve(B4Command.JAR);
        Path serverJar = root.resolve("server/target/sdrs-server.jar");
        for (Path p : List.of(fillJar, serverJar)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException(p + " is not built: ./mvnw -B -q -pl src-test/ingest-bench -am package -DskipTests");
            }
        }
        Path dir = workDir != null ? workDir : root.resolve("target/b9");
        empty(dir);
        Path data = dir.resolve("data");
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        String java = ProcessHandle.current().info().command().orElse("java");
        long expected = (long) disks * (hours * 3600 / INTERVAL_SECONDS);
        List<Row> rows = new ArrayList<>();

        System.out.printf(Locale.ROOT, "B9: %d disks × %d h of 20-s windows (%d samples) into %s; logs in %s%n", disks, hours,
                expected, data, logs);
        long t = System.nanoTime();
        Process fill = new ProcessBuilder(java, "-Xmx4g", "-cp", fillJar.toString(), "io.opensdrs.bench.ingest.StatisticsDayFill",
                "--data-dir=" + data, "--disks=" + disks, "--hours=" + hours)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        if (fill.waitFor() != 0) {
            throw new IllegalStateException("the fill failed (exit " + fill.exitValue() + ")");
        }
        rows.add(new Row("fill (the server's ingestion, in-process)", ms(t), expected + " samples"));

        int http = freePort();
        int grpc = freePort();
        String password = UUID.randomUUID().toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(serverJvm == null ? VCenterStatisticsBenchmark.PRODUCTION_JVM : List.of(serverJvm.strip().split("\\s+")));
        cmd.addAll(List.of("-jar", serverJar.toString(), "--server.address=127.0.0.1", "--server.port=" + http,
                "--sdrs.grpc.port=" + grpc, "--sdrs.data-dir=" + data));
        ServerApi api = new ServerApi("http://127.0.0.1:" + http, "admin", password);
        Path log = logs.resolve("server.log");
        try (ManagedProcess server = ManagedProcess.start("server", cmd, Map.of("SDRS_ADMIN_PASSWORD", password), log)) {
            t = System.nanoTime();
            awaitHealthy(server, api);
            rows.add(new Row("first start (after the fill's clean stop) → healthy", ms(t), ""));
            server.awaitLine(REBUILT, Duration.ofMinutes(10));
            rows.add(new Row("first start → windows rebuilt", ms(t), ""));

            server.kill();
            rows.add(new Row("kill -9", 0, server.isAlive() ? "still alive" : "gone"));
            server.restart();
            measureRestart("java -jar", server, log, api, expected, rows);
            server.kill();
        }
        if (cds) {
            // as the Docker image runs it (docker/server.Dockerfile): the jar extracted, with an AppCDS
            // archive from a training run that stops once the context is refreshed; built once per image
            Path app = dir.resolve("cds");
            t = System.nanoTime();
            run(List.of(java, "-Djarmode=tools", "-jar", serverJar.toString(), "extract", "--destination", app.toString()), logs.resolve("cds-extract.log"));
            Path archive = app.resolve("sdrs-server.jsa");
            Path training = Files.createTempDirectory("sdrs-b9-cds-training-");
            run(List.of(java, "-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh", "-jar",
                    app.resolve("sdrs-server.jar").toString(), "--server.port=0", "--sdrs.grpc.port=0", "--sdrs.data-dir=" + training),
                    logs.resolve("cds-training.log"));
            rows.add(new Row("AppCDS archive (the image's build step, once)", ms(t), archive.getFileName().toString()));
            List<String> cdsCmd = new ArrayList<>(cmd);
            int jarAt = cdsCmd.indexOf("-jar");
            cdsCmd.set(jarAt + 1, app.resolve("sdrs-server.jar").toString());
            cdsCmd.add(jarAt, "-XX:SharedArchiveFile=" + archive);
            Path cdsLog = logs.resolve("server-cds.log");
            Files.writeString(cdsLog, RESTARTED + "\n");
            try (ManagedProcess server = ManagedProcess.start("server-cds", cdsCmd, Map.of("SDRS_ADMIN_PASSWORD", password), cdsLog)) {
                measureRestart("extracted jar + AppCDS, as the image", server, cdsLog, api, expected, rows);
                server.stop();
            }
        }

        System.out.println();
        System.out.printf(Locale.ROOT, "B9 — server restart after kill -9 with %d h of vCenter statistics for %d disks (embedded H2,"
                + " JVM %s, %d CPUs)%n", hours, disks, serverJvm == null ? String.join(" ", VCenterStatisticsBenchmark.PRODUCTION_JVM)
                : serverJvm, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-58s %10s  %s%n", "phase", "ms", "");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "%-58s %10.0f  %s%n", r.phase(), r.ms(), r.note());
        }
        if (csv != null) {
            Path parent = csv.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
                w.println("phase,ms,note,disks,hours");
                for (Row r : rows) {
                    w.printf(Locale.ROOT, "\"%s\",%.0f,\"%s\",%d,%d%n", r.phase(), r.ms(), r.note(), disks, hours);
                }
            }
            System.out.println("csv: " + csv);
        }
        // the goal is the shipped way's: the image's when measured, else the jar's
        Row healthy = rows.stream().filter(r -> r.phase().endsWith("/actuator/health 200")).reduce((a, b) -> b).orElseThrow();
        return healthy.ms() / 1000 <= GOAL_SECONDS ? 0 : 1;
    }

    /** From the (re)start just made until healthy and until the windows are rebuilt, with the start's phases. */
    private static void measureRestart(String how, ManagedProcess server, Path log, ServerApi api, long expected,
                                       List<Row> rows) throws IOException, InterruptedException {
        long launched = System.currentTimeMillis();
        long t = System.nanoTime();
        awaitHealthy(server, api);
        double healthy = ms(t);
        String rebuilt = afterRestart(server, log, REBUILT, Duration.ofMinutes(10));
        double windows = ms(t);
        Matcher m = REBUILT.matcher(rebuilt);
        if (!m.find()) {
            throw new IllegalStateException("no rebuild line: " + rebuilt);
        }
        long replayed = Long.parseLong(m.group(1));
        rows.add(new Row("restart after kill -9 (" + how + ")", 0, ""));
        rows.addAll(phases(sinceRestart(log), launched));
        rows.add(new Row("  → /actuator/health 200", healthy, healthy / 1000 <= GOAL_SECONDS ? "goal ≤ 10 s met" : "goal ≤ 10 s missed"));
        rows.add(new Row("  → windows rebuilt", windows, replayed + " samples replayed in " + m.group(2) + " ms"
                + (replayed == expected ? ", every filled sample once" : ", expected " + expected)));
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "); see " + log);
        }
    }

    /**
     * The start's phases from its log, in the order they came: each mark's time since the previous
     * mark, and since launch (the rebuild, on its own thread, may end after the start).
     */
    static List<Row> phases(String log, long launchedMs) {
        record Mark(String name, long at) {
        }
        List<Mark> found = new ArrayList<>();
        String[] lines = log.split("\n");
        for (Map.Entry<String, Pattern> mark : MARKS) {
            for (String line : lines) {
                if (mark.getValue().matcher(line).find()) {
                    Matcher ts = TIMESTAMP.matcher(line);
                    if (ts.find()) {
                        found.add(new Mark(mark.getKey(), OffsetDateTime.parse(ts.group(1)).toInstant().toEpochMilli()));
                    }
                    break;
                }
            }
        }
        found.sort(Comparator.comparingLong(Mark::at));
        List<Row> rows = new ArrayList<>();
        long previous = launchedMs;
        for (Mark m : found) {
            rows.add(new Row("  " + m.name(), m.at() - previous,
                    String.format(Locale.ROOT, "at %.1f s", (m.at() - launchedMs) / 1000.0)));
            previous = m.at();
        }
        return rows;
    }

    private static void awaitHealthy(ManagedProcess server, ServerApi api) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (api.openStatus("/actuator/health") != 200) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited; " + server.log() + " ends:\n" + server.tail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server was not healthy within 10 min; " + server.log() + " ends:\n"
                        + server.tail(40));
            }
            Thread.sleep(50);
        }
    }

    /** What the server logged since {@link ManagedProcess#restart} marked its log. */
    private static String sinceRestart(Path log) throws IOException {
        String text = Files.readString(log, StandardCharsets.UTF_8);
        return text.substring(Math.max(0, text.lastIndexOf(RESTARTED)));
    }

    /** The first match of {@code pattern} the server logged since its restart. */
    private static String afterRestart(ManagedProcess server, Path log, Pattern pattern, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher m = pattern.matcher(sinceRestart(log));
            if (m.find()) {
                return m.group();
            }
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited; its log ends:\n" + server.tail(40));
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the server logged no " + pattern + " within " + timeout);
    }

    private static double ms(long since) {
        return (System.nanoTime() - since) / 1e6;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void empty(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
    }
}
