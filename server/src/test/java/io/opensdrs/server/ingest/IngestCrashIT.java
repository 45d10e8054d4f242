package io.opensdrs.server.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.ServerMessage;
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
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance 4: kill -9 of the server during ingestion, restart on the same H2 file: no accepted
 * sample lost, none counted twice. The server is the repackaged jar in its own process; the test
 * is the agent, and compares what it was told (acks) with what the server counts.
 */
class IngestCrashIT {

    static final int MESSAGES = 600;
    static final int SAMPLES_PER_MESSAGE = 200;
    static final long T0 = 1_700_006_400_000L; // 1 h after a 16-h boundary: every sample in one pane of each window

    final ObjectMapper json = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();
    int httpPort;
    int grpcPort;
    Path dataDir;

    @Test
    void killDashNineDuringIngestionLosesNothingAndCountsNothingTwice() throws Exception {
        dataDir = Files.createTempDirectory("sdrs-crash-");
        httpPort = freePort();
        grpcPort = freePort();
        Process server = start("run1");
        String token = post("/api/v1/agents", "{\"agentId\":\"crash-agent\"}").get("token").asText();

        // phase 1: stream until the server is killed
        int acceptedBeforeKill = 0;
        long maxAckedSeq = 0;
        long nextSeq = 1;
        try (SimulatedAgent agent = new SimulatedAgent("localhost", grpcPort, token)) {
            assertThat(agent.register("crash-agent", "esx-crash", List.of("ds-crash")).getLastAcceptedSeq()).isZero();
            SimulatedAgent.Session s = agent.openSession();
            ArrayDeque<Long> inFlight = new ArrayDeque<>();
            boolean killed = false;
            while (nextSeq <= MESSAGES) {
                while (inFlight.size() < 16 && nextSeq <= MESSAGES) {
                    s.send(message(nextSeq));
                    inFlight.add(nextSeq++);
                }
                ServerMessage m = s.take(10_000);
                if (m == null) {
                    break; // the stream died with the server
                }
                assertThat(m.getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
                acceptedBeforeKill++;
                maxAckedSeq = Math.max(maxAckedSeq, m.getAck().getSeq());
                inFlight.remove(m.getAck().getSeq());
                if (acceptedBeforeKill == 150 && !killed) {
                    killed = true;
                    server.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no flush
                    server.waitFor();
                }
            }
            assertThat(killed).isTrue();
        }
        assertThat(maxAckedSeq).isGreaterThanOrEqualTo(150);

        // phase 2: restart on the same database; the agent resumes where the server says, and also
        // resends a few messages it had been told were accepted: they must come back DUPLICATE
        server = start("run2");
        long duplicates = 0;
        long lastAccepted;
        try (SimulatedAgent agent = new SimulatedAgent("localhost", grpcPort, token)) {
            lastAccepted = agent.register("crash-agent", "esx-crash", List.of("ds-crash")).getLastAcceptedSeq();
            assertThat(lastAccepted).as("every seq acked ACCEPTED before the kill is durable").isGreaterThanOrEqualTo(maxAckedSeq);
            SimulatedAgent.Session s = agent.openSession();
            for (long seq = maxAckedSeq - 5; seq <= MESSAGES; seq++) {
                s.send(message(seq));
                ServerMessage m = s.take(20_000);
                assertThat(m).as("ack for seq " + seq).isNotNull();
                if (seq <= lastAccepted) {
                    assertThat(m.getAck().getStatus()).isEqualTo(AckStatus.DUPLICATE);
                    duplicates++;
                } else {
                    assertThat(m.getAck().getStatus()).isEqualTo(AckStatus.ACCEPTED);
                }
            }
            s.complete();
        }
        assertThat(duplicates).isGreaterThanOrEqualTo(6);

        // agent side: every seq 1..MESSAGES was acknowledged exactly once as applied (ACCEPTED, or
        // DUPLICATE of one applied before the kill whose ack may have been lost)
        long agentSideSamples = (long) MESSAGES * SAMPLES_PER_MESSAGE;
        JsonNode rec = get("/api/v1/agents/crash-agent");
        assertThat(rec.get("lastAcceptedSeq").asLong()).isEqualTo(MESSAGES);
        assertThat(rec.get("acceptedMessages").asLong()).isEqualTo(MESSAGES);
        assertThat(rec.get("acceptedSamples").asLong()).isEqualTo(agentSideSamples);
        // the percentiles were rebuilt from the stored raw samples after the restart: same count
        JsonNode p = get("/api/v1/datastores/ds-crash/percentiles?window=PT16H");
        assertThat(p.get("samples").asLong()).isEqualTo(agentSideSamples);
        System.out.printf("crash test: %d acks before kill -9 (max seq %d); server had %d durable after restart; "
                        + "%d resends answered DUPLICATE; agent-side samples %d, server-side %d, in percentiles %d%n",
                acceptedBeforeKill, maxAckedSeq, lastAccepted, duplicates, agentSideSamples,
                rec.get("acceptedSamples").asLong(), p.get("samples").asLong());
        server.destroy();
        server.waitFor();
    }

    AgentMessage message(long seq) {
        Random rnd = new Random(seq);
        return AgentMessage.newBuilder().setSeq(seq).setDiskStats(SimulatedAgent.batch("esx-crash", "vm", SAMPLES_PER_MESSAGE,
                List.of("ds-crash"), T0 + (seq % 60) * 20_000L, rnd)).build();
    }

    Process start(String name) throws Exception {
        String jar = System.getProperty("sdrs.server.jar", "target/sdrs-server.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = new File("target/crash-" + name + ".log");
        Process p = new ProcessBuilder(java, "-Xmx512m", "-jar", jar,
                "--sdrs.data-dir=" + dataDir, "--server.port=" + httpPort, "--sdrs.grpc.port=" + grpcPort,
                "--sdrs.security.users[0].name=admin", "--sdrs.security.users[0].password=pw")
                .redirectErrorStream(true).redirectOutput(log).start();
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            assertThat(p.isAlive()).as("server process alive, see " + log).isTrue();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return p;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        p.destroyForcibly();
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
