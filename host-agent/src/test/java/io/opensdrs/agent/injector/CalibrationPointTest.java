package io.opensdrs.agent.injector;

import io.opensdrs.model.Workload;
import io.opensdrs.model.romano.ShortCalibrationDesign;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A Romano calibration point (Romano §4.1) issues what it names: its share of writes, its share of
 * sequential IOs (each thread on from its previous IO), its IO size, at its outstanding IOs; and
 * on the real path it does so with O_DIRECT reads and writes of the injector's file.
 */
class CalibrationPointTest {

    @TempDir
    Path tmp;

    static final WorkloadInjector.Settings QUICK =
            new WorkloadInjector.Settings(new int[] {2, 4}, Duration.ofMillis(200), 4096, 4000);

    /** The synthetic device, remembering every IO it was given. */
    static final class Recording implements IoTarget {
        final SyntheticIoTarget device = new SyntheticIoTarget(Duration.ofNanos(100_000), Duration.ofNanos(200_000), false);
        final List<long[]> ios = new ArrayList<>(); // offset, size, read 1/0

        @Override
        public String describe() {
            return "recording " + device.describe();
        }

        /** A LUN of 1 TiB, so that a random IO seldom lands right after an earlier one (below). */
        @Override
        public long sizeBytes() {
            return 1L << 40;
        }

        @Override
        public int alignment() {
            return device.alignment();
        }

        @Override
        public ByteBuffer newBuffer(int ioSize) {
            return device.newBuffer(ioSize);
        }

        @Override
        public int read(ByteBuffer buffer, long offset) {
            return device.read(buffer, offset);
        }

        @Override
        public long nanoTime() {
            return device.nanoTime();
        }

        @Override
        public long startLevel(int oio) {
            return device.startLevel(oio);
        }

        @Override
        public void withdrawPromise() {
            device.withdrawPromise();
        }

        private synchronized void note(long offset, int size, boolean read) {
            ios.add(new long[] {offset, size, read ? 1 : 0});
        }

        @Override
        public Timing timedRead(ByteBuffer buffer, long offset, long continueUntilNanos) {
            note(offset, buffer.remaining(), true);
            return device.timedRead(buffer, offset, continueUntilNanos);
        }

        @Override
        public Timing timedWrite(ByteBuffer buffer, long offset, long continueUntilNanos) {
            note(offset, buffer.remaining(), false);
            return device.timedWrite(buffer, offset, continueUntilNanos);
        }
    }

    @Test
    void aPointIssuesItsMixOfWritesAndSequentialIosAtItsSizeAndDepth() {
        Recording target = new Recording();
        Workload point = new Workload(4, 64, 0.25, 0.5);
        InjectorResult r = new WorkloadInjector(QUICK).runDesignPoint(target, "ds", InjectorMode.EMULATED, 1,
                WorkloadInjector.LeaderGate.ALWAYS, point);
        assertThat(r.getValid()).as(r.toString()).isTrue();
        assertThat(r.hasDesignPoint()).isTrue();
        assertThat(r.getDesignPoint().getReadPct()).isEqualTo(25);
        assertThat(r.getDesignPoint().getRandomPct()).isEqualTo(50);
        assertThat(r.getReadShare()).isEqualTo(0.25);
        assertThat(r.getRandomness()).isEqualTo(0.5);
        assertThat(r.getIoSizeKb()).isEqualTo(64);
        assertThat(r.getPointsCount()).isEqualTo(1);
        assertThat(r.getPoints(0).getTargetOio()).isEqualTo(4);
        assertThat(r.getPoints(0).getMeasuredOio()).isCloseTo(4, within(0.4));

        List<long[]> ios;
        synchronized (target) {
            ios = List.copyOf(target.ios);
        }
        assertThat(ios).hasSizeGreaterThan(1000);
        assertThat(ios).allSatisfy(io -> assertThat(io[1]).isEqualTo(64 * 1024));
        double reads = ios.stream().filter(io -> io[2] == 1).count() / (double) ios.size();
        assertThat(reads).isCloseTo(0.25, within(0.05));
        // an IO right after another one's end is sequential; a random one lands there with odds of about
        // (IOs issued) / (64-KiB slots of 1 TiB) ≈ 0.01 %
        java.util.Set<Long> ends = new java.util.HashSet<>();
        ios.forEach(io -> ends.add(io[0] + io[1]));
        double sequential = ios.stream().filter(io -> ends.contains(io[0])).count() / (double) ios.size();
        assertThat(sequential).isCloseTo(0.5, within(0.06));
    }

    @Test
    void pestosRandomReadsStayRandomReads() {
        Recording target = new Recording();
        InjectorResult r = new WorkloadInjector(QUICK).run(target, "ds", InjectorMode.EMULATED, 1, WorkloadInjector.LeaderGate.ALWAYS);
        assertThat(r.getValid()).as(r.toString()).isTrue();
        assertThat(r.hasDesignPoint()).isFalse();
        synchronized (target) {
            assertThat(target.ios).allSatisfy(io -> {
                assertThat(io[2]).isEqualTo(1);
                assertThat(io[1]).isEqualTo(4096);
            });
        }
    }

    /** The real path: the datastore's injector file, O_DIRECT, written where the point writes. */
    @Test
    void onTheRealPathAPointReadsAndWritesTheInjectorFileWithODirect() throws IOException {
        Path file = tmp.resolve(".sdrs-injector");
        DirectIoFile.prepare(file, 8 << 20, b -> { });
        Workload point = new Workload(2, 4, 0.5, 0);
        try (DirectIoFile target = DirectIoFile.open(file)) {
            InjectorResult r = new WorkloadInjector(new WorkloadInjector.Settings(new int[] {2}, Duration.ofMillis(100), 4096, 400))
                    .runDesignPoint(target, "ds", InjectorMode.REAL_IO, 1, WorkloadInjector.LeaderGate.ALWAYS, point);
            assertThat(r.getValid()).as(r.toString()).isTrue();
            assertThat(r.getPoints(0).getIoCount()).isGreaterThan(0);
        }
        // the writes left written, non-zero data: the file is reused as it is
        assertThat(DirectIoFile.prepare(file, 8 << 20, b -> { })).isFalse();
    }

    @Test
    void theScheduleRunsTheDesignInPartsRetriesAnInterferedPointAndStartsAgainAfterItsInterval() {
        List<Workload> design = ShortCalibrationDesign.runOrder().subList(0, 5);
        CalibrationSchedule s = new CalibrationSchedule(design, 2, Duration.ofDays(30), Duration.ofMinutes(1),
                Duration.ofMinutes(4), 0);
        assertThat(s.due(0)).isTrue();
        assertThat(s.nextPart()).containsExactly(design.get(0), design.get(1));
        assertThat(s.finished(valid(), 0)).isTrue();
        assertThat(s.finished(invalid(InvalidReason.INTERFERENCE), 10)).isFalse();
        assertThat(s.due(10)).isFalse();
        assertThat(s.nextDueMs()).isEqualTo(10 + 60_000);
        assertThat(s.nextPart()).containsExactly(design.get(1), design.get(2));
        assertThat(s.finished(valid(), 70_000)).isTrue();
        assertThat(s.finished(invalid(InvalidReason.THIN_PROVISIONED), 70_000)).isTrue(); // moves on
        assertThat(s.nextPart()).containsExactly(design.get(3), design.get(4));
        assertThat(s.finished(valid(), 80_000)).isTrue();
        assertThat(s.finished(valid(), 90_000)).isFalse(); // the design's last point
        assertThat(s.done()).isZero();
        assertThat(s.nextDueMs()).isEqualTo(90_000 + Duration.ofDays(30).toMillis());
        s.request(100_000);
        assertThat(s.due(100_000)).isTrue();
        assertThat(s.nextPart()).containsExactly(design.get(0), design.get(1));
    }

    private static InjectorResult valid() {
        return InjectorResult.newBuilder().setValid(true).build();
    }

    private static InjectorResult invalid(InvalidReason why) {
        return InjectorResult.newBuilder().setValid(false).setInvalidReason(why).build();
    }
}
