package io.opensdrs.server.stats;

import io.opensdrs.server.AdvanceableClock;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class NewestDiskWindowsTest {

    private final AdvanceableClock clock = new AdvanceableClock();

    private static DiskStatsBatch batch(long startMs, long ios, double latencyMs) {
        return DiskStatsBatch.newBuilder().setHost("esx1").addSamples(DiskWindowStats.newBuilder().setVm("vm-1").setDiskKey(2000)
                .setDatastore("ds1").setWindowStartMs(startMs).setWindowSeconds(20).setIoCount(ios).setBytesRead(ios * 4096)
                .setBytesWritten(ios * 4096).setMeanLatencyMs(latencyMs)).build();
    }

    @Test
    void aDiskIsSampledAtItsNewestWindowNotAnOlderOneArrivingLate() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.watch(Set.of("vm-1"));
        newest.record(batch(40_000, 2000, 5));
        newest.record(batch(20_000, 8000, 50));   // from an agent's buffer, after the newer one
        NewestDiskWindows.Window w = newest.window("vm-1/2000", Duration.ofMinutes(1)).orElseThrow();
        assertThat(w.iops()).isEqualTo(100.0);
        assertThat(w.bytesPerSecond()).isEqualTo(100.0 * 8192);
        assertThat(w.meanLatencyMs()).isEqualTo(5.0);
        newest.record(batch(60_000, 400, 7));
        assertThat(newest.window("vm-1/2000", Duration.ofMinutes(1)).orElseThrow().iops()).isEqualTo(20.0);
    }

    @Test
    void aDiskWhoseAgentWentQuietHasNoSampleOnceItsWindowIsOlderThanTheMaximumAge() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.watch(Set.of("vm-1"));
        newest.record(batch(40_000, 2000, 5));
        clock.advance(Duration.ofMinutes(1));
        assertThat(newest.window("vm-1/2000", Duration.ofMinutes(1))).isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(newest.window("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
        assertThat(newest.window("vm-2/2000", Duration.ofMinutes(1))).isEmpty();
    }

    /** Only the VMs in a service class are kept (the controller watches them): ingestion pays nothing for the others. */
    @Test
    void onlyTheWatchedVmsWindowsAreKeptAndAVmNoLongerWatchedLosesItsWindow() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.record(batch(20_000, 2000, 5));
        assertThat(newest.window("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
        newest.watch(Set.of("vm-1"));
        newest.record(batch(40_000, 2000, 5));
        assertThat(newest.window("vm-1/2000", Duration.ofMinutes(1))).isPresent();
        newest.watch(Set.of("vm-2"));
        assertThat(newest.window("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
    }
}
