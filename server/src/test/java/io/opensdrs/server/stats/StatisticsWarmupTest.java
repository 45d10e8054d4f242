package io.opensdrs.server.stats;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.ingest.SimulatedAgent;
import io.opensdrs.server.stats.vcenter.VCenterStatistics;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * B9: the server is healthy while the statistics are rebuilt after a start, and what arrives
 * meanwhile is counted exactly once. The replay is held half-way (a repository whose stored batches
 * are two batches with a latch between them, standing in for a day of statistics): health answers
 * 200, the percentiles answer 503 naming the warm-up, an agent's call waits (sdrs.grpc.warmup-wait) and
 * is then refused UNAVAILABLE, and a read of
 * vCenter's counters waits; once the replay ends, the window read meanwhile is stored and folded
 * once, the window it repeats from the replay not at all.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
        "sdrs.grpc.warmup-wait=PT0.5S",
})
@Import(StatisticsWarmupTest.HeldReplay.class)
class StatisticsWarmupTest {

    /** A multiple of an hour: every window below falls in the 1-h window's earlier pane. */
    static final long T0 = 1_700_006_400_000L;
    static final String DS = "ds-warm";
    /** Without the background rebuild the start waits this long for the held replay, then the test fails. */
    static final long HOLD_SECONDS = 20;

    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final CountDownLatch HALF_REPLAYED = new CountDownLatch(1);
    static int grpcPort;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry r) throws IOException {
        String dir = Files.createTempDirectory("sdrs-warmup-").toString();
        r.add("sdrs.data-dir", () -> dir);
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            grpcPort = s.getLocalPort();
        }
        r.add("sdrs.grpc.port", () -> grpcPort);
    }

    /** The stored batches as the replay reads them: two, the second only once the test releases it. */
    @TestConfiguration
    static class HeldReplay {
        @Bean
        @Primary
        StatisticsRepository heldRepository(JdbcTemplate jdbc) {
            return new StatisticsRepository(jdbc) {
                @Override
                public void forEach(Consumer<DiskStatsBatch> consumer) {
                    consumer.accept(batch(0, 0));
                    HALF_REPLAYED.countDown();
                    try {
                        RELEASE.await(HOLD_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    consumer.accept(batch(1, 0));
                }
            };
        }
    }

    /** Period {@code p}'s 20-s windows of disks {@code first..first+9}, all on {@link #DS}. */
    static DiskStatsBatch batch(int p, int first) {
        DiskStatsBatch.Builder b = DiskStatsBatch.newBuilder().setHost(VCenterStatistics.SOURCE);
        for (int d = first; d < first + 10; d++) {
            b.addSamples(DiskWindowStats.newBuilder().setVm("vm-" + d).setDiskKey(2000).setDatastore(DS)
                    .setWindowStartMs(T0 + p * 20_000L).setWindowSeconds(20).setIoCount(100 + d).setReads(50)
                    .setWrites(50 + d).setMeanLatencyMs(1 + d).setMeanOutstandingIos(2).setMeanIoSizeKb(16).build());
        }
        return b.build();
    }

    @Autowired TestRestTemplate rest;
    @Autowired StatisticsWarmup warmup;
    @Autowired WorkloadPercentiles percentiles;
    @Autowired DiskWindowIngestion ingestion;
    @Autowired JdbcTemplate jdbc;

    @Test
    void healthyWhileTheReplayRunsAndWhatArrivesMeanwhileCountsOnce() throws Exception {
        assertThat(HALF_REPLAYED.await(30, TimeUnit.SECONDS)).isTrue();
        AdminApi admin = new AdminApi(rest);
        String percentilesPath = "/api/v1/datastores/" + DS + "/percentiles?window=PT1H";

        // the replay is held half-way: the server answers, and says the percentiles are warming
        assertThat(warmup.warming()).as("the replay is still held").isTrue();
        ResponseEntity<String> health = rest.getForEntity("/actuator/health", String.class);
        assertThat(health.getStatusCode().value()).as(health.getBody()).isEqualTo(200);
        JsonNode warming = admin.callAnyStatus(HttpMethod.GET, percentilesPath, null);
        assertThat(warming.path("status").asInt()).as(warming.toString()).isEqualTo(503);
        assertThat(warming.path("title").asText()).isEqualTo("Statistics warming");
        assertThat(warming.path("replayedSamples").asLong()).isEqualTo(10);
        try (SimulatedAgent agent = new SimulatedAgent("localhost", grpcPort, "no-token-needed-to-be-refused")) {
            long t = System.nanoTime();
            assertThatThrownBy(() -> agent.register("a", "esx-1", List.of(DS)))
                    .isInstanceOfSatisfying(StatusRuntimeException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
            assertThat((System.nanoTime() - t) / 1_000_000).as("ms the call waited").isGreaterThanOrEqualTo(450);
        }

        // vCenter's next read: the window of period 1 the replay has yet to fold (not stored again),
        // and disks 10..19's first windows (stored and folded once, after the replay)
        DiskStatsBatch read = DiskStatsBatch.newBuilder(batch(1, 0)).addAllSamples(batch(1, 10).getSamplesList()).build();
        AtomicReference<DiskStatsBatch> stored = new AtomicReference<>();
        Thread reader = new Thread(() -> stored.set(ingestion.ingest(VCenterStatistics.SOURCE, read, b -> { })));
        reader.start();
        reader.join(500);
        assertThat(reader.isAlive()).as("the read waits for the replay").isTrue();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sample_batch", Long.class)).isZero();

        RELEASE.countDown();
        reader.join(30_000);
        assertThat(reader.isAlive()).isFalse();
        assertThat(warmup.warming()).isFalse();
        assertThat(stored.get().getSamplesCount()).as("only disks 10..19's windows are new").isEqualTo(10);

        JsonNode p = admin.call(HttpMethod.GET, percentilesPath, null, 200);
        assertThat(p.path("samples").asLong()).as(p.toString()).isEqualTo(30);
        assertThat(percentiles.folded()).isEqualTo(30);
        assertThat(admin.call(HttpMethod.GET, "/actuator/health", null, 200).toString()).contains("UP");
        try (SimulatedAgent agent = new SimulatedAgent("localhost", grpcPort, "not-a-token")) {
            assertThatThrownBy(() -> agent.register("a", "esx-1", List.of(DS)))
                    .isInstanceOfSatisfying(StatusRuntimeException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        }
    }
}
