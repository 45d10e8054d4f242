package io.opensdrs.agent.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.shared.agent.v1.CongestionThresholds;
import io.opensdrs.shared.agent.v1.ContractVersion;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.InjectorRequest;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import io.opensdrs.shared.agent.v1.VisibleDatastore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Host-agent acceptance 5: the server is killed (SIGKILL) and restarted while the agent streams;
 * every sample arrives once — the server's accepted-sample count equals the agent's. The server is
 * the real repackaged jar (server/target/sdrs-server.jar, or -Dsdrs.server.jar) in its own
 * process on its own H2 file; the agent side is the agent's own {@link ServerSession} and
 * {@link OutboundBuffer}, fed with synthetic per-disk statistics.
 */
class ServerRestartIT {

    static final int BATCHES = 400;
    static final int SAMPLES_PER_BATCH = 50;
    static final long T0 = 1_700_006_400_000L;

    final ObjectMapper json = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();
    final List<Process> servers = new ArrayList<>();
    int httpPort;
    int grpcPort;
    Path dataDir;

    @AfterEach
    void stopServers() throws InterruptedException {
        for (Process p : servers) {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor();
            }
        }
    }

    @Test
    void serverKilledAndRestartedMidStreamEverySampleArrivesOnce() throws Exception {
        Path jar = Path.of(System.getProperty("sdrs.server.jar", "../server/target/sdrs-server.jar"));
        // the reactor builds the server before this module (host-agent/pom.xml): a missing jar is a failure, not a skip
        assertThat(jar).as("the server jar (./mvnw -pl server -am package)").isRegularFile();
        dataDir = Files.createTempDirectory("sdrs-agent-restart-");
        httpPort = freePort();
        grpcPort = freePort();
        Process server = start(jar, "run1");
        String token = post("/api/v1/agents", "{\"agentId\":\"restart-agent\"}").get("token").asText();

        List<String> events = new CopyOnWriteArrayList<>();
        AgentEvents log = (ds, type, details) -> events.add(type + " " + details);
        OutboundBuffer buffer = new OutboundBuffer(100_000);
        RegisterRequest registration = RegisterRequest.newBuilder().setAgentId("restart-agent").setHost("esx-restart")
                .setAgentVersion("test").setContractMinor(ContractVersion.CONTRACT_MINOR_VERSION.getNumber())
                .addDatastores(VisibleDatastore.newBuilder().setName("ds-restart").setAccessible(true)).build();
        long killedAfterAccepted;
        long t0 = System.nanoTime();
        try (ServerSession session = new ServerSession("localhost:" + grpcPort, new AgentCredential("restart-agent", token),
                () -> registration, buffer, new IgnoreDirectives(), log).start()) {
            long agentSideSamples = 0;
            boolean killed = false;
            killedAfterAccepted = -1;
            for (int k = 0; k < BATCHES; k++) {
                session.send(batch(k));
                agentSideSamples += SAMPLES_PER_BATCH;
                Thread.sleep(10); // a steady stream, as windows arrive from many disks
                if (!killed && session.accepted() >= 100) {
                    killed = true;
                    killedAfterAccepted = session.accepted();
                    server.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
                    server.waitFor();
                    // the agent keeps producing while the server is away; it restarts below
                    new Thread(() -> {
                        try {
                            start(jar, "run2");
                        } catch (Exception e) {
                            events.add("restart-failed " + e);
                        }
                    }).start();
                }
            }
            assertThat(killed).as("the server was killed mid-stream").isTrue();
            assertThat(session.drain(180_000)).as("every report acknowledged; events " + events).isTrue();
            long lastSeq = buffer.lastSeq();

            JsonNode rec = get("/api/v1/agents/restart-agent");
            System.out.printf("acceptance 5: kill -9 after %d acks; agent sent %d samples in %d batches (%d reports "
                            + "with buffer reports, last seq %d), %d sessions, acks ACCEPTED %d DUPLICATE %d REJECTED %d, "
                            + "overflow %d; server accepted %d samples in %d messages, last seq %d (%.1f s)%n",
                    killedAfterAccepted, agentSideSamples, BATCHES, buffer.enqueued(), lastSeq, session.sessionsOpened(),
                    session.accepted(), session.duplicates(), session.rejected(), buffer.droppedOverflow(),
                    rec.get("acceptedSamples").asLong(), rec.get("acceptedMessages").asLong(),
                    rec.get("lastAcceptedSeq").asLong(), (System.nanoTime() - t0) / 1e9);
            assertThat(buffer.droppedOverflow()).isZero();
            assertThat(session.rejected()).isZero();
            assertThat(session.sessionsOpened()).as("reconnected after the restart").isGreaterThanOrEqualTo(2);
            assertThat(rec.get("acceptedSamples").asLong()).isEqualTo(agentSideSamples);
            assertThat(rec.get("acceptedMessages").asLong()).isEqualTo(buffer.enqueued());
            assertThat(rec.get("lastAcceptedSeq").asLong()).isEqualTo(lastSeq);
        }
    }

    static DiskStatsBatch batch(int k) {
        DiskStatsBatch.Builder b = DiskStatsBatch.newBuilder().setHost("esx-restart");
        for (int d = 0; d < SAMPLES_PER_BATCH; d++) {
            long ios = 1000 + d;
            b.addSamples(DiskWindowStats.newBuilder().setVm("vm-" + d).setDiskKey(2000).setDatastore("ds-restart")
                    .setDiskFile("[ds-restart] vm-" + d + "/vm-" + d + ".vmdk")
                    .setWindowStartMs(T0 + (k % 60) * 20_000L).setWindowSeconds(20)
                    .setIoCount(ios).setReads(ios / 2).setWrites(ios - ios / 2).setBytesRead(ios / 2 * 4096)
                    .setBytesWritten((ios - ios / 2) * 4096).setMeanOutstandingIos(2).setMeanLatencyMs(3 + d % 7)
                    .setMeanIoSizeKb(4).setReadShare(0.5).setRandomness(0.9));
        }
        return b.build();
    }

    static final class IgnoreDirectives implements ServerSession.Directives {
        @Override
        public void throttleLimits(ThrottleLimits limits) {
        }

        @Override
        public void injectorRequest(InjectorRequest request) {
        }

        @Override
        public void congestionThresholds(CongestionThresholds thresholds) {
        }
    }

    Process start(Path jar, String name) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = new File("target/agent-restart-server-" + name + ".log");
        Process p = new ProcessBuilder(java, "-Xmx512m", "-jar", jar.toString(),
                "--sdrs.data-dir=" + dataDir, "--server.port=" + httpPort, "--sdrs.grpc.port=" + grpcPort,
                "--sdrs.security.users[0].name=admin", "--sdrs.security.users[0].password=pw")
                .redirectErrorStream(true).redirectOutput(log).start();
        synchronized (servers) {
            servers.add(p);
        }
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline) {
            assertThat(p.isAlive()).as("server process alive, see " + log).isTrue();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + httpPort + "/actuator/health")).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return p;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("server did not start, see " + log);
    }

    JsonNode get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path)).GET());
    }

    JsonNode post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    JsonNode send(HttpRequest.Builder b) throws Exception {
        String auth = Base64.getEncoder().encodeToString("admin:pw".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(b.header("Authorization", "Basic " + auth).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return json.readTree(r.body());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
