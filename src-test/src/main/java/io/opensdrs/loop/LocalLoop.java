package io.opensdrs.loop;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.vcenter.SimulatorInventory;
import io.opensdrs.testbed.vcenter.SimulatorStorageDrs;
import io.opensdrs.testbed.vcenter.PerformancePublisher;
import io.opensdrs.testbed.vcenter.VcsimAdmin;
import io.opensdrs.testbed.vscsi.PacedWorld;
import io.opensdrs.testbed.vscsi.VScsiServer;
import io.opensdrs.testbed.world.World;
import io.opensdrs.shared.vscsi.v1.AddDatastoreRequest;
import io.opensdrs.shared.vscsi.v1.SetWorkloadRequest;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The whole loop on this machine, every part a real process except the storage testbed: our
 * vCenter simulator (vcsim) with the scenario's inventory, the testbed's paced world and its
 * vSCSI service in this JVM, the management server, and one host agent per host. The demo and
 * the system tests start it; {@link #close()} stops everything it started, in reverse order.
 *
 * <p>The world's VMs start quiet: every disk's workload is set to zero outstanding IOs so
 * that the agents find their datastores idle and run the injector (Pesto §5.1 models an idle
 * datastore); {@link #startVmIo()} then gives every disk the workload the scenario gives it.
 */
public final class LocalLoop implements AutoCloseable {
    private static final Pattern VCSIM_URL = Pattern.compile("VCSIM_URL=(\\S+)");
    private static final String VC_USER = "sdrs";
    private static final String VC_PASSWORD = "sdrs-demo-pass";
    /** The longest a copied relocation waits in vcsim for the testbed's copy (it is released as soon as that is done). */
    private static final String RELOCATE_HOLD = "15m";
    /** The agents' cap on IOs per injector level (their {@code --level-max-ios}). */
    static final long INJECTOR_LEVEL_MAX_IOS = 2048;

    /**
     * What to start and how fast.
     *
     * @param hostsWithoutAgent hosts whose agent is not started (their VMs' IO reaches the server only
     *     through vCenter's counters, as on a host an administrator never gave an agent)
     */
    public record Settings(Path repositoryRoot, Path workDir, double speed, int relocateRateMbps,
                           Duration agentPeriod, Duration levelDuration, Database database,
                           java.util.Set<String> hostsWithoutAgent, int calibrationPointsPerRun) {
        public Settings {
            hostsWithoutAgent = java.util.Set.copyOf(hostsWithoutAgent);
        }

        /**
         * 30× the wall clock; the agents' heartbeat period 0.25 s (7.5 s simulated, a real host's is
         * 4 s: with 1-s periods the datastore-add protocol alone spent 2-3 simulated minutes at 40×),
         * injector levels of 0.3 s; no Romano calibration (see {@link #withRomanoCalibration}).
         */
        public static Settings defaults(Path repositoryRoot, Path workDir) {
            return new Settings(repositoryRoot, workDir, 30, 2048, Duration.ofMillis(250), Duration.ofMillis(300),
                    Database.H2, java.util.Set.of(), 0);
        }

        public Settings withSpeed(double s) {
            return new Settings(repositoryRoot, workDir, s, relocateRateMbps, agentPeriod, levelDuration, database,
                    hostsWithoutAgent, calibrationPointsPerRun);
        }

        public Settings withDatabase(Database d) {
            return new Settings(repositoryRoot, workDir, speed, relocateRateMbps, agentPeriod, levelDuration, d,
                    hostsWithoutAgent, calibrationPointsPerRun);
        }

        public Settings withoutAgentOn(String... hosts) {
            return new Settings(repositoryRoot, workDir, speed, relocateRateMbps, agentPeriod, levelDuration, database,
                    java.util.Set.of(hosts), calibrationPointsPerRun);
        }

        /**
         * The agents also run Romano's calibration design, this many points per idle period (their
         * {@code --calibration-points-per-run}; the agent's own default is on). A loop leaves it off
         * unless it asks: every emulated injector IO holds the whole world's simulated time
         * ({@code PacedWorld}), so 150 points on each idle datastore would stall every other
         * datastore's VM IO for minutes of wall clock, which a real datastore's calibration does not.
         */
        public Settings withRomanoCalibration(int pointsPerRun) {
            return new Settings(repositoryRoot, workDir, speed, relocateRateMbps, agentPeriod, levelDuration, database,
                    hostsWithoutAgent, pointsPerRun);
        }
    }

    /** The server's database: embedded H2 in the work directory, or a PostgreSQL server. */
    public record Database(String jdbcUrl, String user, String password) {
        public static final Database H2 = new Database(null, null, null);

        boolean isPostgres() {
            return jdbcUrl != null;
        }
    }

    private final Scenario scenario;
    /** The server's percentile windows in simulated time (the longest is what a balancing run reads). */
    public static final String STATS_WINDOWS = "PT2M,PT4M";
    /** 20-s windows of VM IO after which the longest stats window holds only them (4 min / 20 s). */
    public static final int WINDOWS_TO_FILL_STATS = 12;

    private final Settings settings;
    private final Consumer<String> progress;
    private final List<ManagedProcess> processes = new ArrayList<>();
    private final Map<String, ManagedProcess> agents = new LinkedHashMap<>();
    private final Map<String, String> agentTokens = new LinkedHashMap<>();
    /** Datastores added while the loop runs, with the hosts that see them. */
    private final Map<String, List<String>> added = new LinkedHashMap<>();
    private static final com.fasterxml.jackson.databind.ObjectMapper SPEC_JSON = new com.fasterxml.jackson.databind.ObjectMapper()
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);
    private final String adminPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private ManagedProcess vcsim;
    private ManagedProcess server;
    private String vcsimUrl;
    private Govc govc;
    private VScsiServer vscsi;
    private ManagedChannel vscsiChannel;
    private PerformancePublisher publisher;
    private ServerApi api;
    private int httpPort;
    private int grpcPort;
    private PlacementFollower follower;
    private boolean closed;

    public LocalLoop(Scenario scenario, Settings settings, Consumer<String> progress) {
        this.scenario = scenario;
        this.settings = settings;
        this.progress = progress;
    }

    /** Starts everything; on failure stops what it started and throws with the relevant log's tail. */
    public LocalLoop start() throws Exception {
        try {
            Files.createDirectories(settings.workDir());
            requireArtifacts();
            startVcsim();
            startTestbed();
            startServer();
            for (var h : scenario.hosts()) {
                if (!settings.hostsWithoutAgent().contains(h.name())) {
                    startAgent(h.name());
                }
            }
            follower = new PlacementFollower(scenario, api, vscsiChannel, new VcsimAdmin(vcsimUrl), progress);
            follower.start();
            return this;
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    private void requireArtifacts() {
        for (Path p : List.of(vcsimBinary(), serverJar(), agentJar())) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException(p + " is missing: build first (./mvnw -B -q -DskipTests package)");
            }
        }
    }

    Path vcsimBinary() {
        return settings.repositoryRoot().resolve("src-test/vcsim/target/vcsim");
    }

    Path serverJar() {
        return settings.repositoryRoot().resolve("server/target/sdrs-server.jar");
    }

    Path agentJar() {
        return settings.repositoryRoot().resolve("host-agent/target/sdrs-host-agent.jar");
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private void startVcsim() throws Exception {
        Path inventory = SimulatorInventory.write(scenario, "DC0", settings.workDir().resolve("inventory.json"));
        Path dsRoot = datastoreRoot();
        Files.createDirectories(dsRoot);
        progress.accept("starting vcsim (our vCenter simulator) with " + scenario.datastores().size() + " datastores, "
                + scenario.vms().size() + " VMs; datastores under " + dsRoot);
        vcsim = track(ManagedProcess.start("vcsim", List.of(vcsimBinary().toString(), "-l", "127.0.0.1:0",
                "-inventory", inventory.toString(), "-ds-root", dsRoot.toString(),
                "-relocate-rate-mbps", Integer.toString(settings.relocateRateMbps()),
                // a relocation completes in vCenter when the testbed's copy is done (PlacementFollower)
                "-relocate-hold", RELOCATE_HOLD,
                "-username", VC_USER, "-password", VC_PASSWORD), Map.of(), log("vcsim")));
        vcsimUrl = vcsim.awaitLine(VCSIM_URL, Duration.ofSeconds(60));
        govc = new Govc(settings.repositoryRoot(), vcsimUrl);
        progress.accept("vcsim at " + sdkUrl());
        int made = SimulatorStorageDrs.commands(scenario).size();
        if (made > 0) {
            SimulatorStorageDrs.apply(vcsimBinary(), vcsimUrl, scenario);
            progress.accept("vCenter holds the scenario's Storage DRS rules and VM settings (" + made + ", made with vcsim sdrs-rule)");
        }
    }

    /** The simulator's SDK URL without credentials. */
    public String sdkUrl() {
        URI u = URI.create(vcsimUrl);
        return u.getScheme() + "://" + u.getHost() + ":" + u.getPort() + u.getPath();
    }

    private void startTestbed() throws Exception {
        // The scenario's timed events (maintenance, datastore added) are the tests' to drive through
        // the server: the testbed only follows what vCenter does, so it runs the world without them.
        Scenario quiet = new Scenario(scenario.name(), scenario.description(), scenario.seed(), scenario.hours(),
                scenario.datastoreClusters(), scenario.datastores(), scenario.hosts(), scenario.vms(), scenario.rules(),
                List.of());
        PacedWorld paced = new PacedWorld(World.build(quiet), settings.speed(), scenario.seed());
        vscsi = VScsiServer.start(paced, 0);
        vscsiChannel = NettyChannelBuilder.forTarget(vscsi.target()).usePlaintext().build();
        setAllWorkloads(true);
        Map<String, Integer> keys = vcenterDiskKeys();
        publisher = new PerformancePublisher(paced, vcsimUrl, keys).start();
        progress.accept("testbed: " + scenario.datastores().size() + " emulated datastores paced at " + settings.speed()
                + "x wall clock, vSCSI service at " + vscsi.target() + " (VM IO paused until every datastore has a model);"
                + " each 20-s window of its " + keys.size() + " disks goes to vCenter's performance counters");
    }

    /**
     * The device key vCenter gave each of the scenario's disks ("vm/disk" → key), read from vCenter
     * with govc: the backing file "[ds] vm/data.vmdk" is the scenario's disk "data" of VM "vm".
     */
    private Map<String, Integer> vcenterDiskKeys() throws IOException, InterruptedException {
        Map<String, Integer> keys = new LinkedHashMap<>();
        for (VmSpec vm : scenario.vms()) {
            JsonNode devices = SPEC_JSON.readTree(govc.run("device.info", "-vm", vm.name(), "-json", "disk-*")).path("devices");
            for (JsonNode d : devices) {
                String file = d.path("backing").path("fileName").asText();
                String base = file.substring(file.lastIndexOf('/') + 1).replaceFirst("(_\\d+)?\\.vmdk$", "");
                keys.put(vm.name() + "/" + base, d.path("key").asInt());
            }
        }
        return keys;
    }

    /** What the testbed has published to vCenter's performance counters: windows delivered, and refused or lost. */
    public String publishedStatistics() {
        return publisher == null ? "none" : publisher.published() + " windows published, " + publisher.failed()
                + " not" + (publisher.lastFailure() == null ? "" : " (last: " + publisher.lastFailure() + ")");
    }

    private void setAllWorkloads(boolean quiet) {
        VScsiGrpc.VScsiBlockingStub stub = VScsiGrpc.newBlockingStub(vscsiChannel);
        for (VmSpec vm : scenario.vms()) {
            for (int i = 0; i < vm.disks().size(); i++) {
                DiskSpec d = vm.disks().get(i);
                WorkloadSpec w = d.workload();
                if (w == null) {
                    continue;
                }
                stub.setWorkload(SetWorkloadRequest.newBuilder().setVm(vm.name()).setDiskKey(PacedWorld.FIRST_DISK_KEY + i)
                        .setOio(quiet ? 0 : w.oio()).setIoSizeKb(w.ioSizeKB()).setReadPct(w.readPct())
                        .setRandomPct(w.randomPct()).setThinkTimeMs(w.thinkTimeMs() == null ? 0 : w.thinkTimeMs()).build());
            }
        }
    }

    /**
     * Every VM disk starts the workload the scenario gives it — named, in its statistics, as vCenter
     * names it ({@link #nameDisksAsVcenter}).
     */
    public void startVmIo() throws IOException, InterruptedException {
        nameDisksAsVcenter();
        setAllWorkloads(false);
    }

    /**
     * The testbed reports each disk's statistics under vCenter's identity — the VM's managed object
     * id and the disk's device key, as a real host's vSCSI layer would — matched through the
     * server's inventory by backing file ("[ds] vm/data.vmdk" is the scenario's disk "data").
     * Without it the statistics name the scenario's VM and 2000 + position, which the server cannot
     * join with vCenter's disks (vcsim numbers them 203, 204, ...): every disk looked unobserved to
     * the balancer (no load, nothing to move). Returns how many disks were named.
     */
    public int nameDisksAsVcenter() throws IOException, InterruptedException {
        int named = 0;
        int total = 0;
        for (JsonNode d : api.get("/api/v1/disks")) {
            String file = d.path("file").asText();
            String base = file.substring(file.lastIndexOf('/') + 1).replaceFirst("(_\\d+)?\\.vmdk$", "");
            String diskId = d.path("vmName").asText() + "/" + base;
            total++;
            try {
                world().reportAs(diskId, d.path("vm").asText(), d.path("diskKey").asInt());
                named++;
            } catch (IllegalArgumentException e) {
                progress.accept("  vCenter's disk " + file + " is no disk of the testbed: " + e.getMessage());
            }
        }
        progress.accept("testbed: " + named + " of " + total + " vCenter disks report statistics under vCenter's VM id and disk key");
        return named;
    }

    private void startServer() throws Exception {
        httpPort = freePort();
        grpcPort = freePort();
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx768m", "-XX:TieredStopAtLevel=1", "-jar",
                serverJar().toString(),
                "--server.address=127.0.0.1", "--server.port=" + httpPort, "--sdrs.grpc.port=" + grpcPort,
                "--sdrs.data-dir=" + settings.workDir().resolve("server-data"),
                "--sdrs.vcenter.url=" + sdkUrl(), "--sdrs.vcenter.user=" + VC_USER,
                "--sdrs.vcenter.password=" + VC_PASSWORD, "--sdrs.vcenter.insecure=true",
                // compressed time: the world's 20-s windows arrive every 20/speed s, so refresh models,
                // inventory and migrations at the same compressed pace. The percentile windows are in the
                // samples' (simulated) time and must be short next to the loop: the VMs idle for tens of
                // simulated minutes while the injectors build the models, and a 1-h window read right after
                // their IO starts would still be mostly idle windows (median OIO and IOPS 0: nothing to move).
                // The balancer reads the longest window, whose older pane holds 2-4 min of recent samples.
                "--sdrs.models.refresh-interval=PT5S", "--sdrs.inventory.incremental-interval=PT0.5S",
                "--sdrs.stats.windows=" + STATS_WINDOWS, "--sdrs.migration.poll-interval=PT0.25S",
                // vCenter's counters are read once per (compressed) 20-s sample
                // (in whole milliseconds: at 30x, 20/30 s printed in full is "PT0.6666666666666666S", more fraction
                // digits than an ISO-8601 duration may have, and the server refused to start)
                "--sdrs.stats.vcenter.poll-interval=PT" + String.format(java.util.Locale.ROOT, "%.3f", Math.max(0.1, 20 / settings.speed())) + "S",
                // a datastore new in a cluster is looked for every 0.25 s (10 s simulated at 40x)
                "--sdrs.balancing.addition-check-interval=PT0.25S"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SDRS_ADMIN_PASSWORD", adminPassword);
        if (settings.database().isPostgres()) {
            cmd.add("--spring.profiles.active=postgres");
            env.put("SDRS_DB_URL", settings.database().jdbcUrl());
            env.put("SDRS_DB_USER", settings.database().user());
            env.put("SDRS_DB_PASSWORD", settings.database().password());
        }
        progress.accept("starting the server (" + (settings.database().isPostgres() ? "PostgreSQL" : "embedded H2")
                + ") on http://127.0.0.1:" + httpPort + ", agents' gRPC on 127.0.0.1:" + grpcPort);
        server = track(ManagedProcess.start("server", cmd, env, log("server")));
        api = new ServerApi("http://127.0.0.1:" + httpPort, "admin", adminPassword);
        awaitServerHealthy(Duration.ofSeconds(180));
    }

    /** Waits until the server answers its health endpoint with 200. */
    public void awaitServerHealthy(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long started = System.nanoTime();
        long lastNote = started;
        while (api.openStatus("/actuator/health") != 200) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited; " + server.log() + " ends:\n" + server.tail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server was not healthy within " + timeout + "; " + server.log()
                        + " ends:\n" + server.tail(40));
            }
            if (System.nanoTime() - lastNote > 15e9) {
                lastNote = System.nanoTime();
                progress.accept("  ... waiting for the server (" + (lastNote - started) / 1_000_000_000 + " s)");
            }
            Thread.sleep(250);
        }
    }

    /** Issues a credential for the host (once) and starts its agent on every datastore it sees. */
    public ManagedProcess startAgent(String host) throws Exception {
        String token = agentTokens.get(host);
        if (token == null) {
            JsonNode issued = api.post("/api/v1/agents", Map.of("agentId", host, "hosts", List.of(host)));
            token = issued.path("token").asText();
            agentTokens.put(host, token);
        }
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-jar", agentJar().toString(), "--host", host, "--agent-id", host,
                "--server", "127.0.0.1:" + grpcPort, "--vscsi", vscsi.target(), "--injector", "emulated",
                "--period", settings.agentPeriod().toMillis() + "ms",
                // the loads the server reads from vCenter stand for three (compressed) 20-s samples
                "--loads-max-age", Math.max(1000, Math.round(60_000 / settings.speed())) + "ms",
                "--level-duration", settings.levelDuration().toMillis() + "ms",
                // every emulated injector IO is a vSCSI round trip through the one engine thread: a 0.3-s level
                // on an SSD was ~18,000 of them (a 4-KiB run took 25-34 s of wall clock); 2,048 still give the
                // level's mean latency within a few percent
                "--level-max-ios", String.valueOf(INJECTOR_LEVEL_MAX_IOS),
                "--calibration-points-per-run", String.valueOf(settings.calibrationPointsPerRun())));
        // the host's datastores as ESX mounts them under /vmfs/volumes: one link per datastore it sees,
        // rescanned by the agent every period (a datastore added later appears as a new link)
        Path volumes = hostVolumes(host);
        Files.createDirectories(volumes);
        for (String ds : datastoresOf(host)) {
            mount(host, ds);
        }
        cmd.add("--datastores-root");
        cmd.add(volumes.toString());
        ManagedProcess agent = track(ManagedProcess.start("agent-" + host, cmd, Map.of("SDRS_AGENT_TOKEN", token),
                log("agent-" + host)));
        agents.put(host, agent);
        return agent;
    }

    private List<String> datastoresOf(String host) {
        List<String> seen = new ArrayList<>(scenario.hosts().stream().filter(h -> h.name().equals(host)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no host " + host)).datastores());
        added.forEach((ds, hosts) -> {
            if (hosts.contains(host) && !seen.contains(ds)) {
                seen.add(ds);
            }
        });
        return seen;
    }

    /** Where a host mounts its datastores (its /vmfs/volumes): one symbolic link per datastore it sees. */
    public Path hostVolumes(String host) {
        return settings.workDir().resolve("hosts").resolve(host).resolve("volumes");
    }

    /** The host sees the datastore: a link named as the datastore, in the host's volumes, to its directory. */
    private void mount(String host, String ds) throws IOException {
        Path dir = Files.createDirectories(datastoreRoot().resolve(ds));
        Path link = hostVolumes(host).resolve(ds);
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Path tmp = hostVolumes(host).resolve("." + ds + ".link");
            Files.deleteIfExists(tmp);
            Files.createSymbolicLink(tmp, dir);
            // renamed into place: the agent's rescan sees the link whole or not at all
            Files.move(tmp, link, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /**
     * A datastore added while the loop runs, as it happens in reality (SPEC §1, the datastore-add
     * workflow): the storage gets the device (the testbed's vSCSI {@code AddDatastore}: an empty
     * datastore on its own emulated device, seen by the hosts), the administrator creates the
     * datastore in vCenter on each host that sees it and moves it into the datastore cluster (govc
     * {@code datastore.create -type local} per host, {@code object.mv} into the StoragePod, and the
     * simulator's admin endpoint for the device's size, which CreateLocalDatastore cannot carry),
     * and each host mounts it (a link in the host's volumes, which its agent finds at its next
     * rescan). The server then notices it through its inventory sync and asks the leader agent
     * for an injector run; the caller watches that through the server's API.
     *
     * @param cluster the datastore cluster (StoragePod) name
     * @param hosts   the hosts that see it (non-empty)
     */
    public void addDatastore(DatastoreSpec spec, String cluster, List<String> hosts) throws Exception {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a datastore is seen by at least one host");
        }
        VScsiGrpc.newBlockingStub(vscsiChannel).addDatastore(AddDatastoreRequest.newBuilder()
                .setDatastoreJson(SPEC_JSON.writeValueAsString(spec)).addAllHosts(hosts).build());
        Path dir = Files.createDirectories(datastoreRoot().resolve(spec.name()));
        List<String> create = new ArrayList<>(List.of("datastore.create", "-type", "local", "-name", spec.name(),
                "-path", dir.toString()));
        for (String h : hosts) {
            String path = govc.run("find", "/", "-type", "h", "-name", h).strip();
            if (path.isEmpty() || path.contains("\n")) {
                throw new IllegalStateException("vCenter has no single host named " + h + ": '" + path + "'");
            }
            create.add(path);
        }
        govc.run(create.toArray(String[]::new));
        String pod = govc.run("find", "/", "-type", "StoragePod", "-name", cluster).strip();
        if (pod.isEmpty() || pod.contains("\n")) {
            throw new IllegalStateException("vCenter has no single datastore cluster named " + cluster + ": '" + pod + "'");
        }
        String ds = govc.run("find", "/", "-type", "s", "-name", spec.name()).strip();
        govc.run("object.mv", ds, pod);
        setCapacity(spec.name(), spec.capacityGB());
        synchronized (added) {
            added.put(spec.name(), List.copyOf(hosts));
        }
        for (String h : hosts) {
            mount(h, spec.name());
        }
        progress.accept(String.format("datastore %s added: testbed device %s, vCenter datastore in %s on %s, mounted on %s",
                spec.name(), spec.device().getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT), cluster, hosts, hosts));
    }

    /** The simulator's admin endpoint: the size of the device behind a datastore. */
    private void setCapacity(String datastore, double capacityGB) throws Exception {
        String form = "name=" + java.net.URLEncoder.encode(datastore, java.nio.charset.StandardCharsets.UTF_8)
                + "&capacityGB=" + capacityGB;
        java.net.http.HttpResponse<String> r = new VcsimAdmin(vcsimUrl).post("/opensdrs/datastore",
                "application/x-www-form-urlencoded", form);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("vcsim refused capacity " + capacityGB + " GB for " + datastore + ": "
                    + r.statusCode() + " " + r.body());
        }
    }

    private ManagedProcess track(ManagedProcess p) {
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    private Path log(String name) {
        return settings.workDir().resolve("logs").resolve(name + ".log");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public Path datastoreRoot() {
        return settings.workDir().resolve("datastores");
    }

    public Scenario scenario() {
        return scenario;
    }

    public Settings settings() {
        return settings;
    }

    public ServerApi api() {
        return api;
    }

    public Govc govc() {
        return govc;
    }

    public PacedWorld world() {
        return vscsi.world();
    }

    public ManagedChannel vscsiChannel() {
        return vscsiChannel;
    }

    public ManagedProcess server() {
        return server;
    }

    public ManagedProcess vcsim() {
        return vcsim;
    }

    public Map<String, ManagedProcess> agents() {
        return agents;
    }

    public PlacementFollower follower() {
        return follower;
    }

    public String adminPassword() {
        return adminPassword;
    }

    public int httpPort() {
        return httpPort;
    }

    /** Every process this loop started (for the check that none is left). */
    public List<ManagedProcess> processes() {
        synchronized (processes) {
            return List.copyOf(processes);
        }
    }

    /** Stops the follower, the agents, the server, vcsim and the testbed, in that order. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (follower != null) {
            follower.close();
        }
        if (publisher != null) {
            publisher.close();
        }
        // every process is asked at once and shares one grace period: stopped one after another, six
        // slow shutdowns would keep Ctrl-C waiting a minute
        List<ManagedProcess> all = processes();
        List<List<ProcessHandle>> children = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            children.add(all.get(i).requestStop());
        }
        long deadline = System.nanoTime() + ManagedProcess.stopGrace().toNanos();
        for (int i = all.size() - 1, j = 0; i >= 0; i--, j++) {
            all.get(i).awaitStopped(children.get(j), deadline);
        }
        if (vscsiChannel != null) {
            vscsiChannel.shutdownNow();
        }
        if (vscsi != null) {
            vscsi.close();
        }
    }
}
