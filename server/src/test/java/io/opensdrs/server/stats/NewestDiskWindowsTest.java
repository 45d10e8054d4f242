package io.opensdrs.server.stats;

import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class NewestDiskWindowsTest {

    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(nowMs.get());
        }
    };

    private static DiskStatsBatch batch(long startMs, long ios, double latencyMs) {
        return DiskStatsBatch.newBuilder().setHost("esx1").addSamples(DiskWindowStats.newBuilder().setVm("vm-1").setDiskKey(2000)
                .setDatastore("ds1").setWindowStartMs(startMs).setWindowSeconds(20).setIoCount(ios).setBytesRead(ios * 4096)
                .setBytesWritten(ios * 4096).setMeanLatencyMs(latencyMs)).build();
    }

    @Test
    void aDiskIsSampledAtItsNewestWindowNotAnOlderOneArrivingLate() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.record(batch(40_000, 2000, 5));
        newest.record(batch(20_000, 8000, 50));   // from an agent's buffer, after the newer one
        NewestDiskWindows.Window w = newest.of("vm-1/2000", Duration.ofMinutes(1)).orElseThrow();
        assertThat(w.iops()).isEqualTo(100.0);
        assertThat(w.bytesPerSecond()).isEqualTo(100.0 * 8192);
        assertThat(w.meanLatencyMs()).isEqualTo(5.0);
        newest.record(batch(60_000, 400, 7));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1)).orElseThrow().iops()).isEqualTo(20.0);
    }

    @Test
    void aDiskWhoseAgentWentQuietHasNoSampleOnceItsWindowIsOlderThanTheMaximumAge() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.record(batch(40_000, 2000, 5));
        nowMs.addAndGet(60_000);
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isPresent();
        nowMs.addAndGet(1);
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
        assertThat(newest.of("vm-2/2000", Duration.ofMinutes(1))).isEmpty();
    }
}
