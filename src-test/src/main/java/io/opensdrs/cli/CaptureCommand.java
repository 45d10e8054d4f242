package io.opensdrs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.capture.CapturedScenario;
import io.opensdrs.capture.ClusterComparison;
import io.opensdrs.capture.DeviceMatch;
import io.opensdrs.loop.ServerApi;
import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code sdrs capture}: writes what a server has observed of a datastore cluster as a scenario file
 * for the testbed: its datastores on the testbed devices nearest their fitted models, its hosts,
 * VMs and disks where they are now, and each disk's measured workload per UTC hour of the day.
 */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {"Write what the server has observed of a datastore cluster as a scenario file: datastores on the"
                + " testbed devices nearest their fitted models, hosts, VMs and disks, each disk's measured O, Z, R, X"
                + " and think time per UTC hour of the day.",
                "The password is read from --password-file or the environment variable SDRS_ADMIN_PASSWORD, never"
                        + " from the command line."})
public final class CaptureCommand implements Callable<Integer> {

    static final String PASSWORD_ENV = "SDRS_ADMIN_PASSWORD";

    @Option(names = "--server", required = true, paramLabel = "URL", description = "The server's base URL, e.g. http://127.0.0.1:8080")
    String server;
    @Option(names = "--cluster", required = true, paramLabel = "NAME", description = "The datastore cluster (its name, or its id)")
    String cluster;
    @Option(names = {"-o", "--out"}, required = true, paramLabel = "FILE", description = "The scenario file to write")
    Path out;
    @Option(names = "--user", defaultValue = "admin", description = "REST user (HTTP Basic); default ${DEFAULT-VALUE}")
    String user;
    @Option(names = "--password-file", paramLabel = "FILE", description = "A file holding the user's password (its first line)")
    Path passwordFile;
    @Option(names = "--name", paramLabel = "NAME", description = "The scenario's name (default: capture-CLUSTER)")
    String name;
    @Option(names = "--probe-ios", defaultValue = "800",
            description = "IOs measured per point when probing candidate devices; default ${DEFAULT-VALUE}")
    long probeIos;
    @Option(names = "--threads", description = "Threads probing devices (default: the machine's cores)")
    Integer threads;
    @Option(names = "--check-hours", paramLabel = "H",
            description = "Then run the written scenario in the testbed for H simulated hours and print each datastore's"
                    + " mean latency beside the server's")
    Double checkHours;
    @Option(names = "--last", paramLabel = "DURATION",
            description = "Only the windows starting within this span before the newest one (ISO-8601, e.g. PT1H); default: every retained window")
    Duration last;
    @Option(names = "--timeout", defaultValue = "PT5M", description = "How long the server may take to answer; default ${DEFAULT-VALUE}")
    Duration timeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The environment, replaceable by tests. */
    Map<String, String> env = System.getenv();

    @Override
    public Integer call() throws Exception {
        try {
            return capture();
        } catch (ServerApi.ApiException e) {
            spec.commandLine().getErr().println("error: the server refused: " + e.getMessage());
            return 1;
        } catch (java.net.ConnectException | java.net.http.HttpTimeoutException e) {
            spec.commandLine().getErr().println("error: cannot reach the server at " + server + ": " + e);
            return 1;
        }
    }

    private int capture() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String password = password();
        if (password == null) {
            err.println("error: no password: give --password-file FILE or set " + PASSWORD_ENV);
            return CliErrors.USER_ERROR;
        }
        if (probeIos < 50) {
            throw new IllegalArgumentException("--probe-ios must be at least 50");
        }
        ServerApi api = new ServerApi(server, user, password, timeout);
        String clusterId = null;
        List<String> known = new ArrayList<>();
        for (JsonNode c : api.get("/api/v1/clusters")) {
            known.add(c.path("name").asText());
            if (cluster.equals(c.path("name").asText()) || cluster.equals(c.path("id").asText())) {
                clusterId = c.path("id").asText();
            }
        }
        if (clusterId == null) {
            err.println("error: the server has no datastore cluster '" + cluster + "' (it has: " + String.join(", ", known) + ")");
            return 1;
        }
        long t0 = System.nanoTime();
        JsonNode capture = api.get("/api/v1/clusters/" + clusterId + "/capture" + (last != null ? "?last=" + last : ""));
        o.printf(Locale.ROOT, "captured %s (%s) from %s: %d datastores, %d hosts, %d VMs; %d of %d stored windows (%s .. %s) in %.1f s%n",
                capture.path("clusterName").asText(), clusterId, api.base(), capture.path("datastores").size(),
                capture.path("hosts").size(), capture.path("vms").size(), capture.path("windowsUsed").asLong(),
                capture.path("windowsRead").asLong(), capture.path("firstWindow").asText("-"), capture.path("lastWindow").asText("-"),
                (System.nanoTime() - t0) / 1e9);
        if (capture.path("datastores").isEmpty()) {
            err.println("error: cluster " + cluster + " has no datastore: nothing to capture");
            return 1;
        }

        int n = threads != null ? Math.max(1, threads) : Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        Map<String, DeviceMatch.Choice> devices = new LinkedHashMap<>();
        try {
            long t1 = System.nanoTime();
            DeviceMatch match = new DeviceMatch(probeIos, 1, pool);
            for (JsonNode d : capture.path("datastores")) {
                List<DeviceMatch.Target> targets = new ArrayList<>();
                // the device's own injector runs when the server has them (a model refitted to the datastore's mix
                // may no longer follow them), else the model's predictions for the same workloads
                JsonNode injected = d.path("model").path("injectorPoints");
                for (JsonNode p : injected.isArray() && !injected.isEmpty() ? injected : d.path("model").path("predictions")) {
                    if (p.path("latencyMs").isNumber()) {
                        targets.add(new DeviceMatch.Target(p.path("oio").asDouble(), p.path("ioSizeKb").asDouble(),
                                p.path("latencyMs").asDouble()));
                    }
                }
                List<io.opensdrs.scenario.DiskSpec> disks = new ArrayList<>();
                for (JsonNode vm : capture.path("vms")) {
                    for (JsonNode x : vm.path("disks")) {
                        if (x.path("datastore").asText().equals(d.path("name").asText())) {
                            disks.add(new io.opensdrs.scenario.DiskSpec("d" + disks.size(), Math.max(0.01, x.path("sizeBytes").asLong() / (double) (1L << 30)),
                                    "ds", true, io.opensdrs.capture.CapturedWorkload.of(x.path("overall"), x.path("hours"))));
                        }
                    }
                }
                JsonNode serverMs = d.path("current").path("meanLatencyMs");
                DeviceMatch.OperatingPoint op = serverMs.isNumber() ? new DeviceMatch.OperatingPoint(disks, serverMs.asDouble(), 0, null) : null;
                devices.put(d.path("name").asText(), match.choose(targets, d.path("capacityBytes").asLong(), op));
            }
            o.printf(Locale.ROOT, "devices: %d candidates probed at OIO 2-32, 4 and 256 KiB random reads, the near ones (each also with"
                            + " and without read and write-back caches) run with each datastore's disks, in %.1f s%n",
                    match.candidateList().size(), (System.nanoTime() - t1) / 1e9);
        } finally {
            pool.shutdownNow();
        }
        o.printf("%-24s %-18s %-22s %-54s %7s %5s %14s %15s%n", "datastore", "model", "parameters", "testbed device", "line",
                "runs", "server mean ms", "with its disks");
        for (JsonNode d : capture.path("datastores")) {
            DeviceMatch.Choice c = devices.get(d.path("name").asText());
            JsonNode p = d.path("model").path("parameters");
            JsonNode cur = d.path("current");
            DeviceMatch.OperatingPoint op = c.operatingPoint();
            o.printf(Locale.ROOT, "%-24s %-18s %-22s %-54s %6.1f%% %5s %14s %15s%n", d.path("name").asText(),
                    d.path("model").path("kind").asText() + "/" + d.path("model").path("source").asText(),
                    p.has("m") ? String.format(Locale.ROOT, "m %.3g C %.3g", p.get("m").asDouble(), p.path("C").asDouble()) : "-",
                    c.device().label(), 100 * c.relativeDistance(), op == null ? "-" : String.valueOf(op.shortlisted()),
                    cur.path("meanLatencyMs").isNumber() ? String.format(Locale.ROOT, "%.2f", cur.get("meanLatencyMs").asDouble()) : "no IO",
                    op == null || op.testbedMs() == null ? "-" : String.format(Locale.ROOT, "%.2f", op.testbedMs()));
        }

        String header = String.format(Locale.ROOT, "Captured by sdrs capture from cluster %s of %s at %s: windows %s .. %s (source %s).",
                capture.path("clusterName").asText(), api.base(), capture.path("capturedAt").asText(),
                capture.path("firstWindow").asText("-"), capture.path("lastWindow").asText("-"), capture.path("source").asText());
        CapturedScenario.Result built = CapturedScenario.build(capture, devices,
                CapturedScenarioNames.scenarioName(name, capture.path("clusterName").asText()), header);
        String json = CapturedScenario.toJson(built.scenario());
        Scenario loaded;
        try {
            loaded = ScenarioLoader.parse(json, out.toString());
        } catch (InvalidScenarioException e) {
            // what we write must load: a loader error here is a bug of this command
            err.println("error: the captured scenario does not load (a bug of sdrs capture): " + e.getMessage());
            return 1;
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, json, StandardCharsets.UTF_8);
        built.notes().forEach(x -> o.println("  note: " + x));
        capture.path("notes").forEach(x -> o.println("  server: " + x.asText()));
        o.printf("wrote %s: %d datastores, %d hosts, %d VMs, %d disks%n", out, loaded.datastores().size(), loaded.hosts().size(),
                loaded.vms().size(), loaded.diskCount());
        if (checkHours != null) {
            if (!(checkHours > 0)) {
                throw new IllegalArgumentException("--check-hours must be > 0");
            }
            ClusterComparison.compare(capture, loaded, checkHours).print(o);
        }
        o.flush();
        return 0;
    }

    private String password() throws java.io.IOException {
        if (passwordFile != null) {
            List<String> lines = Files.readAllLines(passwordFile, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "" : lines.get(0).strip();
        }
        String p = env.get(PASSWORD_ENV);
        return p == null || p.isEmpty() ? null : p;
    }

    /** The scenario's name: given, or capture-CLUSTER made to fit the format. */
    static final class CapturedScenarioNames {
        static String scenarioName(String given, String cluster) {
            String n = given != null ? given : "capture-" + cluster;
            n = n.replaceAll("[^A-Za-z0-9._-]", "-").replaceFirst("^[^A-Za-z0-9]+", "");
            n = n.isEmpty() ? "capture" : n;
            return n.length() > 80 ? n.substring(0, 80) : n;
        }
    }
}
