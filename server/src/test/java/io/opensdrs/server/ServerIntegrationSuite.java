package io.opensdrs.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.opensdrs.server.ingest.SimulatedAgent;
import io.opensdrs.server.ingest.AgentGrpcServer;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventoryChanges;
import io.opensdrs.server.inventory.InventorySnapshot;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.StreamSamples;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.LqFit;
import io.opensdrs.shared.agent.v1.RegisterResponse;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server's integration suite: a real server (HTTP on a random port, gRPC on a free port,
 * Flyway-migrated database) driven over the network. Run on H2 by {@link ServerOnH2Test} and on
 * a real PostgreSQL server process by {@link ServerOnPostgresTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        // the balancing package's own suite drives these; here they would add rows and agent messages mid-test
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
})
@Import(ServerIntegrationSuite.Fixtures.class)
@org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability
abstract class ServerIntegrationSuite {

    @TestConfiguration
    static class Fixtures {
        @Bean
        InMemoryInventorySource inventorySource() {
            return new InMemoryInventorySource();
        }
    }

    @Autowired TestRestTemplate rest;
    @Autowired AgentGrpcServer grpc;
    @Autowired JdbcTemplate jdbc;
    @Autowired InMemoryInventorySource inventory;
    @Autowired DatastoreModels models;
    final ObjectMapper json = new ObjectMapper();

    // ------------------------------------------------------------------ helpers

    TestRestTemplate admin() {
        return new AdminApi(rest).rest();
    }

    JsonNode call(HttpMethod method, String path, Object body, int expectedStatus) throws Exception {
        return new AdminApi(rest).call(method, path, body, expectedStatus);
    }

    String issue(String agentId) throws Exception {
        return call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", agentId), 201).get("token").asText();
    }

    SimulatedAgent agent(String token) {
        return new SimulatedAgent("localhost", grpc.port(), token);
    }

    static AgentMessage stats(long seq, DiskStatsBatch b) {
        return AgentMessage.newBuilder().setSeq(seq).setDiskStats(b).build();
    }

    static ServerMessage ack(SimulatedAgent.Session s) throws InterruptedException {
        ServerMessage m = s.take(20_000);
        assertThat(m).as("ack (stream status " + s.closedStatus() + ")").isNotNull();
        assertThat(m.hasAck()).isTrue();
        return m;
    }

    /** Everything the server stores, summarised: a refused request must leave it as it was. */
    Map<String, Object> fingerprint() {
        Map<String, Object> f = new TreeMap<>();
        for (String t : List.of("agent", "agent_datastore", "sample_batch", "percentile_snapshot", "datastore_observation",
                "injector_run", "datastore_model", "model_accuracy", "datacenter", "datastore_cluster", "datastore", "host",
                "host_datastore", "vm", "virtual_disk", "inventory_sync_state", "cluster_settings", "recommendation",
                "action_history", "fault", "migration", "known_name", "datastore_heartbeat", "statistics_fault")) {
            f.put(t, jdbc.queryForObject("SELECT COUNT(*) FROM " + t, Long.class));
        }
        f.put("agents", jdbc.queryForList("SELECT agent_id, revoked, last_seq, accepted_samples FROM agent ORDER BY agent_id").toString());
        f.put("settings", jdbc.queryForList("SELECT * FROM cluster_settings ORDER BY cluster_moid").toString());
        return f;
    }

    // ------------------------------------------------------------------ security

    @Test
    void healthIsOpenEverythingElseNeedsAuthentication() {
        assertThat(rest.getForEntity("/actuator/health", String.class).getStatusCode().value()).isEqualTo(200);
        for (String path : List.of("/api/v1/clusters", "/api/v1/datastores", "/api/v1/disks", "/api/v1/agents",
                "/v3/api-docs", "/actuator/prometheus")) {
            assertThat(rest.getForEntity(path, String.class).getStatusCode().value()).as(path).isEqualTo(401);
            assertThat(rest.withBasicAuth("admin", "wrong").getForEntity(path, String.class).getStatusCode().value()).as(path).isEqualTo(401);
        }
        assertThat(rest.postForEntity("/api/v1/agents", Map.of("agentId", "x"), String.class).getStatusCode().value()).isEqualTo(401);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM agent WHERE agent_id = 'x'", Long.class)).isZero();
    }

    /** The address the demo prints, and vCenter's plugin registration beside it, open the plugin without a login. */
    @Test
    void thePluginAnswersAtTheAddressThatIsPrinted() {
        ResponseEntity<String> index = rest.getForEntity("/ui/index.html", String.class);
        assertThat(index.getStatusCode().value()).isEqualTo(200);
        assertThat(index.getBody()).contains("<div id=\"app\">").contains("./assets/");
        ResponseEntity<String> page = rest.getForEntity("/ui/", String.class);
        assertThat(page.getStatusCode().value()).isEqualTo(200);
        assertThat(page.getBody()).isEqualTo(index.getBody());
        // the client follows the redirect to /ui/
        ResponseEntity<String> bare = rest.getForEntity("/ui", String.class);
        assertThat(bare.getStatusCode().value()).isEqualTo(200);
        assertThat(bare.getBody()).isEqualTo(index.getBody());
    }

    @Test
    void openApiDocumentsTheEndpoints() throws Exception {
        JsonNode doc = call(HttpMethod.GET, "/v3/api-docs", null, 200);
        assertThat(doc.get("paths").has("/api/v1/datastores/{name}/percentiles")).isTrue();
        assertThat(doc.get("paths").has("/api/v1/clusters/{clusterId}/settings")).isTrue();
    }

    @Test
    void anonymousAndUnknownAgentsAreRefused() throws Exception {
        try (SimulatedAgent anonymous = agent(null); SimulatedAgent forged = agent("sdrs_forged")) {
            for (SimulatedAgent a : List.of(anonymous, forged)) {
                assertThatThrownBy(() -> a.register("a", "h", List.of()))
                        .isInstanceOfSatisfying(StatusRuntimeException.class,
                                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
                SimulatedAgent.Session s = a.openSession();
                s.send(stats(1, SimulatedAgent.batch("h", "vm", 2, List.of("ds-anon"), 1_000_000L, new Random(1))));
                assertThat(s.take(10_000)).isNull();
                assertThat(s.closedStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
            }
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sample_batch WHERE agent_id = 'a'", Long.class)).isZero();
    }

    @Test
    void revocationClosesOpenSessionsAndRefusesNewCalls() throws Exception {
        String id = "agent-" + UUID.randomUUID();
        String token = issue(id);
        try (SimulatedAgent a = agent(token)) {
            assertThat(a.register(id, "esx-r", List.of("ds-r")).getAccepted()).isTrue();
            SimulatedAgent.Session s = a.openSession();
            s.send(stats(1, SimulatedAgent.batch("esx-r", "vm", 4, List.of("ds-r"), 1_000_000L, new Random(2))));
            assertThat(ack(s).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);

            call(HttpMethod.POST, "/api/v1/agents/" + id + "/revoke", null, 200);

            long deadline = System.currentTimeMillis() + 10_000;
            while (s.closedStatus() == null && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertThat(s.closedStatus()).isNotNull();
            assertThat(s.closedStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
            assertThatThrownBy(() -> a.register(id, "esx-r", List.of()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        }
        JsonNode rec = call(HttpMethod.GET, "/api/v1/agents/" + id, null, 200);
        assertThat(rec.get("revoked").asBoolean()).isTrue();
        assertThat(rec.get("acceptedSamples").asLong()).isEqualTo(4);
    }

    // ------------------------------------------------------------------ ingestion

    @Test
    void ingestionIsIdempotentBySequenceNumberAndFeedsPercentiles() throws Exception {
        String id = "agent-" + UUID.randomUUID();
        String ds = "ds-" + UUID.randomUUID().toString().substring(0, 8);
        try (SimulatedAgent a = agent(issue(id))) {
            RegisterResponse r = a.register(id, "esx-i", List.of(ds));
            assertThat(r.getAccepted()).isTrue();
            assertThat(r.getLastAcceptedSeq()).isZero();
            assertThat(r.getStatsWindowSeconds()).isEqualTo(20);
            SimulatedAgent.Session s = a.openSession();
            Random rnd = new Random(3);
            AgentMessage first = stats(1, SimulatedAgent.batch("esx-i", "vm", 10, List.of(ds), 1_700_000_000_000L, rnd));
            s.send(first);
            assertThat(ack(s).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
            s.send(first);
            ServerMessage dup = ack(s);
            assertThat(dup.getAck().getStatus()).isEqualTo(AckStatus.DUPLICATE);
            assertThat(dup.getAck().getCumulativeSeq()).isEqualTo(1);
            s.send(stats(2, SimulatedAgent.batch("esx-i", "vm", 10, List.of(ds), 1_700_000_020_000L, rnd)));
            ServerMessage second = ack(s);
            assertThat(second.getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
            assertThat(second.getAck().getCumulativeSeq()).isEqualTo(2);
            s.complete();
            // a reconnecting agent learns where to resume
            assertThat(a.register(id, "esx-i", List.of(ds)).getLastAcceptedSeq()).isEqualTo(2);
        }
        JsonNode rec = call(HttpMethod.GET, "/api/v1/agents/" + id, null, 200);
        assertThat(rec.get("acceptedSamples").asLong()).isEqualTo(20);
        assertThat(rec.get("lastAcceptedSeq").asLong()).isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT SUM(sample_count) FROM sample_batch WHERE agent_id = ?", Long.class, id)).isEqualTo(20);

        JsonNode p = call(HttpMethod.GET, "/api/v1/datastores/" + ds + "/percentiles?window=PT1H", null, 200);
        assertThat(p.get("samples").asLong()).isEqualTo(20);
        double p50 = p.get("metrics").get("LATENCY_MS").get("p50").asDouble();
        double p90 = p.get("metrics").get("LATENCY_MS").get("p90").asDouble();
        assertThat(p50).isPositive().isLessThanOrEqualTo(p90);
        assertThat(p.get("metrics").has("RANDOMNESS")).isTrue();
        JsonNode disk = call(HttpMethod.GET, "/api/v1/disks/vm-0/2000/percentiles?window=PT16H", null, 200);
        assertThat(disk.get("samples").asLong()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void anInvalidMessageIsRejectedNamingTheFieldAndChangesNothing() throws Exception {
        String id = "agent-" + UUID.randomUUID();
        try (SimulatedAgent a = agent(issue(id))) {
            a.register(id, "esx-v", List.of("ds-v"));
            Map<String, Object> before = fingerprint();
            SimulatedAgent.Session s = a.openSession();
            DiskStatsBatch good = SimulatedAgent.batch("esx-v", "vm", 3, List.of("ds-v"), 1_700_000_000_000L, new Random(4));
            DiskStatsBatch bad = good.toBuilder().setSamples(2, good.getSamples(2).toBuilder().setReadShare(1.5)).build();
            s.send(stats(1, bad));
            ServerMessage m = ack(s);
            assertThat(m.getAck().getStatus()).isEqualTo(AckStatus.REJECTED);
            assertThat(m.getAck().getReason()).contains("disk_stats.samples[2].read_share");
            s.send(AgentMessage.newBuilder().setSeq(0).setDiskStats(good).build());
            assertThat(ack(s).getAck().getReason()).contains("seq");
            s.send(AgentMessage.newBuilder().setSeq(5).build());
            assertThat(ack(s).getAck().getReason()).contains("body");
            // per-second stream samples (contract minor 2): refused since the server reads statistics from vCenter
            StreamSamples live = StreamSamples.newBuilder().setHost("esx-v").addAllSamples(good.getSamplesList()).build();
            s.send(AgentMessage.newBuilder().setStreamSamples(live).build());
            ServerMessage refused = ack(s);
            assertThat(refused.getAck().getStatus()).isEqualTo(AckStatus.REJECTED);
            assertThat(refused.getAck().getReason()).startsWith("stream_samples is not accepted: since contract minor 3");
            assertThat(fingerprint()).isEqualTo(before);
            assertThat(a.register("someone-else", "esx-v", List.of()).getReason()).contains("agent_id");
        }
    }

    // ------------------------------------------------------------------ models

    static InjectorResult injectorRun(String ds, String runId, double slope, double intercept) {
        return injectorRun(ds, runId, 4, slope, intercept);
    }

    static InjectorResult injectorRun(String ds, String runId, int ioSizeKb, double slope, double intercept) {
        InjectorResult.Builder r = InjectorResult.newBuilder().setDatastore(ds).setRunId(runId)
                .setStartedMs(1_700_000_000_000L).setFinishedMs(1_700_000_060_000L).setIoSizeKb(ioSizeKb).setReadShare(1).setRandomness(1)
                .setMode(io.opensdrs.shared.agent.v1.InjectorMode.EMULATED).setValid(true).setAttempt(1);
        for (int q = 2; q <= 32; q *= 2) {
            double l = slope * q + intercept;
            r.addPoints(InjectorPoint.newBuilder().setTargetOio(q).setMeasuredOio(q).setIoCount(1000).setDurationS(5)
                    .setIops(q / l * 1000).setMeanLatencyMs(l));
        }
        return r.setFit(LqFit.newBuilder().setSlopeMsPerIo(slope).setInterceptMs(intercept).setRSquared(1).setPoints(5)).build();
    }

    @Autowired io.opensdrs.server.models.ModelRepository observations;

    @Test
    void injectorResultsBuildModelsAndDatastoresWithoutOneGetPestosDefault() throws Exception {
        inventory.setSnapshot(InMemoryInventorySource.sample("v-models"));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        String id = "agent-" + UUID.randomUUID();
        try (SimulatedAgent a = agent(issue(id))) {
            a.register(id, "esx1", List.of("ds-a", "ds-b"));
            SimulatedAgent.Session s = a.openSession();
            s.send(AgentMessage.newBuilder().setSeq(1).setInjectorResult(injectorRun("ds-a", "run-1", 0.5, 1.0)).build());
            assertThat(ack(s).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
        }
        // passive observations of ds-a (the datastore's totals over six 20-s samples, as read from vCenter's
        // counters), then a refresh scores the models on them (held out) and refits
        for (int i = 0; i < 6; i++) {
            double q = 2 + 4 * i;
            observations.insertObservation("ds-a", "vcenter", 1_700_000_100_000L + 20_000L * i, 5000, q, 0.55 * q + 1, 4, 1, 1);
        }
        JsonNode m = call(HttpMethod.GET, "/api/v1/datastores/ds-a/model?kind=pesto", null, 200);
        assertThat(m.get("model").get("source").asText()).isEqualTo("injector");
        assertThat(m.get("model").get("parameters").get("m").asDouble()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(m.get("model").get("fitPoints").size()).isEqualTo(5);

        JsonNode def = call(HttpMethod.GET, "/api/v1/datastores/ds-b/model?kind=pesto", null, 200);
        assertThat(def.get("model").get("source").asText()).isEqualTo("default");
        assertThat(def.get("model").get("parameters").get("m").asDouble()).isGreaterThan(0.0);

        models.refresh();
        JsonNode history = call(HttpMethod.GET, "/api/v1/datastores/ds-a/models/history", null, 200);
        List<String> sources = new ArrayList<>();
        history.forEach(h -> sources.add(h.get("source").asText()));
        assertThat(sources).contains("injector", "passive");
        JsonNode sel = call(HttpMethod.GET, "/api/v1/clusters/group-p1/model-selection", null, 200);
        assertThat(sel.get("heldOutMeanAbsErrorMs").has("pesto")).isTrue();
        assertThat(sel.get("selected").asText()).isNotBlank();
    }

    /**
     * Issue 42: a run whose least-squares line has C &lt; 0 (latency growing faster than linearly:
     * fio-plot's 7.2k disk behind a P420i, 4 KiB random writes at depths 2–32, mean latency per
     * depth) is served as the line with C ≥ 0 that fits best, the one through the origin; no line
     * with C &lt; 0 reaches the REST model view, its history or another datastore's default model.
     */
    @Test
    void aRunWhoseFreeInterceptIsNegativeIsServedWithCAtLeastZero() throws Exception {
        inventory.setSnapshot(InMemoryInventorySource.sample("v-intercept"));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        double[] q = {2, 4, 8, 16, 32};
        double[] l = {11.1583, 21.2483, 44.3351, 85.8991, 184.0523};
        assertThat(io.opensdrs.model.stats.LineFit.ordinary(q, l).intercept()).as("free least-squares C").isNegative();
        InjectorResult.Builder r = InjectorResult.newBuilder().setDatastore("ds-c").setRunId("run-curved")
                .setStartedMs(1_700_000_000_000L).setFinishedMs(1_700_000_060_000L).setIoSizeKb(4).setReadShare(1).setRandomness(1)
                .setMode(io.opensdrs.shared.agent.v1.InjectorMode.EMULATED).setValid(true).setAttempt(1);
        double sql = 0;
        double sqq = 0;
        for (int i = 0; i < q.length; i++) {
            r.addPoints(InjectorPoint.newBuilder().setTargetOio((int) q[i]).setMeasuredOio(q[i]).setIoCount(1000).setDurationS(5)
                    .setIops(q[i] / l[i] * 1000).setMeanLatencyMs(l[i]));
            sql += q[i] * l[i];
            sqq += q[i] * q[i];
        }
        // the agent's own fit (WorkloadInjector.fit is the same estimator)
        var agentFit = new io.opensdrs.model.pesto.OrdinaryLqEstimator().fit(q, l);
        assertThat(agentFit.intercept()).as("agent's C").isGreaterThanOrEqualTo(0);
        r.setFit(LqFit.newBuilder().setSlopeMsPerIo(agentFit.slope()).setInterceptMs(agentFit.intercept())
                .setRSquared(agentFit.rSquared()).setPoints(q.length));
        String id = "agent-" + UUID.randomUUID();
        try (SimulatedAgent a = agent(issue(id))) {
            a.register(id, "esx1", List.of("ds-c"));
            SimulatedAgent.Session s = a.openSession();
            s.send(AgentMessage.newBuilder().setSeq(1).setInjectorResult(r).build());
            assertThat(ack(s).getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
        }

        JsonNode m = call(HttpMethod.GET, "/api/v1/datastores/ds-c/model?kind=pesto", null, 200);
        assertThat(m.get("model").get("source").asText()).isEqualTo("injector");
        assertThat(m.get("model").get("valid").asBoolean()).isTrue();
        assertThat(m.get("model").get("parameters").get("C").asDouble()).isZero();
        assertThat(m.get("model").get("parameters").get("m").asDouble()).isCloseTo(sql / sqq, org.assertj.core.data.Offset.offset(1e-9));
        JsonNode history = call(HttpMethod.GET, "/api/v1/datastores/ds-c/models/history", null, 200);
        assertThat(history.size()).isPositive();
        history.forEach(h -> {
            if (h.get("parameters").has("C")) {
                assertThat(h.get("parameters").get("C").asDouble()).as("%s C", h.get("kind").asText()).isGreaterThanOrEqualTo(0);
            }
        });
        // a datastore without a model averages the others' lines (Pesto §5.1.3): C ≥ 0 there too
        JsonNode def = call(HttpMethod.GET, "/api/v1/datastores/ds-b/model?kind=pesto", null, 200);
        if ("default".equals(def.get("model").get("source").asText())) {
            assertThat(def.get("model").get("parameters").get("C").asDouble()).isGreaterThanOrEqualTo(0);
        }
    }

    /**
     * The agent's runs at 4 KiB and 256 KiB are fitted together, each size's newest run: the LQ
     * model learns the device's size factor, and a later 4-KiB run keeps the 256-KiB run's points.
     */
    @Test
    void injectorRunsOfTwoIoSizesAreFittedTogether() {
        // a device where a 256-KiB read weighs (32 + 256)/(32 + 4) = 8 reads of 4 KiB
        models.recordInjectorResult("agent-sizes", 1, injectorRun("ds-sizes", "run-4k", 4, 0.2, 1.0));
        assertThat(models.latestValid("ds-sizes", "pesto")).hasValueSatisfying(m -> {
            assertThat(m.fitPoints()).hasSize(5);
            assertThat(m.parameters()).doesNotContainKey("size_scale_kb");
        });
        models.recordInjectorResult("agent-sizes", 2, injectorRun("ds-sizes", "run-256k", 256, 0.2 * 8, 1.0));
        assertThat(models.latestValid("ds-sizes", "pesto")).hasValueSatisfying(m -> {
            assertThat(m.fitPoints()).hasSize(10);
            assertThat(m.parameters().get("m")).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.01));
            assertThat(m.parameters().get("size_scale_kb")).isBetween(32 / Math.sqrt(2), 32 * Math.sqrt(2));
            // a 1-MiB stream at 4 OIO: (32 + 1024)/36 = 29.3 reads' worth each
            assertThat(models.predict(m, new io.opensdrs.model.Workload(4, 1024, 1, 1)))
                    .isCloseTo(0.2 * 4 * 1056 / 36 + 1, org.assertj.core.data.Offset.offset(0.1 * (0.2 * 4 * 1056 / 36 + 1)));
        });
        models.recordInjectorResult("agent-sizes", 3, injectorRun("ds-sizes", "run-4k-next-day", 4, 0.21, 1.0));
        assertThat(models.latestValid("ds-sizes", "pesto")).hasValueSatisfying(m -> {
            assertThat(m.fitPoints()).hasSize(10);
            assertThat(m.parameters()).containsKey("size_scale_kb");
        });
    }

    /** A model fitted to many points (a busy datastore's passive observations) is stored whole (V40: TEXT, not VARCHAR(16000)). */
    @Test
    void aModelWithManyFitPointsIsStoredWhole() {
        InjectorResult.Builder r = InjectorResult.newBuilder().setDatastore("ds-large").setRunId("run-large")
                .setStartedMs(1_700_000_000_000L).setFinishedMs(1_700_000_060_000L).setIoSizeKb(4).setReadShare(1).setRandomness(1)
                .setMode(io.opensdrs.shared.agent.v1.InjectorMode.EMULATED).setValid(true).setAttempt(1);
        for (int i = 0; i < 1500; i++) {
            int target = 1 + (i % 64);
            double q = target + i / 1000.0;
            double l = 0.25 * q + 2 + (i % 7) * 0.01;
            r.addPoints(InjectorPoint.newBuilder().setTargetOio(target).setMeasuredOio(q).setIoCount(1000).setDurationS(5)
                    .setIops(q / l * 1000).setMeanLatencyMs(l));
        }
        r.setFit(LqFit.newBuilder().setSlopeMsPerIo(0.25).setInterceptMs(2).setRSquared(0.99).setPoints(1500));
        models.recordInjectorResult("agent-large", 1, r.build());

        Integer stored = jdbc.queryForObject("SELECT MAX(LENGTH(fit_points_json)) FROM datastore_model WHERE datastore_name = 'ds-large'",
                Integer.class);
        assertThat(stored).isGreaterThan(16_000);
        assertThat(models.latestValid("ds-large", "pesto")).hasValueSatisfying(m -> {
            assertThat(m.fitPoints()).hasSize(1500);
            assertThat(m.parameters().get("m")).isCloseTo(0.25, org.assertj.core.data.Offset.offset(0.01));
        });
    }

    // ------------------------------------------------------------------ inventory

    @Test
    void inventoryFullSyncThenIncrementalChanges() throws Exception {
        inventory.setSnapshot(InMemoryInventorySource.sample("v1"));
        JsonNode r = call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        assertThat(r.get("datastores").asInt()).isEqualTo(3);
        JsonNode clusters = call(HttpMethod.GET, "/api/v1/clusters", null, 200);
        assertThat(clusters.get(0).get("id").asText()).isEqualTo("group-p1");
        assertThat(clusters.get(0).get("datastores").asInt()).isEqualTo(2);
        JsonNode dsA = call(HttpMethod.GET, "/api/v1/datastores/ds-a", null, 200);
        assertThat(dsA.get("hosts")).hasSize(2);
        assertThat(dsA.get("disks").asInt()).isEqualTo(2);
        assertThat(dsA.get("datastore").get("space").get("utilizationPct").asDouble()).isCloseTo(60.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(call(HttpMethod.GET, "/api/v1/disks?datastore=ds-a", null, 200)).hasSize(2);

        // incremental: ds-c joins the pod, vm db is removed, web's second disk moves to ds-c
        inventory.queue(new InventoryChanges("v2", false, List.of(), List.of(),
                List.of(InMemoryInventorySource.ds("datastore-13", "ds-c", "group-p1", 500L << 30, 50L << 30)), List.of(),
                List.of(new InventorySnapshot.VmInfo("vm-31", "web", "host-21", List.of(
                        new InventorySnapshot.VirtualDiskInfo(2000, "[ds-a] web/web.vmdk", 40L << 30, "datastore-11"),
                        new InventorySnapshot.VirtualDiskInfo(2001, "[ds-c] web/web_1.vmdk", 100L << 30, "datastore-13")), "datastore-11", 0)),
                List.of(new InventoryChanges.Removed(InventoryChanges.Kind.VM, "vm-32"))));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=incremental", null, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1", null, 200).get("datastores").asInt()).isEqualTo(3);
        assertThat(call(HttpMethod.GET, "/api/v1/disks?datastore=ds-a", null, 200)).hasSize(1);
        assertThat(call(HttpMethod.GET, "/api/v1/disks?datastore=ds-c", null, 200).get(0).get("file").asText()).contains("web_1");

        // a bad answer from vCenter is refused whole and changes nothing
        Map<String, Object> before = fingerprint();
        inventory.queue(new InventoryChanges("v3", false, List.of(), List.of(),
                List.of(InMemoryInventorySource.ds("datastore-14", "ds-d", "group-p1", 100, 200)), List.of(), List.of(), List.of()));
        org.junit.jupiter.api.Assertions.assertThrows(io.opensdrs.server.inventory.InvalidInventoryException.class,
                () -> applicationSync().incrementalSync());
        assertThat(fingerprint()).isEqualTo(before);
    }

    @Autowired io.opensdrs.server.inventory.InventorySync inventorySync;

    io.opensdrs.server.inventory.InventorySync applicationSync() {
        return inventorySync;
    }

    // ------------------------------------------------------------------ settings and validation

    static Map<String, Object> validSettings() {
        Map<String, Object> s = new TreeMap<>();
        s.put("modelKind", "auto");
        s.put("automationLevel", "manual");
        s.put("spaceThresholdPct", 85);
        s.put("minSpaceDifferencePct", 5);
        s.put("latencyThresholdMs", 20);
        s.put("ioImbalanceThreshold", 5);
        s.put("loadBalanceIntervalMinutes", 960);
        s.put("ioLoadBalanceEnabled", true);
        s.put("keepVmdksTogether", true);
        s.put("congestionAlpha", 0.9);
        return s;
    }

    @Test
    void settingsRoundTrip() throws Exception {
        inventory.setSnapshot(InMemoryInventorySource.sample("v-settings"));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("spaceThresholdPct").asInt()).isEqualTo(80);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", validSettings(), 200);
        assertThat(call(HttpMethod.GET, "/api/v1/clusters/group-p1/settings", null, 200).get("spaceThresholdPct").asInt()).isEqualTo(85);
    }

    /** (method, path, body, field the 400 must name) for every endpoint. */
    static List<Object[]> invalidRequests() {
        List<Object[]> cases = new ArrayList<>();
        String bad = "/api/v1/clusters/bad!id";
        cases.add(new Object[]{HttpMethod.GET, bad, null, "clusterId"});
        cases.add(new Object[]{HttpMethod.GET, bad + "/settings", null, "clusterId"});
        cases.add(new Object[]{HttpMethod.GET, bad + "/model-selection", null, "clusterId"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/clusters/group-p1/recommendations?limit=0", null, "limit"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/clusters/group-p1/history?limit=abc", null, "limit"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/clusters/group-p1/faults?limit=5000", null, "limit"});
        String[][] settingsFields = {{"modelKind", "\"no-such-model\""}, {"automationLevel", "\"sometimes\""},
                {"spaceThresholdPct", "49"}, {"minSpaceDifferencePct", "0"}, {"latencyThresholdMs", "101"},
                {"ioImbalanceThreshold", "0"}, {"loadBalanceIntervalMinutes", "10"}, {"ioLoadBalanceEnabled", "null"},
                {"keepVmdksTogether", "\"maybe\""}, {"congestionAlpha", "1.0"}};
        for (String[] f : settingsFields) {
            cases.add(new Object[]{HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", f, f[0]});
        }
        cases.add(new Object[]{HttpMethod.PUT, bad + "/settings", validSettings(), "clusterId"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores?cluster=bad!id", null, "cluster"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/ds-a/percentiles?window=PT7M", null, "window"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/ds-a/percentiles?window=soon", null, "window"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/ds-a/model?kind=astrology", null, "kind"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/ds-a/models/history?limit=-1", null, "limit"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/ds-a/percentiles/history?metric=TEMPERATURE", null, "metric"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/datastores/" + "x".repeat(300), null, "name"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/disks?limit=0", null, "limit"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/disks?datastore=" + "x".repeat(300), null, "datastore"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/disks/web/-1/percentiles", null, "diskKey"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/disks/web/2000/percentiles?window=P1Y", null, "window"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/agents", "{\"agentId\": \"has space\"}", "agentId"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/agents", "{}", "agentId"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/agents", "{\"agentId\": \"ok\", \"extra\": 1}", "extra"});
        cases.add(new Object[]{HttpMethod.GET, "/api/v1/agents/bad!id", null, "agentId"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/agents/bad!id/revoke", null, "agentId"});
        cases.add(new Object[]{HttpMethod.POST, "/api/v1/inventory/sync?kind=sometimes", null, "kind"});
        return cases;
    }

    @Test
    void everyEndpointAnswersAnInvalidFieldWith400NamingItAndChangesNothing() throws Exception {
        inventory.setSnapshot(InMemoryInventorySource.sample("v-validation"));
        call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
        call(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", validSettings(), 200);
        Map<String, Object> before = fingerprint();
        for (Object[] c : invalidRequests()) {
            Object body = c[2];
            if (body instanceof String[]) {
                String[] f = (String[]) body;
                Map<String, Object> s = validSettings();
                String raw = json.writeValueAsString(s);
                body = raw.replaceFirst("\"" + f[0] + "\":[^,}]*", "\"" + f[0] + "\":" + f[1]);
            }
            JsonNode problem = call((HttpMethod) c[0], (String) c[1], body, 400);
            assertThat(problem.path("field").asText()).as(c[0] + " " + c[1] + " " + body + " -> " + problem).isEqualTo(c[3]);
            assertThat(problem.get("errors")).isNotEmpty();
            assertThat(problem.get("status").asInt()).isEqualTo(400);
        }
        assertThat(fingerprint()).isEqualTo(before);
    }

    // ------------------------------------------------------------------ metrics

    @Test
    void prometheusExposesIngestionAndRunMetrics() throws Exception {
        String id = "agent-" + UUID.randomUUID();
        try (SimulatedAgent a = agent(issue(id))) {
            a.register(id, "esx-m", List.of("ds-m"));
            SimulatedAgent.Session s = a.openSession();
            s.send(stats(1, SimulatedAgent.batch("esx-m", "vm", 5, List.of("ds-m"), 1_700_000_000_000L, new Random(5))));
            ack(s);
        }
        ResponseEntity<String> r = admin().getForEntity("/actuator/prometheus", String.class);
        assertThat(r.getStatusCode().value()).isEqualTo(200);
        assertThat(r.getBody()).contains("sdrs_ingest_samples_total", "sdrs_ingest_messages_total", "sdrs_migrations_in_flight",
                "sdrs_models_oldest_age_seconds", "sdrs_run_duration_seconds");
    }
}
