package io.opensdrs.agent.injector;

import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;
import io.opensdrs.shared.agent.v1.LqFit;
import io.opensdrs.shared.agent.v1.WorkloadPoint;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LinearityGate;
import io.opensdrs.model.pesto.OrdinaryLqEstimator;
import io.opensdrs.model.stats.LineFit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Pesto §5.1 workload injector: random reads (4 KiB by default) over the target's whole
 * address space at outstanding-IO levels 2..32, a short run per level recording every IO's
 * latency and the IO count, then a least-squares fit of L = m·Q + C (Eq. 1).
 *
 * <p>N outstanding IOs are kept by N threads, each issuing synchronous aligned reads back to
 * back on the target: the simplest faithful way to hold a queue depth from Java. Each level
 * applies the Little's-law {@link InterferenceCheck}, each IO the {@link ThinProvisioningFilter},
 * and the fit the R² gate. The fit and the gate are the model module's ({@link OrdinaryLqEstimator},
 * {@link LinearityGate#PESTO}): the agent measures, the model module says what a valid line is.
 * Times and latencies are on the target's clock ({@link IoTarget#nanoTime()}): the wall clock
 * for a real file, simulated time for the testbed's emulated devices. Before every level the caller's {@link LeaderGate} re-checks that this
 * host still leads (fencing, §5.1.1); a host that lost its block stops at once.
 */
public final class WorkloadInjector {

    /** Re-checked before each level: false stops the run (this host no longer leads). */
    @FunctionalInterface
    public interface LeaderGate {
        boolean mayContinue(String action) throws IOException;

        /**
         * Asked before every IO, from the IO threads, so it must be cheap (no file IO, no lock
         * the heartbeat holds): false stops the level at once — this host's lease ran out, e.g.
         * it was paused past the reclaim window and another host may already lead.
         */
        default boolean holdsLease() {
            return true;
        }

        LeaderGate ALWAYS = action -> true;
    }

    /**
     * @param perLevel     how long each OIO level runs (on the target's clock)
     * @param maxIosPerLevel a level also ends once its threads have completed this many IOs (each
     *                     thread still completes {@link #MIN_IOS_PER_THREAD}): enough for the
     *                     level's mean latency (10,000 IOs: a standard error near 1 % of the spread),
     *                     and what bounds the run on a fast device — 2 s at 60,000 IOPS is 120,000
     *                     IOs, and on the emulated path every IO is a vSCSI round trip
     */
    public record Settings(int[] oioLevels, Duration perLevel, int ioSizeBytes, long maxIosPerLevel) {
        public static final int[] DEFAULT_LEVELS = {2, 4, 8, 16, 32};
        public static final long DEFAULT_MAX_IOS_PER_LEVEL = 10_000;

        public Settings {
            if (maxIosPerLevel < 1) {
                throw new IllegalArgumentException("maxIosPerLevel must be >= 1, got " + maxIosPerLevel);
            }
        }

        public Settings(int[] oioLevels, Duration perLevel, int ioSizeBytes) {
            this(oioLevels, perLevel, ioSizeBytes, DEFAULT_MAX_IOS_PER_LEVEL);
        }

        public static Settings defaults() {
            return new Settings(DEFAULT_LEVELS, Duration.ofSeconds(2), 4096);
        }
    }

    private final Settings settings;
    private final InterferenceCheck interference;
    private final ThinProvisioningFilter thin;
    private final DoubleSupplier otherIoPerSecond;
    private final LongSupplier wallClockMs;

    /**
     * @param otherIoPerSecond the IO rate other workloads put on the datastore during a level
     *                         (from the other hosts' heartbeat blocks), added to the
     *                         injector's own rate in the Little's-law check
     */
    public WorkloadInjector(Settings settings, InterferenceCheck interference, ThinProvisioningFilter thin,
                            DoubleSupplier otherIoPerSecond, LongSupplier wallClockMs) {
        this.settings = settings;
        this.interference = interference;
        this.thin = thin;
        this.otherIoPerSecond = otherIoPerSecond;
        this.wallClockMs = wallClockMs;
    }

    public WorkloadInjector(Settings settings) {
        this(settings, new InterferenceCheck(), new ThinProvisioningFilter(), () -> 0.0, System::currentTimeMillis);
    }

    /** The measurements of one level. */
    public record LevelRun(int targetOio, long ioCount, long zeroReadsDropped, double durationS, double iops,
                           double meanLatencyMs, double p50LatencyMs, double p90LatencyMs, double measuredOio) {

        InjectorPoint toProto(double discrepancy) {
            return InjectorPoint.newBuilder().setTargetOio(targetOio).setMeasuredOio(measuredOio)
                    .setIoCount(ioCount).setDurationS(durationS).setIops(iops).setMeanLatencyMs(meanLatencyMs)
                    .setP50LatencyMs(p50LatencyMs).setP90LatencyMs(p90LatencyMs)
                    .setZeroReadsDropped(zeroReadsDropped).setInterference(discrepancy).build();
        }
    }

    public InjectorResult run(IoTarget target, String datastore, InjectorMode mode, int attempt, LeaderGate gate) {
        InjectorResult.Builder result = InjectorResult.newBuilder()
                .setDatastore(datastore).setRunId(UUID.randomUUID().toString()).setMode(mode)
                .setStartedMs(wallClockMs.getAsLong()).setIoSizeKb(settings.ioSizeBytes() / 1024)
                .setReadShare(1.0).setRandomness(1.0).setAttempt(attempt);
        int maxThreads = Arrays.stream(settings.oioLevels()).max().orElse(1);
        ExecutorService pool = Executors.newFixedThreadPool(maxThreads, r -> {
            Thread t = new Thread(r, "injector-io");
            t.setDaemon(true);
            return t;
        });
        List<Double> q = new ArrayList<>();
        List<Double> l = new ArrayList<>();
        long total = 0;
        long dropped = 0;
        try {
            for (int level : settings.oioLevels()) {
                if (!gate.mayContinue("inject-level-" + level)) {
                    return invalid(result, InvalidReason.LOST_LEADERSHIP, "lost leadership before OIO " + level);
                }
                LevelRun run = runLevel(target, level, pool, gate);
                if (!gate.holdsLease()) {
                    return invalid(result, InvalidReason.LOST_LEADERSHIP, "leader lease ran out during OIO " + level);
                }
                total += run.ioCount() + run.zeroReadsDropped();
                dropped += run.zeroReadsDropped();
                double discrepancy = InterferenceCheck.discrepancy(level, run.measuredOio());
                result.addPoints(run.toProto(discrepancy));
                // A level of mostly fast zero reads measures the host, not the device; the thin-
                // provisioning verdict below decides such runs, not Little's law.
                boolean mostlyZeros = thin.invalid(run.zeroReadsDropped(), run.ioCount() + run.zeroReadsDropped());
                if (run.ioCount() > 0 && !mostlyZeros && interference.aborts(level, run.measuredOio())) {
                    return invalid(result, InvalidReason.INTERFERENCE, String.format(
                            "OIO %d: Little's law gives %.2f (%.0f %% off)", level, run.measuredOio(), discrepancy * 100));
                }
                if (run.ioCount() > 0 && !mostlyZeros) {
                    // Small discrepancy: use the measured OIO instead of the issued one (§5.1.1).
                    q.add(run.measuredOio());
                    l.add(run.meanLatencyMs());
                }
            }
            if (!gate.mayContinue("inject-finish")) {
                return invalid(result, InvalidReason.LOST_LEADERSHIP, "lost leadership during the run");
            }
        } catch (IOException e) {
            return invalid(result, InvalidReason.IO_ERROR, String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return invalid(result, InvalidReason.CANCELLED, "interrupted");
        } finally {
            pool.shutdownNow();
        }
        if (thin.invalid(dropped, total)) {
            return invalid(result, InvalidReason.THIN_PROVISIONED,
                    dropped + " of " + total + " IOs were fast all-zero reads");
        }
        if (q.size() < 2) {
            return invalid(result, InvalidReason.R_SQUARED_BELOW_GATE, "fewer than 2 levels with IOs to fit");
        }
        LineFit fit = fit(q.stream().mapToDouble(Double::doubleValue).toArray(),
                l.stream().mapToDouble(Double::doubleValue).toArray());
        result.setFit(toProto(fit));
        if (!passesGate(fit)) {
            return invalid(result, InvalidReason.R_SQUARED_BELOW_GATE,
                    String.format("R² %.3f, slope %.4f ms/IO", fit.rSquared(), fit.slope()));
        }
        return result.setValid(true).setInvalidReason(InvalidReason.INVALID_REASON_UNSPECIFIED)
                .setFinishedMs(wallClockMs.getAsLong()).build();
    }

    /**
     * One point of a Romano calibration design (Romano §4.1; {@code ShortCalibrationDesign}): a level
     * of the point's O outstanding IOs of its size Z, read fraction R and randomness X, with the same
     * fencing, Little's-law check (Pesto §5.1.1) and thin-provisioning filter (§5.1.2) as a Pesto run.
     * The result carries the point ({@code design_point}) and its one measured level; there is no line
     * to fit, so it is valid unless a check fails.
     */
    public InjectorResult runDesignPoint(IoTarget target, String datastore, InjectorMode mode, int attempt, LeaderGate gate,
                                         Workload point) {
        int oio = (int) Math.round(point.outstandingIos());
        IoMix mix = new IoMix((int) Math.round(point.ioSizeKb() * 1024), point.readFraction(), point.randomFraction());
        InjectorResult.Builder result = InjectorResult.newBuilder()
                .setDatastore(datastore).setRunId(UUID.randomUUID().toString()).setMode(mode)
                .setStartedMs(wallClockMs.getAsLong()).setIoSizeKb((int) Math.round(point.ioSizeKb()))
                .setReadShare(point.readFraction()).setRandomness(point.randomFraction()).setAttempt(attempt)
                .setDesignPoint(WorkloadPoint.newBuilder().setOutstandingIos(oio).setIoSizeKb(point.ioSizeKb())
                        .setReadPct(point.readFraction() * 100).setRandomPct(point.randomFraction() * 100));
        if (oio < 1) {
            return invalid(result, InvalidReason.IO_ERROR, "design point with " + point.outstandingIos() + " outstanding IOs");
        }
        ExecutorService pool = Executors.newFixedThreadPool(oio, r -> {
            Thread t = new Thread(r, "injector-io");
            t.setDaemon(true);
            return t;
        });
        try {
            if (!gate.mayContinue("calibrate")) {
                return invalid(result, InvalidReason.LOST_LEADERSHIP, "lost leadership before the design point");
            }
            LevelRun run = runLevel(target, oio, pool, gate, mix);
            if (!gate.holdsLease()) {
                return invalid(result, InvalidReason.LOST_LEADERSHIP, "leader lease ran out during the design point");
            }
            double discrepancy = InterferenceCheck.discrepancy(oio, run.measuredOio());
            result.addPoints(run.toProto(discrepancy));
            long all = run.ioCount() + run.zeroReadsDropped();
            if (thin.invalid(run.zeroReadsDropped(), all)) {
                return invalid(result, InvalidReason.THIN_PROVISIONED, run.zeroReadsDropped() + " of " + all
                        + " IOs were fast all-zero reads");
            }
            if (run.ioCount() == 0) {
                return invalid(result, InvalidReason.IO_ERROR, "no IO completed");
            }
            if (interference.aborts(oio, run.measuredOio())) {
                return invalid(result, InvalidReason.INTERFERENCE, String.format(
                        "OIO %d: Little's law gives %.2f (%.0f %% off)", oio, run.measuredOio(), discrepancy * 100));
            }
        } catch (IOException e) {
            return invalid(result, InvalidReason.IO_ERROR, String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return invalid(result, InvalidReason.CANCELLED, "interrupted");
        } finally {
            pool.shutdownNow();
        }
        return result.setValid(true).setInvalidReason(InvalidReason.INVALID_REASON_UNSPECIFIED)
                .setFinishedMs(wallClockMs.getAsLong()).build();
    }

    /** Pesto Eq. 1, L = m·Q + C, by ordinary least squares (Pesto §5.1). */
    public static LineFit fit(double[] oio, double[] latencyMs) {
        return new OrdinaryLqEstimator().fit(oio, latencyMs);
    }

    /** R² ≥ 0.93 (Pesto §5.1) and a rising line: latency must grow with outstanding IOs. */
    public static boolean passesGate(LineFit fit) {
        return fit.points() >= 2 && LinearityGate.PESTO.accepts(fit) && fit.slope() > 0;
    }

    public static LqFit toProto(LineFit fit) {
        return LqFit.newBuilder().setSlopeMsPerIo(fit.slope()).setInterceptMs(fit.intercept())
                .setRSquared(Double.isNaN(fit.rSquared()) ? 0 : fit.rSquared()).setPoints(fit.points()).build();
    }

    private InjectorResult invalid(InjectorResult.Builder b, InvalidReason reason, String detail) {
        return b.setValid(false).setInvalidReason(reason).setInvalidDetail(detail)
                .setFinishedMs(wallClockMs.getAsLong()).build();
    }

    /**
     * IOs each thread completes in a level at least, past the level's duration if need be: Little's
     * law (the interference check, §5.1.1) over a window of one or two latencies is off by the
     * window's edges — 256 KiB reads at OIO 32 on one spindle take ~0.65 s each, and a 0.3 s level
     * read them as 30–60 % interference on an idle datastore.
     */
    public static final int MIN_IOS_PER_THREAD = 8;

    /**
     * Keeps {@code oio} reads outstanding for the level's duration or until the level has completed
     * {@link Settings#maxIosPerLevel()} IOs, and until each thread has completed {@link #MIN_IOS_PER_THREAD}.
     */
    public LevelRun runLevel(IoTarget target, int oio, ExecutorService pool) throws IOException, InterruptedException {
        return runLevel(target, oio, pool, LeaderGate.ALWAYS);
    }

    /** As {@link #runLevel(IoTarget, int, ExecutorService)}, each thread stopping before its next IO once {@code gate} loses the lease. */
    public LevelRun runLevel(IoTarget target, int oio, ExecutorService pool, LeaderGate gate) throws IOException, InterruptedException {
        return runLevel(target, oio, pool, gate, IoMix.randomReads(settings.ioSizeBytes()));
    }

    /**
     * What a level issues: IO size Z, read fraction R and randomness X (Romano Table 1). Pesto's
     * injector reads at random ({@link #randomReads}); a Romano calibration point also writes (the
     * injector's own file, with non-zero data) and reads sequentially (each thread on from its
     * previous IO, so that a level of O threads is O sequential streams, as O VMs' would be).
     */
    public record IoMix(int ioSizeBytes, double readFraction, double randomFraction) {
        public IoMix {
            if (ioSizeBytes < 1) {
                throw new IllegalArgumentException("ioSizeBytes must be >= 1, got " + ioSizeBytes);
            }
            if (!(readFraction >= 0 && readFraction <= 1) || !(randomFraction >= 0 && randomFraction <= 1)) {
                throw new IllegalArgumentException("read and random fractions must be in [0, 1], got "
                        + readFraction + ", " + randomFraction);
            }
        }

        public static IoMix randomReads(int ioSizeBytes) {
            return new IoMix(ioSizeBytes, 1, 1);
        }
    }

    /** As {@link #runLevel(IoTarget, int, ExecutorService, LeaderGate)}, issuing {@code mix}. */
    public LevelRun runLevel(IoTarget target, int oio, ExecutorService pool, LeaderGate gate, IoMix mix)
            throws IOException, InterruptedException {
        int ioSize = Math.max(mix.ioSizeBytes(), target.alignment());
        long slots = (target.sizeBytes() - ioSize) / ioSize;
        if (slots < 1) {
            throw new IOException("target too small: " + target.describe());
        }
        long startNanos = target.startLevel(oio);
        long deadline = startNanos + settings.perLevel().toNanos();
        double otherBefore = otherRate();
        AtomicInteger belowMinimum = new AtomicInteger(oio);
        AtomicLong levelIos = new AtomicLong();
        List<Future<IoRecorder>> futures = new ArrayList<>();
        for (int t = 0; t < oio; t++) {
            long seed = System.nanoTime() * 31 + t;
            futures.add(pool.submit(() -> readUntil(target, ioSize, slots, startNanos, deadline, belowMinimum, levelIos,
                    new SplittableRandom(seed), gate, mix)));
        }
        IoRecorder all = new IoRecorder();
        try {
            for (Future<IoRecorder> f : futures) {
                all.merge(f.get());
            }
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException io ? io : new IOException(c);
        }
        double durationS = (all.lastCompletionNanos - startNanos) / 1e9;
        double otherRate = (otherBefore + otherRate()) / 2;
        long[] lat = all.sortedKept();
        long issued = lat.length + all.dropped;
        double meanAllMs = issued == 0 ? 0 : all.sumAllNanos / 1e6 / issued;
        double measuredOio = InterferenceCheck.littlesLawOio(issued / durationS + otherRate, meanAllMs);
        double meanKept = lat.length == 0 ? 0 : Arrays.stream(lat).average().orElse(0) / 1e6;
        return new LevelRun(oio, lat.length, all.dropped, durationS, lat.length / durationS, meanKept,
                percentile(lat, 0.5), percentile(lat, 0.9), measuredOio);
    }

    /** The other workloads' IO rate, from the heartbeat blocks. */
    private double otherRate() {
        return otherIoPerSecond.getAsDouble();
    }

    /**
     * One thread's reads: until the deadline or the level's IO cap, and on until every thread of the
     * level has completed its minimum.
     */
    private IoRecorder readUntil(IoTarget target, int ioSize, long slots, long startNanos, long deadline,
                                 AtomicInteger belowMinimum, AtomicLong levelIos, SplittableRandom random,
                                 LeaderGate gate, IoMix mix) throws IOException {
        ByteBuffer buf = target.newBuffer(ioSize);
        ByteBuffer data = null;
        if (mix.readFraction() < 1) {
            // what a write puts in the injector's file: never a zero byte, so that the file still reads as
            // written data and not as a thin LUN's unallocated regions (DirectIoFile#prepare)
            data = target.newBuffer(ioSize);
            while (data.hasRemaining()) {
                data.put((byte) (0x5A ^ random.nextInt(0x40)));
            }
        }
        long slot = random.nextLong(slots);
        IoRecorder rec = new IoRecorder();
        rec.lastCompletionNanos = startNanos;
        long now = startNanos;
        long completed = 0;
        boolean promised = false;
        long cap = settings.maxIosPerLevel();
        while (((now < deadline && levelIos.get() < cap) || belowMinimum.get() > 0) && gate.holdsLease()) {
            slot = mix.randomFraction() >= 1 || random.nextDouble() < mix.randomFraction() ? random.nextLong(slots) : (slot + 1) % slots;
            long offset = slot * ioSize;
            boolean read = mix.readFraction() >= 1 || random.nextDouble() < mix.readFraction();
            ByteBuffer io = read ? buf : data;
            io.clear().limit(ioSize);
            // The closed-loop promise (IoTarget#timedRead): while a thread of the level is short of its
            // minimum every thread goes on after this IO whenever it completes; else only within the
            // level's time. A promise the loop does not keep is withdrawn below.
            long continueUntil = belowMinimum.get() > 0 ? Long.MAX_VALUE : levelIos.get() < cap ? deadline : Long.MIN_VALUE;
            IoTarget.Timing t = read ? target.timedRead(buf, offset, continueUntil) : target.timedWrite(data, offset, continueUntil);
            promised = t.completedAtNanos() < continueUntil;
            now = t.completedAtNanos();
            levelIos.incrementAndGet();
            rec.lastCompletionNanos = Math.max(rec.lastCompletionNanos, now);
            long latency = t.latencyNanos();
            if (++completed == MIN_IOS_PER_THREAD) {
                belowMinimum.decrementAndGet();
            }
            rec.sumAllNanos += latency;
            if (read && thin.drop(latency, buf.flip())) {
                rec.dropped++;
            } else {
                rec.add(latency);
            }
        }
        if (promised) {
            target.withdrawPromise();
        }
        return rec;
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.min(sorted.length - 1, Math.floor(p * sorted.length));
        return sorted[i] / 1e6;
    }

    /** Per-thread latency log: a growable primitive array, merged after the level. */
    private static final class IoRecorder {
        long[] kept = new long[4096];
        int n;
        long dropped;
        long sumAllNanos;
        long lastCompletionNanos = Long.MIN_VALUE;

        void add(long v) {
            if (n == kept.length) {
                kept = Arrays.copyOf(kept, n * 2);
            }
            kept[n++] = v;
        }

        void merge(IoRecorder o) {
            for (int i = 0; i < o.n; i++) {
                add(o.kept[i]);
            }
            dropped += o.dropped;
            sumAllNanos += o.sumAllNanos;
            lastCompletionNanos = Math.max(lastCompletionNanos, o.lastCompletionNanos);
        }

        long[] sortedKept() {
            long[] a = Arrays.copyOf(kept, n);
            Arrays.sort(a);
            return a;
        }
    }
}
