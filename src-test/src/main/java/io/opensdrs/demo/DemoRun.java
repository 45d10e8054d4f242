package io.opensdrs.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.loop.MeasuredLatency;
import io.opensdrs.loop.MeasuredLatency.DatastoreLatency;
import io.opensdrs.loop.PlacementFollower;
import io.opensdrs.loop.ServerApi;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.shared.vscsi.v1.RelocationStatus;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The demo: the whole loop on one machine (the world has been printed by the command). Starts vcsim, the testbed, the
 * server and one agent per host ({@link LocalLoop}), waits for a model per datastore, measures
 * per-datastore latency, then runs Storage DRS on every datastore cluster until it converges (a run
 * recommends nothing new; at most {@link #MAX_RUNS} runs): each run's recommendations are printed and
 * applied, the storage vMotions followed (checked against the simulator with govc), and the table
 * measured again and printed. Then it keeps running for the UI until Ctrl-C, or exits (0 if the worst
 * datastore's p90 latency fell) with {@code exitWhenDone}.
 */
public final class DemoRun {
    /** 20-s windows per measurement: two simulated minutes per side of the table. */
    static final int MEASURE_WINDOWS = 6;
    private static final Duration MODELS_TIMEOUT = Duration.ofMinutes(4);
    /**
     * After a datastore's first model (the 4-KiB injector run), how long to wait for its run at the
     * injector's other IO sizes before the VMs start: started VM IO aborts that run (Pesto §5.1.1's
     * interference check) and the LQ model stays size-blind until the next scheduled run.
     */
    private static final Duration SIZES_GRACE = Duration.ofSeconds(60);
    private static final Duration MIGRATIONS_TIMEOUT = Duration.ofMinutes(5);
    /** Storage DRS runs at most this often, each after the previous one's moves have settled (issue 41: until it converges). */
    static final int MAX_RUNS = 4;
    /** SDRS's IO latency threshold on p90, the table's yardstick (the demo's clusters keep the default). */
    private static final double THRESHOLD_MS = BalancingSettings.defaults().ioLatencyThresholdMs();

    private final Scenario scenario;
    private final LocalLoop.Settings settings;
    private final PrintStream out;
    private final long startedNanos = System.nanoTime();

    private final String modelKind;

    public DemoRun(Scenario scenario, LocalLoop.Settings settings, PrintStream out) {
        this(scenario, settings, out, null);
    }

    private DemoRun(Scenario scenario, LocalLoop.Settings settings, PrintStream out, String modelKind) {
        this.scenario = scenario;
        this.settings = settings;
        this.out = out;
        this.modelKind = modelKind;
    }

    /**
     * The same run with every cluster's model kind set (its {@code modelKind} setting) before Storage
     * DRS runs, instead of {@code auto}: auto picks the kind with the lowest held-out error at that
     * moment, which varies from run to run.
     */
    public DemoRun withModelKind(String kind) {
        return new DemoRun(scenario, settings, out, kind);
    }

    /**
     * The outcome: the measurement before Storage DRS and after its last run that moved something, every run's
     * measurement in order, whether a run recommended nothing new within {@link #MAX_RUNS}, every storage vMotion
     * followed, and whether the worst p90 fell.
     */
    public record Outcome(Map<String, DatastoreLatency> before, Map<String, DatastoreLatency> after,
                          List<Map<String, DatastoreLatency>> afterEachRun, boolean converged, List<PlacementFollower.Move> moves,
                          boolean improved) {
    }

    /**
     * Runs the loop to the table. With {@code exitWhenDone} false it then blocks until the JVM is
     * asked to stop (Ctrl-C); the loop is closed by a shutdown hook either way.
     */
    public Outcome run(boolean exitWhenDone) throws Exception {
        LocalLoop loop = new LocalLoop(scenario, settings, this::say);
        Thread hook = new Thread(loop::close, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            step("starting the loop (work directory " + settings.workDir() + ", logs in " + settings.workDir().resolve("logs") + ")");
            loop.start();
            checkPluginRegistered(loop);
            step("waiting for a model of every datastore (the agents' injectors run while the VMs are idle)");
            printModels(awaitModels(loop, this::say));
            step("starting the VMs' IO; measuring per-datastore latency over " + MEASURE_WINDOWS + " windows of 20 s (simulated)");
            loop.startVmIo();
            // let queues fill before counting, and let the server's percentiles see only the VMs' IO: its
            // longest window must not still hold the idle windows of the model phase (Storage DRS would
            // see idle disks and have nothing to move)
            MeasuredLatency.record(loop.world(), LocalLoop.WINDOWS_TO_FILL_STATS - MEASURE_WINDOWS, this::say);
            Map<String, DatastoreLatency> before = MeasuredLatency.record(loop.world(), MEASURE_WINDOWS, this::say);
            printMeasurement("before", before);
            if (modelKind != null) {
                pinModelKind(loop, modelKind);
            }
            List<String> labels = new ArrayList<>(List.of("before"));
            List<Map<String, DatastoreLatency>> measured = new ArrayList<>(List.of(before));
            boolean converged = false;
            for (int run = 1; run <= MAX_RUNS; run++) {
                step("Storage DRS run " + run + " (of at most " + MAX_RUNS + ", until a run recommends nothing new) on every datastore cluster");
                int movesBefore = loop.follower().moves().size();
                List<Long> recommendations = runNowAndApply(loop);
                if (recommendations.isEmpty()) {
                    say("run " + run + " recommends nothing new: Storage DRS has converged");
                    converged = true;
                    break;
                }
                step("following the storage vMotions of run " + run);
                awaitMigrations(loop, recommendations, movesBefore);
                List<PlacementFollower.Move> all = loop.follower().moves();
                checkAgainstSimulator(loop, all.subList(movesBefore, all.size()));
                // the next run must read statistics of the new placement only: wait until the server's longest
                // percentile window holds none from before the moves, and measure its last windows
                step("letting the world settle, then measuring again");
                MeasuredLatency.record(loop.world(), LocalLoop.WINDOWS_TO_FILL_STATS - MEASURE_WINDOWS, this::say);
                labels.add("after run " + run);
                measured.add(MeasuredLatency.record(loop.world(), MEASURE_WINDOWS, this::say));
                out.println();
                out.print(LatencyTable.render(labels, measured, scenario.datastoreClusters(), THRESHOLD_MS));
            }
            if (!converged) {
                say("not converged: run " + MAX_RUNS + " still recommended moves");
            }
            Map<String, DatastoreLatency> after = measured.get(measured.size() - 1);
            boolean improved = printOutcome(before, after, labels.get(labels.size() - 1));
            out.printf("%nThe plugin UI: http://127.0.0.1:%d/ui/  (user admin, password %s)%n", loop.httpPort(),
                    loop.adminPassword());
            out.printf("Demo done in %s.%n", elapsed());
            Outcome outcome = new Outcome(before, after, List.copyOf(measured.subList(1, measured.size())), converged,
                    loop.follower().moves(), improved);
            if (!exitWhenDone) {
                out.println("Everything keeps running; Ctrl-C stops it all.");
                out.flush();
                new CountDownLatch(1).await(); // until the shutdown hook runs
            }
            return outcome;
        } catch (Exception | Error e) {
            out.println();
            out.println("demo failed: " + e.getMessage());
            for (ManagedProcess p : loop.processes()) {
                if (!p.isAlive() || p.name().equals("server")) {
                    out.printf("---- %s (%s) last lines ----%n%s%n", p.name(), p.log(), p.tail(25));
                }
            }
            throw e;
        } finally {
            loop.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running or has run
            }
        }
    }

    private void step(String what) {
        out.printf("%n[%s] %s%n", elapsed(), what);
        out.flush();
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }

    private String elapsed() {
        long s = (System.nanoTime() - startedNanos) / 1_000_000_000;
        return String.format("%d:%02d", s / 60, s % 60);
    }

    private void checkPluginRegistered(LocalLoop loop) {
        try {
            String info = loop.govc().run("extension.info", "io.opensdrs.plugin");
            say("plugin registered with vCenter (govc extension.info io.opensdrs.plugin): "
                    + (info.contains("io.opensdrs.plugin") ? "yes" : "no"));
        } catch (Exception e) {
            say("plugin registration not visible yet: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /**
     * Waits until every datastore's model comes from measurements (not Pesto's default model) and
     * its LQ model holds the injector's runs at every IO size ({@link LqSlopeModel#injectorIoSizesKb},
     * at most {@link #SIZES_GRACE} longer; a datastore still without them is named).
     */
    public static Map<String, JsonNode> awaitModels(LocalLoop loop, java.util.function.Consumer<String> progress) throws Exception {
        ServerApi api = loop.api();
        Map<String, JsonNode> models = new LinkedHashMap<>();
        Set<String> sized = new HashSet<>();
        int sizes = LqSlopeModel.injectorIoSizesKb().length;
        long deadline = System.nanoTime() + MODELS_TIMEOUT.toNanos();
        long sizesDeadline = Long.MAX_VALUE;
        long lastNote = System.nanoTime();
        while (true) {
            for (DatastoreSpec ds : loop.scenario().datastores()) {
                try {
                    if (!models.containsKey(ds.name())) {
                        JsonNode m = api.get("/api/v1/datastores/" + ds.name() + "/model").path("model");
                        if (m.path("valid").asBoolean() && !"default".equals(m.path("source").asText())) {
                            models.put(ds.name(), m);
                        }
                    }
                    if (models.containsKey(ds.name()) && !sized.contains(ds.name())) {
                        JsonNode lq = api.get("/api/v1/datastores/" + ds.name() + "/model?kind=" + LqSlopeModel.NAME).path("model");
                        Set<Double> seen = new HashSet<>();
                        lq.path("fitPoints").forEach(fp -> seen.add(fp.path("ioSizeKb").asDouble()));
                        if (seen.size() >= sizes) {
                            sized.add(ds.name());
                        }
                    }
                } catch (ServerApi.ApiException e) {
                    if (e.status() != 404) {
                        throw e;
                    }
                }
            }
            int all = loop.scenario().datastores().size();
            if (models.size() == all && sizesDeadline == Long.MAX_VALUE) {
                sizesDeadline = System.nanoTime() + SIZES_GRACE.toNanos();
            }
            if (models.size() == all && (sized.size() == all || System.nanoTime() > sizesDeadline)) {
                if (sized.size() < all) {
                    progress.accept("  injector runs at every IO size missing for " + loop.scenario().datastores().stream()
                            .map(DatastoreSpec::name).filter(n -> !sized.contains(n)).toList() + " (their LQ models are size-blind)");
                }
                return models;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no model within " + MODELS_TIMEOUT + " for "
                        + loop.scenario().datastores().stream().map(DatastoreSpec::name).filter(n -> !models.containsKey(n)).toList());
            }
            if (System.nanoTime() - lastNote > 15e9) {
                lastNote = System.nanoTime();
                progress.accept(String.format("  ... %d of %d datastores have a model, %d of them at every injector IO size: %s",
                        models.size(), all, sized.size(), models.keySet()));
            }
            Thread.sleep(500);
        }
    }

    private void printModels(Map<String, JsonNode> models) {
        out.printf("%-14s %-8s %-9s %10s %10s %6s %10s %14s%n", "datastore", "model", "source", "slope m", "C (ms)",
                "R²", "peak IOPS", "congestion ms");
        for (Map.Entry<String, JsonNode> e : models.entrySet()) {
            JsonNode m = e.getValue();
            JsonNode p = m.path("parameters");
            double slope = p.path("m").asDouble(Double.NaN);
            double c = p.path("C").asDouble(Double.NaN);
            double peak = p.path("peak_iops").asDouble(Double.NaN);
            // SIOC's default congestion threshold is the latency at 90 % of peak: L_α = C/(1 − α), Pesto Eq. 9
            double congestion = c / (1 - 0.9);
            out.printf("%-14s %-8s %-9s %10.4f %10.3f %6.3f %10.0f %14.2f%n", e.getKey(), m.path("kind").asText(),
                    m.path("source").asText(), slope, c, m.path("rSquared").asDouble(Double.NaN), peak, congestion);
        }
    }

    private void printMeasurement(String label, Map<String, DatastoreLatency> m) {
        out.printf("%s: %-14s %6s %10s %10s %10s%n", label, "datastore", "disks", "IOs", "p50 ms", "p90 ms");
        for (DatastoreLatency d : m.values()) {
            out.printf("%s  %-14s %6d %10d %10s %10s%n", " ".repeat(label.length()), d.datastore(), d.disks(),
                    d.ios(), ms(d.p50Ms()), ms(d.p90Ms()));
        }
    }

    private void pinModelKind(LocalLoop loop, String kind) throws Exception {
        ServerApi api = loop.api();
        for (JsonNode cluster : api.get("/api/v1/clusters")) {
            String id = cluster.path("id").asText();
            com.fasterxml.jackson.databind.node.ObjectNode s = (com.fasterxml.jackson.databind.node.ObjectNode)
                    api.get("/api/v1/clusters/" + id + "/settings");
            s.put("modelKind", kind);
            api.put("/api/v1/clusters/" + id + "/settings", s);
            say("cluster " + cluster.path("name").asText() + ": model kind set to " + kind);
        }
    }

    /** POST run on every cluster, print each recommendation with its reasons, apply it; returns their ids. */
    private List<Long> runNowAndApply(LocalLoop loop) throws Exception {
        ServerApi api = loop.api();
        List<Long> ids = new ArrayList<>();
        RecommendationText.Names names = RecommendationText.Names.read(api);
        for (JsonNode cluster : api.get("/api/v1/clusters")) {
            String id = cluster.path("id").asText();
            JsonNode run = api.post("/api/v1/clusters/" + id + "/run", Map.of());
            say(String.format("cluster %s (%s): strategy %s, %d recommendation(s), %d fault(s)", cluster.path("name").asText(),
                    id, run.path("strategy").asText(), run.path("recommendationIds").size(), run.path("faults").size()));
            for (JsonNode f : run.path("faults")) {
                say("  fault: " + f);
            }
            List<Long> appliedByServer = new ArrayList<>();
            run.path("appliedRecommendationIds").forEach(r -> appliedByServer.add(r.asLong()));
            for (JsonNode note : run.path("notes")) {
                say("  note: " + note.asText());
            }
            for (JsonNode r : run.path("recommendationIds")) {
                long rid = r.asLong();
                say(describeRecommendation(api, rid, names));
                if (!appliedByServer.contains(rid)) { // a cluster in manual mode: apply, as "Apply" in the UI
                    api.post("/api/v1/recommendations/" + rid + "/apply", Map.of());
                }
                ids.add(rid);
            }
        }
        if (ids.isEmpty()) {
            say("no recommendation: nothing to move");
        } else {
            say("applied " + ids.size() + " recommendation(s)");
        }
        return ids;
    }

    /** A recommendation as the administrator sees it ({@link RecommendationText}). */
    static String describeRecommendation(ServerApi api, long id, RecommendationText.Names names) throws Exception {
        JsonNode rec = api.get("/api/v1/recommendations/" + id);
        JsonNode why = null;
        try {
            why = api.get("/api/v1/recommendations/" + id + "/explanation");
        } catch (ServerApi.ApiException e) {
            // made by hand, not by the engine: no explanation
        }
        return RecommendationText.describe(id, rec, why, names);
    }

    /**
     * Waits until every recommendation is finished in vCenter and every testbed copy from the follower's
     * {@code firstMove}-th on (this run's) is done.
     */
    private void awaitMigrations(LocalLoop loop, List<Long> recommendations, int firstMove) throws Exception {
        long deadline = System.nanoTime() + MIGRATIONS_TIMEOUT.toNanos();
        long lastNote = System.nanoTime();
        List<PlacementFollower.Move> reported = new ArrayList<>();
        while (true) {
            int open = 0;
            for (long id : recommendations) {
                String state = loop.api().get("/api/v1/recommendations/" + id).path("state").asText();
                if (state.equals("PENDING") || state.equals("APPLYING")) {
                    open++;
                }
            }
            int copying = 0;
            List<PlacementFollower.Move> moves = loop.follower().moves();
            for (PlacementFollower.Move m : moves.subList(Math.min(firstMove, moves.size()), moves.size())) {
                RelocationStatus s = loop.follower().status(m.vm(), m.diskKey());
                if (!s.getDone()) {
                    copying++;
                } else if (!reported.contains(m)) {
                    reported.add(m);
                    say(String.format("  applied: disk %s of %s  %s -> %s (testbed IO now on %s, %.0f s)",
                            loop.follower().diskName(m.vm(), m.diskKey()), m.vm(), m.from(), m.to(), s.getDatastoreNow(),
                            (System.currentTimeMillis() - m.startedAtMs()) / 1000.0));
                }
            }
            if (open == 0 && copying == 0) {
                for (long id : recommendations) {
                    JsonNode r = loop.api().get("/api/v1/recommendations/" + id);
                    if (!r.path("state").asText().equals("APPLIED")) {
                        say(String.format("  recommendation %d ended %s: %s %s", id, r.path("state").asText(),
                                r.path("faultType").asText(), r.path("faultMessage").asText()));
                    }
                }
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("migrations not finished within " + MIGRATIONS_TIMEOUT + ": " + open
                        + " recommendation(s) applying, " + copying + " testbed copies running");
            }
            if (System.nanoTime() - lastNote > 15e9) {
                lastNote = System.nanoTime();
                say(String.format("  ... %d recommendation(s) applying, %d copies running", open, copying));
            }
            Thread.sleep(500);
        }
    }

    /** Each of {@code moves}' disks has its backing file on its destination in vCenter (govc). */
    private void checkAgainstSimulator(LocalLoop loop, List<PlacementFollower.Move> moves) throws Exception {
        for (PlacementFollower.Move m : moves) {
            String disk = loop.scenario().vms().stream().filter(v -> v.name().equals(m.vm())).findFirst()
                    .map(v -> v.disks().get(m.diskKey() - 2000).name()).orElse("?");
            String expected = "[" + m.to() + "] " + m.vm() + "/" + disk;
            String file = loop.govc().diskFiles(m.vm()).stream().filter(f -> f.contains("/" + disk))
                    .findFirst().orElse("?");
            say(String.format("  vCenter: %s disk %s backing %s %s", m.vm(), disk, file,
                    file.startsWith(expected) ? "(on " + m.to() + ": ok)" : "(expected on " + m.to() + ")"));
        }
    }

    /** Prints the worst datastore's p90 before and after the last run; true when it fell. */
    private boolean printOutcome(Map<String, DatastoreLatency> before, Map<String, DatastoreLatency> after, String label) {
        double wb = MeasuredLatency.worstP90(before);
        double wa = MeasuredLatency.worstP90(after);
        boolean improved = wa < wb;
        out.printf("worst datastore p90: %.2f ms before, %.2f ms %s: %s%n", wb, wa, label,
                improved ? String.format("improved by %.0f %%", 100 * (1 - wa / wb)) : "NOT improved");
        return improved;
    }

    /** A measured latency; "idle" for a datastore whose disks did no IO in the span. */
    private static String ms(double v) {
        return Double.isNaN(v) ? "idle" : String.format("%.2f", v);
    }
}
