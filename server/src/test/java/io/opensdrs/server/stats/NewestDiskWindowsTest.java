package io.opensdrs.server.stats;

import io.opensdrs.server.AdvanceableClock;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.StreamSamples;
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

    private static StreamSamples second(long startMs, long ios, double latencyMs) {
        return StreamSamples.newBuilder().setHost("esx1").addSamples(DiskWindowStats.newBuilder().setVm("vm-1").setDiskKey(2000)
                .setDatastore("ds1").setWindowStartMs(startMs).setWindowSeconds(1).setIoCount(ios).setBytesRead(ios * 4096)
                .setMeanLatencyMs(latencyMs)).build();
    }

    /**
     * SLEDS §4.2 steps every second: while the agent sends the watched stream's seconds, the
     * controller sees the newest second, not the 20-s window that started before it; once the
     * seconds stop (the agent lost its per-second source), the window stands for the disk again.
     */
    @Test
    void aDiskIsSampledAtItsNewestSecondWhileSecondsArriveAndAtItsWindowOnceTheyStop() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.watch(Set.of("vm-1"));
        newest.record(batch(40_000, 2000, 5));
        newest.record(second(61_000, 30, 9));
        newest.record(second(60_000, 50, 7)); // late: the newer second stays
        NewestDiskWindows.Window w = newest.of("vm-1/2000", Duration.ofMinutes(1)).orElseThrow();
        assertThat(w.seconds()).isEqualTo(1);
        assertThat(w.iops()).isEqualTo(30.0);
        assertThat(w.bytesPerSecond()).isEqualTo(30.0 * 4096);
        assertThat(w.meanLatencyMs()).isEqualTo(9.0);
        // a window arriving now (it started before the seconds) does not displace the newest second
        newest.record(batch(60_000, 400, 7));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1)).orElseThrow().seconds()).isEqualTo(1);
        clock.advance(NewestDiskWindows.SECOND_MAX_AGE.plusMillis(1));
        w = newest.of("vm-1/2000", Duration.ofMinutes(1)).orElseThrow();
        assertThat(w.seconds()).isEqualTo(20);
        assertThat(w.iops()).isEqualTo(20.0);
        // seconds of a VM nobody watches are not kept
        newest.watch(Set.of("vm-2"));
        newest.record(second(62_000, 30, 9));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
    }

    @Test
    void aDiskIsSampledAtItsNewestWindowNotAnOlderOneArrivingLate() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.watch(Set.of("vm-1"));
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
        newest.watch(Set.of("vm-1"));
        newest.record(batch(40_000, 2000, 5));
        clock.advance(Duration.ofMinutes(1));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
        assertThat(newest.of("vm-2/2000", Duration.ofMinutes(1))).isEmpty();
    }

    /** Only the VMs in a service class are kept (the controller watches them): ingestion pays nothing for the others. */
    @Test
    void onlyTheWatchedVmsWindowsAreKeptAndAVmNoLongerWatchedLosesItsWindow() {
        NewestDiskWindows newest = new NewestDiskWindows(clock);
        newest.record(batch(20_000, 2000, 5));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
        newest.watch(Set.of("vm-1"));
        newest.record(batch(40_000, 2000, 5));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isPresent();
        newest.watch(Set.of("vm-2"));
        assertThat(newest.of("vm-1/2000", Duration.ofMinutes(1))).isEmpty();
    }
}
