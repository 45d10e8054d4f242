package io.opensdrs.agent;

import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.HeartbeatFile;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.injector.CalibrationSchedule;
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
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader's injector run is one run per configured IO size, smallest first, each reported as
 * it ends; an invalid run ends the sequence (a thin LUN read at 4 KiB is not read again at 256 KiB).
 *
 * <p>Nothing here runs on the wall clock: the election's clock moves only when the test steps the
 * heartbeat (one observation interval a step, so the leader's lease never runs out between steps),
 * and the injector's device keeps its own simulated time. A loaded machine only makes it slower.
 */
class DatastoreAgentTest {
    private static final Duration PERIOD = Duration.ofMillis(100);

    @TempDir
    Path tmp;

    private List<InjectorResult> runOnce(boolean thin) throws Exception {
        AgentEvents quiet = (ds, type, details) -> { };
        AtomicLong clock = new AtomicLong(1);
        LeaderElection.Timing timing = LeaderElection.Timing.of(PERIOD);
        LeaderElection election = new LeaderElection("ds1", "esx1", 7L, HeartbeatFile.open(tmp, 16), timing, quiet,
                HostIoStatistics.NONE, clock::get, System::currentTimeMillis, d -> clock.addAndGet(d.toNanos()));
        List<WorkloadInjector> injectors = new ArrayList<>();
        for (int kb : new int[] {4, 256}) {
            injectors.add(new WorkloadInjector(new WorkloadInjector.Settings(new int[] {2, 4, 8}, Duration.ofMillis(60), kb * 1024)));
        }
        List<InjectorResult> results = new ArrayList<>();
        long startMs = System.currentTimeMillis();
        InjectorSchedule schedule = new InjectorSchedule(Duration.ofDays(1), PERIOD, Duration.ofHours(1), startMs);
        try (DatastoreAgent agent = new DatastoreAgent(election, schedule, injectors,
                () -> new SyntheticIoTarget(Duration.ofNanos(200_000), Duration.ofNanos(300_000), thin),
                InjectorMode.EMULATED, quiet, r -> {
                    synchronized (results) {
                        results.add(r);
                    }
                })) {
            // Until the run has ended: the schedule then says the next one is a day away. The
            // deadline only keeps a broken agent from hanging the build.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (schedule.nextDueMs() < startMs + Duration.ofHours(12).toMillis()) {
                assertThat(System.nanoTime()).as("the run did not end; results so far: %s", results).isLessThan(deadline);
                clock.addAndGet(timing.observeIntervalNanos());
                agent.step();
                Thread.sleep(1);
            }
        }
        synchronized (results) {
            return List.copyOf(results);
        }
    }

    /**
     * A calibrating agent runs Romano's design after its injector run, a part per idle step: every
     * point once, each reported with its design point, in parts of at most two points.
     */
    @Test
    void theCalibrationDesignRunsAfterTheInjectorInPartsAndReportsEveryPoint() throws Exception {
        List<String> events = new ArrayList<>();
        AgentEvents recorded = (ds, type, details) -> {
            synchronized (events) {
                events.add(type);
            }
        };
        AtomicLong clock = new AtomicLong(1);
        LeaderElection.Timing timing = LeaderElection.Timing.of(PERIOD);
        LeaderElection election = new LeaderElection("ds1", "esx1", 7L, HeartbeatFile.open(tmp, 16), timing, recorded,
                HostIoStatistics.NONE, clock::get, System::currentTimeMillis, d -> clock.addAndGet(d.toNanos()));
        List<WorkloadInjector> injectors = List.of(new WorkloadInjector(
                new WorkloadInjector.Settings(new int[] {2, 4, 8}, Duration.ofMillis(60), 4096)));
        List<InjectorResult> results = new ArrayList<>();
        long startMs = System.currentTimeMillis();
        InjectorSchedule schedule = new InjectorSchedule(Duration.ofDays(1), PERIOD, Duration.ofHours(1), startMs);
        List<io.opensdrs.model.Workload> design = io.opensdrs.model.romano.ShortCalibrationDesign.runOrder().subList(0, 5);
        CalibrationSchedule calibration = new CalibrationSchedule(design, 2, Duration.ofDays(30), PERIOD, Duration.ofHours(1), startMs);
        try (DatastoreAgent agent = new DatastoreAgent(election, schedule, injectors,
                () -> new SyntheticIoTarget(Duration.ofNanos(200_000), Duration.ofNanos(300_000), false),
                InjectorMode.EMULATED, recorded, r -> {
                    synchronized (results) {
                        results.add(r);
                    }
                }).calibrating(calibration)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (calibration.nextDueMs() < startMs + Duration.ofDays(1).toMillis()) {
                assertThat(System.nanoTime()).as("the calibration did not end; results so far: %s", results).isLessThan(deadline);
                clock.addAndGet(timing.observeIntervalNanos());
                agent.step();
                Thread.sleep(1);
            }
        }
        synchronized (results) {
            assertThat(results.get(0).hasDesignPoint()).as("the injector's run comes first").isFalse();
            List<InjectorResult> points = results.subList(1, results.size());
            assertThat(points).hasSize(5).allSatisfy(r -> {
                assertThat(r.getValid()).as(r.getInvalidDetail()).isTrue();
                assertThat(r.hasDesignPoint()).isTrue();
            });
            assertThat(points).extracting(r -> new io.opensdrs.model.Workload(r.getDesignPoint().getOutstandingIos(),
                    r.getDesignPoint().getIoSizeKb(), r.getDesignPoint().getReadPct() / 100, r.getDesignPoint().getRandomPct() / 100))
                    .containsExactlyElementsOf(design);
        }
        synchronized (events) {
            assertThat(events.stream().filter("calibrate-start"::equals).count()).isEqualTo(3);
        }
    }

    @Test
    void aRunIsOneInjectorRunPerIoSizeSmallestFirst() throws Exception {
        List<InjectorResult> results = runOnce(false);
        assertThat(results).extracting(InjectorResult::getIoSizeKb).containsExactly(4, 256);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.getValid()).as("run at %d KiB: %s", r.getIoSizeKb(), r.getInvalidDetail()).isTrue();
            assertThat(r.getPointsCount()).isEqualTo(3);
        });
        assertThat(results.get(0).getRunId()).isNotEqualTo(results.get(1).getRunId());
    }

    @Test
    void anInvalidRunEndsTheSequence() throws Exception {
        List<InjectorResult> results = runOnce(true);
        assertThat(results).hasSize(1);
        assertThat(results.get(0).getIoSizeKb()).isEqualTo(4);
        assertThat(results.get(0).getInvalidReason()).isEqualTo(InvalidReason.THIN_PROVISIONED);
    }
}
