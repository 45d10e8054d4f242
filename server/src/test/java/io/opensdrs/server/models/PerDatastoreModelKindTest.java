package io.opensdrs.server.models;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.StrategyRegistry;
import io.opensdrs.model.Workload;
import io.opensdrs.model.romano.ShortCalibrationDesign;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.balancing.ClusterStateAssembler;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.ingest.AgentMessageIngestion;
import io.opensdrs.shared.agent.v1.Ack;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.LqFit;
import io.opensdrs.shared.agent.v1.WorkloadPoint;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model kind is chosen per datastore by held-out accuracy (SPEC §3): two datastores of one
 * cluster, both measured by the agent's injector and its Romano calibration design, then by
 * production windows the models have not seen, end with different kinds, each the more accurate
 * on its own held-out windows.
 *
 * <ul>
 *   <li>ds-a is a device where writes and random IOs cost more per IO (2 ms and 1 ms besides 0.2 ms
 *       and 2 µs per KiB), and its VMs write and read sequentially: Pesto's line, measured with
 *       random reads, cannot know it; Romano's R:O and X:O terms can.</li>
 *   <li>ds-b is a device whose time per IO grows with the square root of the IO size, and whose VMs
 *       issue 4-KiB random reads: the kinds fitted to the injector's reads (Pesto's 4-KiB line, the
 *       queueing model) are measured at exactly that workload, while Romano's terms, linear in Z and
 *       fitted from 4 KiB to 1 MiB, miss it at 4 KiB.</li>
 * </ul>
 * A choice per cluster (the least error pooled over both) gives both datastores one kind, the
 * one datastore's best and the other's worse.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.plugin.register=false",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
})
public class PerDatastoreModelKindTest {

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) {
        try {
            String dir = Files.createTempDirectory("sdrs-kinds-h2-").toString();
            r.add("sdrs.data-dir", () -> dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TestConfiguration
    static class Fixtures {
        @Bean
        InMemoryInventorySource inventorySource() {
            InMemoryInventorySource source = new InMemoryInventorySource();
            source.setSnapshot(InMemoryInventorySource.sample("kinds"));
            return source;
        }
    }

    @Autowired InventorySync sync;
    @Autowired DatastoreModels models;
    @Autowired ModelRepository observations;
    @Autowired ClusterStateAssembler assembler;
    @Autowired TestRestTemplate rest;
    @Autowired AgentMessageIngestion ingestion;

    /** Writes and random IOs cost more per IO. */
    static double writeSensitive(Workload w) {
        return 0.5 + w.outstandingIos() * (0.2 + 0.002 * w.ioSizeKb() + 2.0 * (1 - w.readFraction()) + 1.0 * w.randomFraction());
    }

    /** Time per IO grows with the square root of the IO size; reads and writes, random or not, alike. */
    static double sizeConcave(Workload w) {
        return 1 + w.outstandingIos() * (0.3 + 0.6 * Math.sqrt(w.ioSizeKb() / 4));
    }

    @Test
    void twoDatastoresOfOneClusterEndWithDifferentKindsEachTheMoreAccurateOnItsHeldOutWindows() throws Exception {
        sync.fullSync();
        AdminApi api = new AdminApi(rest);
        api.call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", "esx1"), 201);
        Random noise = new Random(41);
        long seq = 1;
        for (String ds : new String[] {"ds-a", "ds-b"}) {
            ToDoubleFunction<Workload> device = ds.equals("ds-a") ? PerDatastoreModelKindTest::writeSensitive
                    : PerDatastoreModelKindTest::sizeConcave;
            // as the agent's session delivers them: checked, numbered, applied in one transaction
            for (int kb : new int[] {4, 256}) {
                assertAccepted(ingestion.apply("esx1", message(seq++, injectorRun(ds, kb, device))));
            }
            for (Workload point : ShortCalibrationDesign.runOrder()) {
                assertAccepted(ingestion.apply("esx1", message(seq++, calibrationPoint(ds, point,
                        device.applyAsDouble(point) * (1 + 0.02 * noise.nextGaussian())))));
            }
        }
        assertThat(models.latestValid("ds-a", "romano")).hasValueSatisfying(m -> {
            assertThat(m.source()).isEqualTo("calibration");
            assertThat(m.fitPoints()).hasSize(10 + 150);
        });
        assertThat(models.latestValid("ds-a", "pesto")).hasValueSatisfying(m -> assertThat(m.fitPoints()).hasSize(10));

        // production windows the fits have not seen, as read from vCenter's counters
        long t = 1_700_000_000_000L;
        for (int i = 0; i < 12; i++) {
            Workload a = new Workload(2 + i, 8 + 4 * i, 0.3 + 0.04 * i, 0.2 + 0.05 * i);
            Workload b = new Workload(2 + 2 * i, 4, 1, 1);
            observations.insertObservation("ds-a", "vcenter", t + 20_000L * i, 5000, a.outstandingIos(),
                    writeSensitive(a) * (1 + 0.02 * noise.nextGaussian()), a.ioSizeKb(), a.readFraction(), a.randomFraction());
            observations.insertObservation("ds-b", "vcenter", t + 20_000L * i, 5000, b.outstandingIos(),
                    sizeConcave(b) * (1 + 0.02 * noise.nextGaussian()), b.ioSizeKb(), b.readFraction(), b.randomFraction());
        }
        models.refresh();
        // refreshed online from the production windows, keeping the agent's calibration
        assertThat(models.latestValid("ds-a", "romano")).hasValueSatisfying(m -> {
            assertThat(m.source()).isEqualTo("passive");
            assertThat(m.fitPoints()).hasSize(12 + 10 + 150);
        });
        assertThat(models.latestValid("ds-a", "pesto")).hasValueSatisfying(m -> assertThat(m.fitPoints()).hasSize(12 + 10));

        Map<String, Double> errorsA = models.heldOutError(java.util.List.of("ds-a"));
        Map<String, Double> errorsB = models.heldOutError(java.util.List.of("ds-b"));
        Map<String, Double> pooled = models.heldOutError(java.util.List.of("ds-a", "ds-b"));
        System.out.printf("held-out mean |error| ms: ds-a %s; ds-b %s; pooled %s%n", errorsA, errorsB, pooled);
        assertThat(errorsA.get("romano")).as("ds-a: %s", errorsA).isLessThan(errorsA.get("pesto"));
        assertThat(errorsB.get("pesto")).as("ds-b: %s", errorsB).isLessThan(errorsB.get("romano"));
        String kindA = models.selectKind("auto", "ds-a");
        String kindB = models.selectKind("auto", "ds-b");
        assertThat(kindA).isEqualTo("romano").isEqualTo(argmin(errorsA));
        // the kinds fitted to the injector's reads (Pesto's line; the queueing model, fitted to the same reads)
        assertThat(kindB).isNotEqualTo("romano").isEqualTo(argmin(errorsB));
        // one choice for the cluster (its pooled error's least) would give one of the two a kind it predicts worse
        assertThat(kindA).isNotEqualTo(kindB);
        assertThat(java.util.List.of(kindA, kindB)).as("pooled: %s", pooled).contains(argmin(pooled));

        // the engine gets each datastore's own kind; the mixed cluster runs pesto
        ClusterStateAssembler.Assembled assembled = assembler.assemble("group-p1");
        Map<String, String> engineKinds = new LinkedHashMap<>();
        for (DatastoreState d : assembled.state().datastores()) {
            engineKinds.put(assembled.datastoreName(d.id()), d.model().name());
        }
        assertThat(engineKinds).containsEntry("ds-a", "romano").containsEntry("ds-b", kindB);
        assertThat(assembled.state().datastores()).filteredOn(d -> d.id().equals("datastore-11"))
                .singleElement().satisfies(d -> assertThat(d.model().isCalibrated()).isTrue());
        assertThat(StrategyRegistry.defaultName(assembled.state())).isEqualTo("pesto");

        // and the administrator reads it through the REST API
        JsonNode a = api.call(HttpMethod.GET, "/api/v1/datastores/ds-a/model", null, 200);
        JsonNode b = api.call(HttpMethod.GET, "/api/v1/datastores/ds-b/model", null, 200);
        assertThat(a.path("clusterModelKind").asText()).isEqualTo("romano");
        assertThat(a.path("model").path("kind").asText()).isEqualTo("romano");
        assertThat(b.path("clusterModelKind").asText()).isEqualTo(kindB);
        assertThat(b.path("model").path("kind").asText()).isEqualTo(kindB);
        JsonNode selection = api.call(HttpMethod.GET, "/api/v1/clusters/group-p1/model-selection", null, 200);
        assertThat(selection.path("selectedByDatastore").path("ds-a").asText()).isEqualTo("romano");
        assertThat(selection.path("selectedByDatastore").path("ds-b").asText()).isEqualTo(kindB);
        assertThat(selection.path("selected").asText()).startsWith("per datastore: ").contains("romano", kindB);
    }

    private static AgentMessage message(long seq, InjectorResult r) {
        return AgentMessage.newBuilder().setSeq(seq).setInjectorResult(r).build();
    }

    private static void assertAccepted(Ack ack) {
        assertThat(ack.getStatus()).as("ack %s: %s", ack.getSeq(), ack.getReason()).isEqualTo(AckStatus.ACCEPTED);
    }

    private static String argmin(Map<String, Double> errors) {
        return Collections.min(errors.entrySet(), Map.Entry.comparingByValue()).getKey();
    }

    /** Pesto's injector run at one IO size: random reads at OIO 2..32 (Pesto §5.1). */
    public static InjectorResult injectorRun(String ds, int kb, ToDoubleFunction<Workload> device) {
        InjectorResult.Builder r = InjectorResult.newBuilder().setDatastore(ds).setRunId(ds + "-" + kb)
                .setStartedMs(1_699_999_000_000L).setFinishedMs(1_699_999_060_000L).setIoSizeKb(kb).setReadShare(1).setRandomness(1)
                .setMode(InjectorMode.EMULATED).setValid(true).setAttempt(1);
        for (int q = 2; q <= 32; q *= 2) {
            double l = device.applyAsDouble(new Workload(q, kb, 1, 1));
            r.addPoints(InjectorPoint.newBuilder().setTargetOio(q).setMeasuredOio(q).setIoCount(1000).setDurationS(5)
                    .setIops(q / l * 1000).setMeanLatencyMs(l));
        }
        return r.setFit(LqFit.newBuilder().setRSquared(1).setPoints(5)).build();
    }

    /** One point of the agent's calibration design, as the agent reports it. */
    static InjectorResult calibrationPoint(String ds, Workload w, double latencyMs) {
        return InjectorResult.newBuilder().setDatastore(ds).setRunId(ds + "-" + w).setStartedMs(1_699_999_100_000L)
                .setFinishedMs(1_699_999_101_000L).setIoSizeKb((int) w.ioSizeKb()).setReadShare(w.readFraction())
                .setRandomness(w.randomFraction()).setMode(InjectorMode.EMULATED).setValid(true).setAttempt(1)
                .setDesignPoint(WorkloadPoint.newBuilder().setOutstandingIos(w.outstandingIos()).setIoSizeKb(w.ioSizeKb())
                        .setReadPct(w.readFraction() * 100).setRandomPct(w.randomFraction() * 100))
                .addPoints(InjectorPoint.newBuilder().setTargetOio((int) w.outstandingIos()).setMeasuredOio(w.outstandingIos())
                        .setIoCount(500).setDurationS(1).setIops(w.outstandingIos() / latencyMs * 1000).setMeanLatencyMs(latencyMs))
                .build();
    }
}
