package io.opensdrs.server.models;

import io.opensdrs.model.Workload;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.ingest.AgentMessageIngestion;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Each model kind is scored on its prediction for an observation's disks, as the balancer asks it
 * ({@link io.opensdrs.model.DatastoreModel#predict(List)}), not for their datastore-wide aggregate.
 * The device is a FIFO over one link: every IO in flight waits for all the bytes ahead of it, so
 * all its disks see one latency, Σ O·(0.02 + 0.004·Z) ms. Its disks mix 4-KiB and 1-MiB reads.
 * The queueing network predicts such a mix far lower class by class than as one averaged class
 * (each class's service time is evaluated at the station's number of requests, not their bytes),
 * so the two scorings differ by milliseconds, and only the first is what the balancer will act on.
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
class HeldOutScoringTest {

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) {
        try {
            String dir = Files.createTempDirectory("sdrs-scoring-h2-").toString();
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
            source.setSnapshot(InMemoryInventorySource.sample("scoring"));
            return source;
        }
    }

    @Autowired InventorySync sync;
    @Autowired DatastoreModels models;
    @Autowired ModelRepository observations;
    @Autowired TestRestTemplate rest;
    @Autowired AgentMessageIngestion ingestion;

    /** One latency for every IO in flight: the bytes ahead of it over the link. */
    static double fifoLink(List<Workload> disks) {
        double l = 0;
        for (Workload w : disks) {
            l += w.outstandingIos() * (0.02 + 0.004 * w.ioSizeKb());
        }
        return l;
    }

    @Test
    void eachKindIsScoredOnItsPredictionForTheDisksNotForTheirAggregate() throws Exception {
        sync.fullSync();
        new AdminApi(rest).call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", "esx1"), 201);
        long seq = 1;
        for (int kb : new int[] {4, 64, 256, 1024}) {
            var ack = ingestion.apply("esx1", AgentMessage.newBuilder().setSeq(seq++)
                    .setInjectorResult(PerDatastoreModelKindTest.injectorRun("ds-b", kb, w -> fifoLink(List.of(w)))).build());
            assertThat(ack.getStatus()).as(ack.getReason()).isEqualTo(AckStatus.ACCEPTED);
        }
        ModelRecord queueing = models.latestValid("ds-b", "queueing").orElseThrow();
        ModelRecord pesto = models.latestValid("ds-b", "pesto").orElseThrow();

        List<List<Workload>> windows = new ArrayList<>();
        long t = 1_700_000_000_000L;
        for (int i = 0; i < 8; i++) {
            List<Workload> disks = List.of(new Workload(4 + i, 4, 1, 1), new Workload(2, 1024, 1, 1), new Workload(1 + i % 3, 4, 1, 1));
            windows.add(disks);
            double o = disks.stream().mapToDouble(Workload::outstandingIos).sum();
            // the totals as vCenter's counters give them: IO-weighted size (IOPS = O / L, one L for all)
            double size = disks.stream().mapToDouble(w -> w.outstandingIos() * w.ioSizeKb()).sum() / o;
            observations.insertObservation("ds-b", "vcenter", t + 20_000L * i, 5000, o, fifoLink(disks), size, 1, 1, disks);
        }
        models.refresh();

        for (ModelRecord m : List.of(queueing, pesto)) {
            List<Double> expected = new ArrayList<>();
            double asDisks = 0;
            double asAggregate = 0;
            for (List<Workload> disks : windows) {
                double measured = fifoLink(disks);
                double o = disks.stream().mapToDouble(Workload::outstandingIos).sum();
                Workload aggregate = new Workload(o, disks.stream().mapToDouble(w -> w.outstandingIos() * w.ioSizeKb()).sum() / o, 1, 1);
                double e = Math.abs(models.predict(m, disks) - measured);
                expected.add(e);
                asDisks += e;
                asAggregate += Math.abs(models.predict(m, aggregate) - measured);
            }
            System.out.printf("%s on ds-b: mean |error| %.3f ms for the disks, %.3f ms for their aggregate%n",
                    m.kind(), asDisks / windows.size(), asAggregate / windows.size());
            List<Double> stored = observations.heldOutErrors("ds-b", m.kind(), 100);
            assertThat(stored).as(m.kind()).hasSize(windows.size());
            assertThat(stored.stream().mapToDouble(Double::doubleValue).sum()).as(m.kind()).isCloseTo(asDisks, within(1e-6));
            if (m.kind().equals("queueing")) {
                // the case that matters: the two scorings part by more than a millisecond per window
                assertThat(Math.abs(asDisks - asAggregate) / windows.size()).as("queueing: disks vs aggregate").isGreaterThan(1.0);
            }
        }
        // scored on the aggregate the queueing network would win (it fits the averaged class exactly) and the
        // balancer would then read this datastore's mix as almost idle; scored on the disks, a kind that is linear
        // in the bytes in flight (Pesto's line, BASIL's) wins
        assertThat(models.selectKind("auto", "ds-b")).as("%s", models.heldOutError(List.of("ds-b"))).isNotEqualTo("queueing");
    }
}
