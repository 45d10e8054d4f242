package io.opensdrs.bench;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.loop.Govc;
import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.loop.ServerApi;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.vcenter.SimulatorInventory;
import io.opensdrs.testbed.vcenter.VcsimAdmin;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * B4v: the server reads every running VM's virtual-disk counters from vCenter's PerformanceManager,
 * here our vcsim as a process with a world of thousands of disks, and the real server jar as a
 * process connected to it, configured as in production but for the poll interval. Each period one
 * 20-s sample of every disk and host is published to the simulator's admin endpoint
 * ({@code POST /opensdrs/perf}) shortly before the server's next read starts; the benchmark then
 * watches the server's statistics endpoint until the reads since the publish have stored a window
 * of every disk, and takes the server's own read time ({@code lastReadMillis}), the time from the
 * publish until it saw them stored, and the server JVM's CPU time (utime + stime from /proc) over
 * the period. A few disks' stored windows are read back and compared with what was published.
 */
public final class VCenterStatisticsBenchmark implements AutoCloseable {
    private static final Pattern VCSIM_URL = Pattern.compile("VCSIM_URL=(\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VC_USER = "sdrs";
    private static final String VC_PASSWORD = "sdrs-b4v-pass";
    /** The JVM options of the server's Docker image (docker/server.Dockerfile). */
    public static final List<String> PRODUCTION_JVM = List.of("-XX:MaxRAMPercentage=75");
    static final int INTERVAL_SECONDS = 20;
    private static final long POLL_MILLIS = 100;
    private static final int[] IO_SIZES = {4096, 8192, 16384, 32768, 65536, 262144};

    /** What to run. */
    public record Settings(Path repositoryRoot, Path workDir, int periods, Duration period, Integer batchSize, Integer parallelCalls, long seed,
                           int checkDisks, List<String> serverJvm) {
        public Settings {
            serverJvm = List.copyOf(serverJvm);
        }

        /**
         * How long before the server's next read the sample is published, at least: a quarter period, at most
         * 2 s; longer when a POST took longer (twice the longest so far and 0.25 s, at most half a period), so
         * that the sample is in vCenter before the read starts.
         */
        public Duration lead() {
            return Duration.ofMillis(Math.min(2000, period.toMillis() / 4));
        }
    }

    /** The world and the processes, as set up before the first period. */
    public record Setup(String scenario, int disks, int vms, int scenarioVms, int generatedVms, int datastores, int clusters,
                        int hosts, Integer batchSize, Integer parallelCalls, Duration period, Duration lead, List<String> serverJvm,
                        double vcsimSetupSeconds, double serverStartSeconds, double inventorySeconds, int processors,
                        double loadAtStart) {
    }

    /**
     * One period: its sample published, stored by the server's read(s), and what that cost.
     *
     * @param reads                reads of the server that stored the sample's windows (1 unless the publish
     *                             overlapped a read)
     * @param publishSeconds       the POST to vcsim (body built before)
     * @param waitSeconds          from the end of the POST until the server's read started
     * @param publishToStored      from the start of the POST until the benchmark saw every window stored
     * @param serverReadMillis     the server's own duration of the read that completed the sample
     * @param readToSeen           from the start of that read until the benchmark saw it done
     * @param checked              disks whose newest stored window was read back; {@code checkedOk} matched
     * @param cycleSeconds         from this period's publish to the next one's (the server's read cycle)
     * @param serverCpuSeconds     the server JVM's CPU time over the cycle, less {@code serverCpuChecks}, what
     *                             answering the benchmark's read-back of a few disks' windows cost it;
     *                             {@code serverCpuInRead} from the publish until the sample was stored
     * @param vcsimCpuSeconds      the simulator's CPU time over the cycle; {@code vcsimCpuInRead} from the publish
     *                             (the POST included) until the sample was stored
     * @param failure              null when every window was stored and every checked disk matched
     */
    public record Period(int index, boolean warmUp, Instant sampleEnd, int windowsExpected, int windowsStored, int reads,
                         double publishSeconds, double waitSeconds, double publishToStored, long serverReadMillis,
                         double readToSeen, int checked, int checkedOk, double cycleSeconds, double serverCpuSeconds,
                         double serverCpuInRead, double vcsimCpuSeconds, double vcsimCpuInRead, double serverCpuChecks,
                         double load1, String failure) {
        public boolean ok() {
            return failure == null;
        }

        /** From the start of the POST until the server's read started. */
        public double leadSeconds() {
            return publishSeconds + waitSeconds;
        }

        public double serverCpuPercent() {
            return cycleSeconds <= 0 ? Double.NaN : 100 * serverCpuSeconds / cycleSeconds;
        }

        Period withCycle(double cycle, double serverCpu, double vcsimCpu) {
            return new Period(index, warmUp, sampleEnd, windowsExpected, windowsStored, reads, publishSeconds, waitSeconds,
                    publishToStored, serverReadMillis, readToSeen, checked, checkedOk, cycle, serverCpu, serverCpuInRead,
                    vcsimCpu, vcsimCpuInRead, serverCpuChecks, load1, failure);
        }
    }

    /** Every period (the warm-up first) and the faults the server listed at the end. */
    public record Result(Setup setup, List<Period> periods, List<String> activeFaults) {
        public List<Period> measured() {
            return periods.stream().filter(p -> !p.warmUp()).toList();
        }

        public boolean allStored() {
            return periods.stream().allMatch(Period::ok);
        }
    }

    /** A disk as vCenter knows it. */
    record VcDisk(String vmName, String vmMoid, int key, String host, String datastore) {
    }

    private final Settings settings;
    private final Consumer<String> progress;
    private final String adminPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private final List<ManagedProcess> processes = new ArrayList<>();
    private ManagedProcess vcsim;
    private ManagedProcess server;
    private Path serverData;
    private boolean closed;

    public VCenterStatisticsBenchmark(Settings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress;
    }

    /** Runs the whole benchmark on {@code made}'s world; the caller closes. */
    public Result run(B4vWorld.Made made) throws Exception {
        Scenario world = made.world();
        Files.createDirectories(settings.workDir());
        for (Path p : List.of(vcsimBinary(), serverJar())) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException(p + " is missing: build first (./mvnw -B -q -DskipTests package)");
            }
        }
        double load0 = loadAverage();
        // vCenter: the simulator with the world's inventory, every VM running
        Path inventory = SimulatorInventory.write(world, "DC0", settings.workDir().resolve("inventory.json"));
        Path dsRoot = settings.workDir().resolve("datastores");
        Files.createDirectories(dsRoot);
        progress.accept(String.format(Locale.ROOT, "starting vcsim with %d datastores, %d hosts, %d VMs, %d disks"
                        + " (the simulator builds each VM through its API: minutes for thousands)", world.datastores().size(),
                world.hosts().size(), world.vms().size(), made.disks()));
        long t0 = System.nanoTime();
        vcsim = track(ManagedProcess.start("vcsim", List.of(vcsimBinary().toString(), "-l", "127.0.0.1:0",
                "-inventory", inventory.toString(), "-ds-root", dsRoot.toString(),
                "-username", VC_USER, "-password", VC_PASSWORD), Map.of(), log("vcsim")));
        String vcsimUrl = vcsim.awaitLine(VCSIM_URL, Duration.ofSeconds(180 + world.vms().size() / 4));
        double vcsimSetup = seconds(t0);
        progress.accept(String.format(Locale.ROOT, "vcsim ready in %.1f s", vcsimSetup));
        List<VcDisk> disks = vcenterDisks(new Govc(settings.repositoryRoot(), vcsimUrl), world);
        if (disks.size() != made.disks()) {
            throw new IllegalStateException("vCenter has " + disks.size() + " disks of the world's VMs on its clusters' datastores,"
                    + " the world " + made.disks());
        }

        // the server, as deployed, connected to it
        long t1 = System.nanoTime();
        ServerApi api = startServer(vcsimUrl);
        double serverStart = seconds(t1);
        progress.accept(String.format(Locale.ROOT, "server healthy in %.1f s; waiting for its inventory sync to see every disk",
                serverStart));
        long t2 = System.nanoTime();
        String clusterId = awaitInventory(api, world, disks.size());
        double inventorySeconds = seconds(t2);
        progress.accept(String.format(Locale.ROOT, "the server's inventory holds all %d disks after %.1f s", disks.size(),
                inventorySeconds));

        Setup setup = new Setup(world.name(), made.disks(), world.vms().size(), made.scenarioVms(), made.generatedVms(),
                world.datastores().size(), world.datastoreClusters().size(), world.hosts().size(), settings.batchSize(), settings.parallelCalls(),
                settings.period(), settings.lead(), settings.serverJvm(), vcsimSetup, serverStart, inventorySeconds, Runtime.getRuntime().availableProcessors(), load0);
        List<Period> periods = measure(api, clusterId, new VcsimAdmin(vcsimUrl), disks, world);
        List<String> faults = new ArrayList<>();
        for (JsonNode f : api.get("/api/v1/clusters/" + clusterId + "/statistics").path("faults")) {
            if (f.path("active").asBoolean()) {
                faults.add(f.path("kind").asText() + " " + f.path("subject").asText() + ": " + f.path("detail").asText());
            }
        }
        return new Result(setup, periods, faults);
    }

    // ------------------------------------------------------------------ setup

    private Path vcsimBinary() {
        return settings.repositoryRoot().resolve("src-test/vcsim/target/vcsim");
    }

    private Path serverJar() {
        return settings.repositoryRoot().resolve("server/target/sdrs-server.jar");
    }

    private Path log(String name) {
        return settings.workDir().resolve("logs").resolve(name + ".log");
    }

    private ManagedProcess track(ManagedProcess p) {
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    /**
     * Every disk of the world's VMs on a cluster datastore as vCenter has it (VM moid, device key), read
     * with govc in one property collection: the backing file {@code [ds] vm/disk0.vmdk} is the world's disk.
     */
    static List<VcDisk> vcenterDisks(Govc govc, Scenario world) throws IOException, InterruptedException {
        String out = govc.run("object.collect", "-json", "-type", "m", "/", "name", "config.hardware.device");
        Map<String, String> moidByVm = new HashMap<>();
        Map<String, Integer> keyByFile = new HashMap<>();
        try (JsonParser p = JSON.getFactory().createParser(out);
             MappingIterator<JsonNode> it = JSON.readValues(p, JsonNode.class)) {
            while (it.hasNext()) {
                JsonNode o = it.next();
                String moid = o.path("obj").path("value").asText();
                String name = null;
                JsonNode devices = null;
                for (JsonNode c : o.path("changeSet")) {
                    if (c.path("name").asText().equals("name")) {
                        name = c.path("val").asText();
                    } else if (c.path("name").asText().equals("config.hardware.device")) {
                        devices = c.path("val").path("_value");
                    }
                }
                if (name == null || devices == null) {
                    continue;
                }
                moidByVm.put(name, moid);
                for (JsonNode d : devices) {
                    String file = d.path("backing").path("fileName").asText("");
                    if (d.has("capacityInKB") && file.endsWith(".vmdk")) {
                        keyByFile.put(name + "/" + file.substring(file.lastIndexOf('/') + 1).replaceFirst("(_\\d+)?\\.vmdk$", ""),
                                d.path("key").asInt());
                    }
                }
            }
        }
        Set<String> clustered = new HashSet<>();
        world.datastoreClusters().forEach(c -> clustered.addAll(c.datastores()));
        List<VcDisk> disks = new ArrayList<>();
        for (VmSpec vm : world.vms()) {
            String moid = moidByVm.get(vm.name());
            if (moid == null) {
                throw new IllegalStateException("vCenter has no VM " + vm.name());
            }
            for (DiskSpec d : vm.disks()) {
                Integer key = keyByFile.get(vm.name() + "/" + d.name());
                if (key == null) {
                    throw new IllegalStateException("vCenter has no disk " + d.name() + " of VM " + vm.name());
                }
                if (clustered.contains(d.datastore())) {
                    disks.add(new VcDisk(vm.name(), moid, key, vm.host(), d.datastore()));
                }
            }
        }
        return disks;
    }

    private ServerApi startServer(String vcsimUrl) throws Exception {
        URI u = URI.create(vcsimUrl);
        String sdk = u.getScheme() + "://" + u.getHost() + ":" + u.getPort() + u.getPath();
        int http = freePort();
        int grpc = freePort();
        serverData = Files.createTempDirectory("sdrs-b4v-data-");
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(settings.serverJvm());
        cmd.addAll(List.of("-jar", serverJar().toString(),
                "--server.address=127.0.0.1", "--server.port=" + http, "--sdrs.grpc.port=" + grpc,
                "--sdrs.data-dir=" + serverData,
                "--sdrs.vcenter.url=" + sdk, "--sdrs.vcenter.user=" + VC_USER, "--sdrs.vcenter.password=" + VC_PASSWORD,
                "--sdrs.vcenter.insecure=true",
                "--sdrs.stats.vcenter.poll-interval=" + settings.period()));
        if (settings.batchSize() != null) {
            cmd.add("--sdrs.stats.vcenter.batch-size=" + settings.batchSize());
        }
        if (settings.parallelCalls() != null) {
            cmd.add("--sdrs.stats.vcenter.parallel-calls=" + settings.parallelCalls());
        }
        progress.accept("starting the server (embedded H2 in " + serverData + ", JVM " + String.join(" ", settings.serverJvm())
                + ") on http://127.0.0.1:" + http);
        server = track(ManagedProcess.start("server", cmd, Map.of("SDRS_ADMIN_PASSWORD", adminPassword), log("server")));
        ServerApi api = new ServerApi("http://127.0.0.1:" + http, "admin", adminPassword);
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (api.openStatus("/actuator/health") != 200) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited; " + server.log() + " ends:\n" + server.tail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server was not healthy within 5 min; " + server.log() + " ends:\n"
                        + server.tail(40));
            }
            Thread.sleep(250);
        }
        return api;
    }

    /** Until the server's inventory holds every disk of the clusters' datastores; answers a cluster's id. */
    private String awaitInventory(ServerApi api, Scenario world, int expected) throws Exception {
        List<String> datastores = world.datastoreClusters().stream().flatMap(c -> c.datastores().stream()).toList();
        long started = System.nanoTime();
        long deadline = started + Duration.ofMinutes(10).toNanos();
        long lastNote = started;
        while (true) {
            JsonNode clusters = api.get("/api/v1/clusters");
            int seen = 0;
            if (clusters.size() == world.datastoreClusters().size()) {
                for (String ds : datastores) {
                    seen += api.get("/api/v1/disks?limit=10000&datastore=" + ds).size();
                }
                if (seen == expected) {
                    return clusters.get(0).path("id").asText();
                }
            }
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited; " + server.log() + " ends:\n" + server.tail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server's inventory held " + seen + " of " + expected + " disks after 10 min");
            }
            if (System.nanoTime() - lastNote > 15e9) {
                lastNote = System.nanoTime();
                progress.accept(String.format(Locale.ROOT, "  ... %d of %d disks in the server's inventory (%d s)", seen,
                        expected, (lastNote - started) / 1_000_000_000));
            }
            Thread.sleep(1000);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    // ------------------------------------------------------------------ periods

    /** The server's read loop as its statistics endpoint shows it. */
    private record ReadStatus(Instant readAt, long readMillis, Duration nextReadIn, int windows, Instant newestSample) {
        Instant nextStart() {
            return readAt.plusMillis(readMillis).plus(nextReadIn);
        }
    }

    private static ReadStatus status(ServerApi api, String clusterId) throws IOException, InterruptedException {
        JsonNode s = api.get("/api/v1/clusters/" + clusterId + "/statistics");
        String at = s.path("lastReadAt").asText(null);
        String next = s.path("nextReadIn").asText(null);
        String newest = s.path("newestSample").asText(null);
        return new ReadStatus(at == null ? null : Instant.parse(at), s.path("lastReadMillis").asLong(),
                next == null ? Duration.ZERO : Duration.parse(next), s.path("lastReadWindows").asInt(),
                newest == null ? null : Instant.parse(newest));
    }

    private List<Period> measure(ServerApi api, String clusterId, VcsimAdmin admin, List<VcDisk> disks, Scenario world)
            throws Exception {
        Duration lead = settings.lead();
        double longestPost = 0;
        Instant firstEnd = Instant.now().truncatedTo(ChronoUnit.MINUTES)
                .minusSeconds((long) INTERVAL_SECONDS * (settings.periods() + 3));
        List<VcDisk> check = checkDisks(disks, settings.checkDisks());
        List<Period> done = new ArrayList<>();
        double cycleStartNanos = 0;
        double serverCpuAtStart = 0;
        double vcsimCpuAtStart = 0;
        for (int p = 0; p <= settings.periods(); p++) {
            Instant end = firstEnd.plusSeconds((long) INTERVAL_SECONDS * p);
            Sample sample = sample(disks, end, p);
            ReadStatus before = awaitPublishSlot(api, clusterId, lead);
            sleepUntil(before.nextStart().minus(lead));
            long publishStart = System.nanoTime();
            double serverCpu = cpuSeconds(server.pid());
            double vcsimCpu = cpuSeconds(vcsim.pid());
            double load = loadAverage();
            if (p > 0) {
                Period prev = done.remove(done.size() - 1);
                done.add(prev.withCycle((publishStart - cycleStartNanos) / 1e9,
                        serverCpu - serverCpuAtStart - prev.serverCpuChecks(), vcsimCpu - vcsimCpuAtStart));
            }
            cycleStartNanos = publishStart;
            serverCpuAtStart = serverCpu;
            vcsimCpuAtStart = vcsimCpu;
            HttpResponse<String> r = admin.post("/opensdrs/perf", "application/json", sample.body());
            long publishEnd = System.nanoTime();
            longestPost = Math.max(longestPost, (publishEnd - publishStart) / 1e9);
            lead = Duration.ofMillis(Math.min(settings.period().toMillis() / 2,
                    Math.max(settings.lead().toMillis(), Math.round(2000 * longestPost) + 250)));
            if (r.statusCode() / 100 != 2) {
                done.add(new Period(p, p == 0, end, disks.size(), 0, 0, (publishEnd - publishStart) / 1e9, Double.NaN,
                        Double.NaN, 0, Double.NaN, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, load,
                        "vcsim refused the sample: HTTP " + r.statusCode() + " " + r.body()));
                continue;
            }
            // the reads after `before` store the sample; wait for the next to start before asking
            sleepUntil(before.nextStart());
            int stored = 0;
            int reads = 0;
            Instant lastSeen = before.readAt();
            Instant firstReadAt = null;
            ReadStatus last = before;
            long seenAt = 0;
            long readDeadline = System.nanoTime() + 3 * (settings.period().toNanos() + Duration.ofSeconds(60).toNanos());
            String failure = null;
            while (true) {
                ReadStatus s = status(api, clusterId);
                if (!s.readAt().equals(lastSeen)) {
                    lastSeen = s.readAt();
                    reads++;
                    stored += s.windows();
                    last = s;
                    if (firstReadAt == null) {
                        firstReadAt = s.readAt();
                    }
                    if (stored >= disks.size()) {
                        seenAt = System.nanoTime();
                        break;
                    }
                    if (reads >= 3) {
                        failure = "only " + stored + " of " + disks.size() + " windows stored in " + reads + " reads";
                        break;
                    }
                }
                if (!server.isAlive()) {
                    throw new IllegalStateException("the server exited; " + server.log() + " ends:\n" + server.tail(40));
                }
                if (System.nanoTime() > readDeadline) {
                    failure = "only " + stored + " of " + disks.size() + " windows stored in " + reads
                            + " reads, none more before the time-out";
                    break;
                }
                Thread.sleep(POLL_MILLIS);
            }
            double cpuInRead = cpuSeconds(server.pid()) - serverCpu;
            double vcsimInRead = cpuSeconds(vcsim.pid()) - vcsimCpu;
            long seen = seenAt == 0 ? System.nanoTime() : seenAt;
            double readToSeen = last == before ? Double.NaN : (epochMillisAt(seen) - last.readAt().toEpochMilli()) / 1000.0;
            double checksCpu = cpuSeconds(server.pid());
            int ok = 0;
            List<String> wrong = new ArrayList<>();
            for (VcDisk d : check) {
                JsonNode w = api.get("/api/v1/disks/" + d.vmMoid() + "/" + d.key() + "/windows?limit=1");
                long reads20 = sample.readsPerSecond().get(d.vmMoid() + "/" + d.key()) * INTERVAL_SECONDS;
                if (w.size() == 1 && Instant.parse(w.get(0).path("windowEnd").asText()).equals(end)
                        && w.get(0).path("reads").asLong() == reads20) {
                    ok++;
                } else {
                    wrong.add(d.vmName() + " disk " + d.key() + ": " + (w.isEmpty() ? "no window" : w.get(0).toString()));
                }
            }
            checksCpu = cpuSeconds(server.pid()) - checksCpu;
            if (failure == null && !wrong.isEmpty()) {
                failure = wrong.size() + " of " + check.size() + " disks read back differ from the sample ending " + end
                        + " (reads " + "× 20 s expected): " + wrong.get(0);
            }
            double waitSeconds = firstReadAt == null ? Double.NaN
                    : (firstReadAt.toEpochMilli() - epochMillisAt(publishEnd)) / 1000.0;
            done.add(new Period(p, p == 0, end, disks.size(), stored, reads, (publishEnd - publishStart) / 1e9, waitSeconds,
                    (seen - publishStart) / 1e9, last == before ? 0 : last.readMillis(), readToSeen, check.size(), ok,
                    Double.NaN, Double.NaN, cpuInRead, Double.NaN, vcsimInRead, checksCpu, load, failure));
            progress.accept(String.format(Locale.ROOT, "  %s: %d of %d windows stored, server read %.2f s, publish→stored %.2f s%s",
                    p == 0 ? "warm-up" : "period " + p, stored, disks.size(), (last == before ? 0 : last.readMillis()) / 1000.0,
                    (seen - publishStart) / 1e9, failure == null ? "" : " — " + failure));
        }
        // the last period's cycle ends where the next publish would start
        ReadStatus after = awaitPublishSlot(api, clusterId, lead);
        sleepUntil(after.nextStart().minus(lead));
        long endNanos = System.nanoTime();
        Period prev = done.remove(done.size() - 1);
        done.add(prev.withCycle((endNanos - cycleStartNanos) / 1e9,
                cpuSeconds(server.pid()) - serverCpuAtStart - prev.serverCpuChecks(), cpuSeconds(vcsim.pid()) - vcsimCpuAtStart));
        return done;
    }

    /** The wall clock (epoch ms) at a System.nanoTime() instant in the past. */
    private static long epochMillisAt(long nanos) {
        return System.currentTimeMillis() - (System.nanoTime() - nanos) / 1_000_000;
    }

    /**
     * The status of the read before the one the next sample should land before: its next read starts
     * far enough ahead to publish {@code lead} before it; otherwise the one after.
     */
    private ReadStatus awaitPublishSlot(ServerApi api, String clusterId, Duration lead) throws Exception {
        long deadline = System.nanoTime() + 3 * (settings.period().toNanos() + Duration.ofSeconds(60).toNanos());
        Instant skip = null;
        while (true) {
            ReadStatus s = status(api, clusterId);
            if (s.readAt() != null && !s.readAt().equals(skip)) {
                if (Instant.now().plus(Duration.ofMillis(POLL_MILLIS)).isBefore(s.nextStart().minus(lead))) {
                    return s;
                }
                skip = s.readAt(); // too late for this one: the read after it
            }
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited; " + server.log() + " ends:\n" + server.tail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server made no read of vCenter's counters for "
                        + 3 * (settings.period().toSeconds() + 60) + " s; " + server.log() + " ends:\n" + server.tail(20));
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static void sleepUntil(Instant t) throws InterruptedException {
        long ms = Duration.between(Instant.now(), t).toMillis();
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }

    private static List<VcDisk> checkDisks(List<VcDisk> disks, int n) {
        List<VcDisk> pick = new ArrayList<>();
        if (n <= 0 || disks.isEmpty()) {
            return pick;
        }
        int k = Math.min(n, disks.size());
        for (int i = 0; i < k; i++) {
            pick.add(disks.get((int) ((long) i * disks.size() / k)));
        }
        return pick;
    }

    // ------------------------------------------------------------------ samples

    /** One period's body for the simulator, and each disk's read rate in it (for the read-back). */
    record Sample(String body, Map<String, Long> readsPerSecond) {
    }

    /**
     * One 20-s sample of every disk (the 15 virtualDisk counters the server reads) and of every host's
     * IO per datastore (the datastore counters: its disks' totals), plausible and different per disk and
     * period, drawn from the seed.
     */
    Sample sample(List<VcDisk> disks, Instant end, int period) {
        StringBuilder b = new StringBuilder(disks.size() * 700);
        b.append("{\"timestamp\":\"").append(end).append("\",\"interval\":").append(INTERVAL_SECONDS).append(",\"vms\":[");
        Map<String, Long> reads = new HashMap<>();
        Map<String, Map<String, long[]>> hostTotals = new LinkedHashMap<>(); // host → datastore → reads, writes, Σr·ms, Σw·ms
        String vm = null;
        for (int i = 0; i < disks.size(); i++) {
            VcDisk d = disks.get(i);
            SplittableRandom r = new SplittableRandom(settings.seed() ^ (period * 0x9E3779B97F4A7C15L) ^ (i * 0xC2B2AE3D27D4EB4FL));
            long readIops = 1 + r.nextInt(400);
            long writeIops = r.nextInt(250);
            long readUs = 150 + r.nextInt(25_000);
            long writeUs = 100 + r.nextInt(15_000);
            long readSize = IO_SIZES[r.nextInt(IO_SIZES.length)];
            long writeSize = IO_SIZES[r.nextInt(IO_SIZES.length)];
            long commands = (readIops + writeIops) * INTERVAL_SECONDS;
            double random = r.nextDouble();
            long far = Math.round(commands * random);
            long medium = Math.round(far * r.nextDouble());
            if (!d.vmMoid().equals(vm)) {
                if (vm != null) {
                    b.append("]},");
                }
                vm = d.vmMoid();
                b.append("{\"vm\":\"").append(vm).append("\",\"disks\":[");
            } else {
                b.append(',');
            }
            b.append("{\"key\":").append(d.key()).append(",\"counters\":{");
            counter(b, "numberReadAveraged.average", readIops, true);
            counter(b, "numberWriteAveraged.average", writeIops, false);
            counter(b, "totalReadLatency.average", Math.round(readUs / 1000.0), false);
            counter(b, "totalWriteLatency.average", Math.round(writeUs / 1000.0), false);
            counter(b, "readLatencyUS.latest", readUs, false);
            counter(b, "writeLatencyUS.latest", writeUs, false);
            counter(b, "readOIO.latest", Math.round(readIops * readUs / 1e6), false);
            counter(b, "writeOIO.latest", Math.round(writeIops * writeUs / 1e6), false);
            counter(b, "read.average", readIops * readSize / 1024, false);
            counter(b, "write.average", writeIops * writeSize / 1024, false);
            counter(b, "readIOSize.latest", readSize, false);
            counter(b, "writeIOSize.latest", writeSize, false);
            counter(b, "smallSeeks.latest", commands - far, false);
            counter(b, "mediumSeeks.latest", medium, false);
            counter(b, "largeSeeks.latest", far - medium, false);
            b.append("}}");
            reads.put(d.vmMoid() + "/" + d.key(), readIops);
            long[] t = hostTotals.computeIfAbsent(d.host(), h -> new LinkedHashMap<>())
                    .computeIfAbsent(d.datastore(), ds -> new long[4]);
            t[0] += readIops;
            t[1] += writeIops;
            t[2] += readIops * readUs;
            t[3] += writeIops * writeUs;
        }
        if (vm != null) {
            b.append("]}");
        }
        b.append("],\"hosts\":[");
        boolean firstHost = true;
        for (Map.Entry<String, Map<String, long[]>> h : hostTotals.entrySet()) {
            b.append(firstHost ? "" : ",").append("{\"host\":\"").append(h.getKey()).append("\",\"datastores\":[");
            firstHost = false;
            boolean firstDs = true;
            for (Map.Entry<String, long[]> ds : h.getValue().entrySet()) {
                long[] t = ds.getValue();
                b.append(firstDs ? "" : ",").append("{\"datastore\":\"").append(ds.getKey()).append("\",\"counters\":{");
                firstDs = false;
                b.append("\"datastore.numberReadAveraged.average\":").append(t[0]);
                b.append(",\"datastore.numberWriteAveraged.average\":").append(t[1]);
                b.append(",\"datastore.datastoreIops.average\":").append(t[0] + t[1]);
                b.append(",\"datastore.totalReadLatency.average\":").append(t[0] == 0 ? 0 : Math.round(t[2] / 1000.0 / t[0]));
                b.append(",\"datastore.totalWriteLatency.average\":").append(t[1] == 0 ? 0 : Math.round(t[3] / 1000.0 / t[1]));
                b.append("}}");
            }
            b.append("]}");
        }
        b.append("]}");
        return new Sample(b.toString(), reads);
    }

    private static void counter(StringBuilder b, String name, long value, boolean first) {
        b.append(first ? "" : ",").append("\"virtualDisk.").append(name).append("\":").append(value);
    }

    // ------------------------------------------------------------------ measurement

    private static final double CLOCK_TICKS = clockTicks();

    private static double clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 ? Double.parseDouble(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }

    /** A process's CPU time (user + system) in seconds, from /proc/PID/stat. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count from after it
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / CLOCK_TICKS; // utime, stime: fields 14, 15
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    /** Stops the server and the simulator (SIGTERM, SIGKILL after a grace) and removes the server's data. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<ManagedProcess> all;
        synchronized (processes) {
            all = new ArrayList<>(processes);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            all.get(i).stop();
        }
        if (serverData != null) {
            try (Stream<Path> files = Files.walk(serverData)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                progress.accept("could not remove the server's data in " + serverData + ": " + e.getMessage());
            }
        }
    }

    /** The processes started (for checks that none is left). */
    public List<ManagedProcess> processes() {
        synchronized (processes) {
            return List.copyOf(processes);
        }
    }
}
