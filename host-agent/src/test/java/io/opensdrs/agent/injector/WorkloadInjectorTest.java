package io.opensdrs.agent.injector;

import static org.assertj.core.api.Assertions.assertThat;

import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkloadInjectorTest {

    static final WorkloadInjector.Settings QUICK =
            new WorkloadInjector.Settings(new int[] {2, 4, 8, 16}, Duration.ofMillis(150), 4096);

    static SyntheticIoTarget device() {
        return new SyntheticIoTarget(Duration.ofNanos(250_000), Duration.ofNanos(400_000), false);
    }

    @Test
    void linearDeviceGivesAValidFitWithItsServiceTimeAsSlope() {
        InjectorResult r = new WorkloadInjector(QUICK).run(device(), "ds", InjectorMode.EMULATED, 1,
                WorkloadInjector.LeaderGate.ALWAYS);
        assertThat(r.getValid()).as(r.toString()).isTrue();
        assertThat(r.getPointsCount()).isEqualTo(4);
        assertThat(r.getFit().getRSquared()).isGreaterThan(0.93);
        assertThat(r.getFit().getSlopeMsPerIo()).isBetween(0.2, 0.33); // 250 µs service time
    }

    @Test
    void thinProvisionedZerosMakeTheRunInvalid() {
        InjectorResult r = new WorkloadInjector(QUICK).run(
                new SyntheticIoTarget(Duration.ZERO, Duration.ZERO, true), "ds", InjectorMode.EMULATED, 1,
                WorkloadInjector.LeaderGate.ALWAYS);
        assertThat(r.getValid()).isFalse();
        assertThat(r.getInvalidReason()).isEqualTo(InvalidReason.THIN_PROVISIONED);
    }

    /**
     * A level shorter than one IO's latency (10 ms service: 80 ms at OIO 8, in a 1-ms level) still
     * measures an idle device: every thread completes its minimum of IOs, so Little's law sees the
     * injected OIO and not the window's edges (a single IO per thread reads as ~45 % interference).
     */
    @Test
    void aLevelShorterThanTheLatencyRunsOnUntilEveryThreadHasItsMinimum() {
        WorkloadInjector.Settings shortLevels = new WorkloadInjector.Settings(new int[] {2, 4, 8}, Duration.ofMillis(1), 4096);
        InjectorResult r = new WorkloadInjector(shortLevels).run(
                new SyntheticIoTarget(Duration.ofMillis(10), Duration.ofNanos(100_000), false), "ds", InjectorMode.EMULATED, 1,
                WorkloadInjector.LeaderGate.ALWAYS);
        assertThat(r.getValid()).as(r.toString()).isTrue();
        for (var p : r.getPointsList()) {
            assertThat(p.getIoCount()).isGreaterThanOrEqualTo((long) p.getTargetOio() * WorkloadInjector.MIN_IOS_PER_THREAD);
            assertThat(p.getInterference()).isLessThan(0.3);
        }
        assertThat(r.getFit().getSlopeMsPerIo()).isBetween(8.0, 12.0);
    }

    /** A 60-s level on this 250-µs device would be over 200,000 IOs; the cap ends each level after 400. */
    @Test
    void aLevelEndsAtItsIoCapBeforeItsDuration() {
        WorkloadInjector.Settings capped = new WorkloadInjector.Settings(new int[] {2, 4, 8}, Duration.ofSeconds(60), 4096, 400);
        InjectorResult r = new WorkloadInjector(capped).run(device(), "ds", InjectorMode.EMULATED, 1,
                WorkloadInjector.LeaderGate.ALWAYS);
        assertThat(r.getValid()).as(r.toString()).isTrue();
        assertThat(r.getPointsCount()).isEqualTo(3);
        for (var p : r.getPointsList()) {
            // every thread stops at its next completion once the level has 400: at most one IO more each
            assertThat(p.getIoCount()).isBetween(400L, 400L + p.getTargetOio());
            assertThat(p.getDurationS()).as("the level's time on the device's clock").isLessThan(1.0);
        }
        assertThat(r.getFit().getSlopeMsPerIo()).isBetween(0.2, 0.33);
    }

    @Test
    void otherWorkloadAbortsForInterference() {
        WorkloadInjector injector = new WorkloadInjector(QUICK, new InterferenceCheck(), new ThinProvisioningFilter(),
                () -> 20_000.0, System::currentTimeMillis); // other hosts' IO shows up in Little's law
        InjectorResult r = injector.run(device(), "ds", InjectorMode.EMULATED, 1, WorkloadInjector.LeaderGate.ALWAYS);
        assertThat(r.getInvalidReason()).isEqualTo(InvalidReason.INTERFERENCE);
    }

    @Test
    void lostLeadershipStopsTheRun() {
        AtomicInteger checks = new AtomicInteger();
        InjectorResult r = new WorkloadInjector(QUICK).run(device(), "ds", InjectorMode.EMULATED, 1,
                action -> checks.incrementAndGet() < 3);
        assertThat(r.getInvalidReason()).isEqualTo(InvalidReason.LOST_LEADERSHIP);
        assertThat(r.getPointsCount()).isEqualTo(2);
    }

    /**
     * A lease that runs out mid-level (the host was paused past the reclaim window) stops every
     * IO thread before its next read, not at the next level's fencing check: at most the reads
     * already issued complete.
     */
    @Test
    void aLeaseRunningOutStopsTheLevelBeforeTheNextIo() {
        java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean lease = new java.util.concurrent.atomic.AtomicBoolean(true);
        long cutAfter = 30;
        WorkloadInjector.LeaderGate gate = new WorkloadInjector.LeaderGate() {
            @Override
            public boolean mayContinue(String action) {
                return true; // the file still shows this host's claim: only the lease says no
            }

            @Override
            public boolean holdsLease() {
                if (asked.incrementAndGet() > cutAfter) {
                    lease.set(false);
                }
                return lease.get();
            }
        };
        SyntheticIoTarget device = device();
        InjectorResult r = new WorkloadInjector(QUICK).run(device, "ds", InjectorMode.EMULATED, 1, gate);
        assertThat(r.getInvalidReason()).isEqualTo(InvalidReason.LOST_LEADERSHIP);
        assertThat(r.getInvalidDetail()).contains("lease ran out during OIO 2");
        // Each read follows a yes; a 150-ms level at 250 µs per read would otherwise issue hundreds.
        assertThat(device.reads()).isBetween(1L, cutAfter);
        assertThat(r.getPointsCount()).as("the level cut short is not reported").isZero();
    }

    @Test
    void fitAndChecksArePestoFormulas() {
        io.opensdrs.model.stats.LineFit f = WorkloadInjector.fit(new double[] {2, 4, 8}, new double[] {1.5, 2.5, 4.5});
        assertThat(f.slope()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(f.intercept()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(WorkloadInjector.passesGate(f)).isTrue();
        assertThat(WorkloadInjector.passesGate(WorkloadInjector.fit(new double[] {2, 4, 8}, new double[] {3, 1, 4})))
                .as("R² below 0.93").isFalse();
        assertThat(InterferenceCheck.littlesLawOio(4000, 2)).isEqualTo(8.0);
        assertThat(new InterferenceCheck().aborts(8, 10.5)).isTrue();
        assertThat(new InterferenceCheck().aborts(8, 10)).isFalse();
        ThinProvisioningFilter thin = new ThinProvisioningFilter();
        assertThat(thin.drop(500_000, java.nio.ByteBuffer.allocate(4096))).isTrue();
        assertThat(thin.drop(2_000_000, java.nio.ByteBuffer.allocate(4096))).isFalse();
        assertThat(thin.invalid(81, 100)).isTrue();
        assertThat(thin.invalid(80, 100)).isFalse();
    }

    /** A fit under the R² gate is tried once more after the back-off, then left to the next interval; a model or a thin LUN settles at once. */
    @Test
    void aFitUnderTheGateIsTriedOnceMoreThenLeftToTheNextInterval() {
        InjectorSchedule s = new InjectorSchedule(Duration.ofDays(1), Duration.ofMinutes(1), Duration.ofMinutes(4), 0);
        InjectorResult underGate = InjectorResult.newBuilder()
                .setValid(false).setInvalidReason(InvalidReason.R_SQUARED_BELOW_GATE).build();
        s.finished(underGate, 0);
        assertThat(s.nextDueMs()).isEqualTo(60_000);
        assertThat(s.attempt()).isEqualTo(2);
        s.finished(underGate, 60_000);
        assertThat(s.nextDueMs()).isEqualTo(60_000 + 86_400_000);
        s.request(100_000, "administrator");
        s.finished(InjectorResult.newBuilder().setValid(false)
                .setInvalidReason(InvalidReason.THIN_PROVISIONED).build(), 100_000);
        assertThat(s.nextDueMs()).isEqualTo(100_000 + 86_400_000);
        s.request(200_000, "administrator");
        s.finished(InjectorResult.newBuilder().setValid(true).build(), 200_000);
        assertThat(s.nextDueMs()).isEqualTo(200_000 + 86_400_000);
    }

    @Test
    void scheduleRunsAtOnceThenDailyAndBacksOffWhileBusy() {
        InjectorSchedule s = new InjectorSchedule(Duration.ofDays(1), Duration.ofMinutes(1), Duration.ofMinutes(4), 0);
        assertThat(s.due(0)).isTrue();
        s.backOff(0);
        assertThat(s.nextDueMs()).isEqualTo(60_000);
        s.backOff(60_000);
        assertThat(s.nextDueMs()).isEqualTo(180_000);
        s.backOff(180_000);
        s.backOff(420_000);
        assertThat(s.nextDueMs()).isEqualTo(420_000 + 240_000); // capped
        assertThat(s.attempt()).isEqualTo(5);
        s.completed(700_000);
        assertThat(s.nextDueMs()).isEqualTo(700_000 + 86_400_000);
        s.request(800_000, "administrator");
        assertThat(s.due(800_000)).isTrue();
        assertThat(s.attempt()).isEqualTo(1);
    }
}
