package io.opensdrs.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's loops do not wait for one another: a vCenter inventory read that hangs (a full read
 * may take a minute against a large vCenter) does not stop the 1-s SLEDS controller loop
 * (SLEDS §4.2) nor the maintenance check. With Spring's default single scheduling thread both
 * stood still until the read returned.
 */
@SpringBootTest(properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.plugin.register=false",
        "sdrs.inventory.incremental-interval=PT0.1S",
        "sdrs.balancing.sleds-interval=PT0.1S",
        "sdrs.balancing.maintenance-check-interval=PT0.1S",
})
class LoopSchedulingTest {

    static final CountDownLatch READING = new CountDownLatch(1);
    static final CountDownLatch ANSWER = new CountDownLatch(1);

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) {
        try {
            String dir = Files.createTempDirectory("sdrs-loops-h2-").toString();
            r.add("sdrs.data-dir", () -> dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TestConfiguration
    static class Fixtures {
        /** vCenter whose first inventory read — the scheduled sync's full read at start-up — hangs until the test answers it. */
        @Bean
        InMemoryInventorySource inventorySource() {
            InMemoryInventorySource source = new InMemoryInventorySource();
            source.setSnapshot(InMemoryInventorySource.sample("v1"));
            source.slowNextRead(new InMemoryInventorySource.SlowRead(READING, ANSWER));
            return source;
        }
    }

    @Autowired MeterRegistry meters;

    long runs(String run) {
        Timer t = meters.find("sdrs.run.duration").tag("run", run).timer();
        return t == null ? 0 : t.count();
    }

    @Test
    void aHangingInventoryReadHoldsUpNeitherTheSledsLoopNorTheMaintenanceCheck() throws Exception {
        assertThat(READING.await(30, TimeUnit.SECONDS)).as("the scheduled sync began its read").isTrue();
        try {
            long sleds = runs("sleds");
            long maintenance = runs("maintenance-check");
            Thread.sleep(2_000);
            assertThat(runs("inventory-full")).as("the read still hangs").isZero();
            assertThat(runs("sleds") - sleds).as("SLEDS steps (every 0.1 s) during 2 s of a hanging read").isGreaterThanOrEqualTo(5);
            assertThat(runs("maintenance-check") - maintenance).as("maintenance checks (every 0.1 s) during 2 s of a hanging read")
                    .isGreaterThanOrEqualTo(5);
        } finally {
            ANSWER.countDown();
        }
        long deadline = System.currentTimeMillis() + 20_000;
        while (runs("inventory-full") == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(runs("inventory-full")).as("the read answered, the full sync completes").isEqualTo(1);
    }
}
