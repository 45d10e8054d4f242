package io.opensdrs.agent;

import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.HeartbeatFile;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.injector.InjectorSchedule;
import io.opensdrs.agent.injector.SyntheticIoTarget;
import io.opensdrs.agent.injector.WorkloadInjector;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader's injector run is one run per configured IO size, smallest first, each reported as
 * it ends; an invalid run ends the sequence (a thin LUN read at 4 KiB is not read again at 256 KiB).
 */
class DatastoreAgentTest {
    private static final Duration PERIOD = Duration.ofMillis(100);

    @TempDir
    Path tmp;

    private List<InjectorResult> runOnce(boolean thin, long waitForResults) throws Exception {
        AgentEvents quiet = (ds, type, details) -> { };
        LeaderElection election = new LeaderElection("ds1", "esx1", HeartbeatFile.open(tmp, 16),
                LeaderElection.Timing.of(PERIOD), quiet, HostIoStatistics.NONE);
        List<WorkloadInjector> injectors = new ArrayList<>();
        for (int kb : new int[] {4, 256}) {
            injectors.add(new WorkloadInjector(new WorkloadInjector.Settings(new int[] {2, 4, 8}, Duration.ofMillis(60), kb * 1024)));
        }
        List<InjectorResult> results = new ArrayList<>();
        InjectorSchedule schedule = new InjectorSchedule(Duration.ofDays(1), PERIOD, Duration.ofHours(1), System.currentTimeMillis());
        try (DatastoreAgent agent = new DatastoreAgent(election, schedule, injectors,
                () -> new SyntheticIoTarget(Duration.ofNanos(200_000), Duration.ofNanos(300_000), thin),
                InjectorMode.EMULATED, quiet, r -> {
                    synchronized (results) {
                        results.add(r);
                    }
                })) {
            agent.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                synchronized (results) {
                    if (results.size() >= waitForResults) {
                        break;
                    }
                }
                Thread.sleep(20);
            }
            // a second run is not due for a day: what arrived is the whole run
            Thread.sleep(300);
        }
        synchronized (results) {
            return List.copyOf(results);
        }
    }

    @Test
    void aRunIsOneInjectorRunPerIoSizeSmallestFirst() throws Exception {
        List<InjectorResult> results = runOnce(false, 2);
        assertThat(results).extracting(InjectorResult::getIoSizeKb).containsExactly(4, 256);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.getValid()).as("run at %d KiB: %s", r.getIoSizeKb(), r.getInvalidDetail()).isTrue();
            assertThat(r.getPointsCount()).isEqualTo(3);
        });
        assertThat(results.get(0).getRunId()).isNotEqualTo(results.get(1).getRunId());
    }

    @Test
    void anInvalidRunEndsTheSequence() throws Exception {
        List<InjectorResult> results = runOnce(true, 1);
        assertThat(results).hasSize(1);
        assertThat(results.get(0).getIoSizeKb()).isEqualTo(4);
        assertThat(results.get(0).getInvalidReason()).isEqualTo(InvalidReason.THIN_PROVISIONED);
    }
}
