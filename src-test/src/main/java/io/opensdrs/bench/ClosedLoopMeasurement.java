package io.opensdrs.bench;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;
import io.opensdrs.testbed.device.HddArrayProfile;
import io.opensdrs.testbed.device.SsdProfile;
import io.opensdrs.testbed.device.IoRequest;
import io.opensdrs.testbed.device.StorageDevice;
import io.opensdrs.testbed.sim.Simulation;
import io.opensdrs.testbed.workload.DiskLocation;
import io.opensdrs.testbed.workload.IoObserver;
import io.opensdrs.testbed.workload.VirtualDiskWorkload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One closed-loop workload on a fresh emulated device, simulated IO by IO in virtual time,
 * the way Iometer (Romano §3) or Pesto's injector (§5.1) runs one point of a design: a
 * warm-up, then a measured interval of a fixed number of IOs (capped in simulated time so
 * that a slow point cannot stall a benchmark). The stream spans the whole LUN, as an
 * injector over "a large fraction of the datastore's address space" does.
 *
 * <p><b>Steady state on write-back caches.</b> A point that writes is measured only after it
 * has written 1.5 × the device's write cache (at most {@link #MAX_PRECONDITION_MS} of simulated
 * time): until the cache is full every write is acknowledged at cache speed, and a short run
 * measures the cache instead of the array. Romano ran each test-vector point for minutes
 * (§4.1: 1,600 points "in a couple of days"), and a datastore in production runs at this
 * steady state; with 1,000 IOs and no preconditioning, E2 (512 MB cache) measured 64 KiB
 * sequential writes at 16 OIO as 0.19 ms where the steady state is 79 ms.
 *
 * <p>The device is the testbed's mechanistic emulator; nothing here knows any model.
 */
public final class ClosedLoopMeasurement {
    private final DeviceProfile profile;
    private final long capacityBytes;
    private final long measuredIos;
    private final long warmupIos;
    private static final double MAX_WARMUP_MS = 2_000;
    private static final double MAX_MEASURE_MS = 30_000;
    /** Upper bound on the simulated time spent filling a write cache before measuring. */
    static final double MAX_PRECONDITION_MS = 60_000;
    private final double preconditionBytes;

    /**
     * @param measuredIos IOs per measured interval; about 1,000 gives a mean within a few
     *                    per cent on spindles (per-IO latency CV ≈ 0.5)
     */
    public ClosedLoopMeasurement(DeviceProfile profile, long capacityBytes, long measuredIos) {
        this.profile = profile;
        this.capacityBytes = capacityBytes;
        this.measuredIos = measuredIos;
        this.warmupIos = Math.max(50, measuredIos / 4);
        this.preconditionBytes = 1.5 * writeCacheMb(profile) * 1024 * 1024;
    }

    private static double writeCacheMb(DeviceProfile profile) {
        if (profile instanceof HddArrayProfile h) {
            return h.writeCacheMB();
        }
        if (profile instanceof SsdProfile s) {
            return s.writeCacheMB();
        }
        return 0;
    }

    public DeviceProfile profile() {
        return profile;
    }

    /** Runs {@code w} and returns what was measured: mean latency and IOPS of the measured interval. */
    public Observation measure(Workload w, long seed) {
        StreamsResult r = measureStreams(List.of(w), capacityBytes, Double.NaN, seed);
        return new Observation(w, r.meanLatencyMs(), r.iops());
    }

    /**
     * What a run of several closed-loop streams on one device measured: the mean latency of all
     * measured IOs, the IOPS, per stream the mean latency, and — when a fast-mode bound was given —
     * the share of IOs that completed at or under it and their mean latency (NaN otherwise); and the
     * simulated time the run took, warm-up and preconditioning included.
     */
    public record StreamsResult(double meanLatencyMs, double iops, double[] streamLatencyMs, double fastShare,
                                double fastMeanMs, double simulatedMs) {
    }

    /**
     * Runs {@code streams} together on one fresh device (as VMs sharing a datastore), stream i
     * over its own {@code spanBytes} region starting at i × spanBytes (its working set), with the
     * same warm-up, write preconditioning and measured interval as {@link #measure}; the measured
     * interval counts {@code measuredIos} IOs of all streams together. {@code fastBelowMs}: IOs
     * completing within it are counted as the fast (cache) mode; NaN to skip the separation.
     */
    public StreamsResult measureStreams(List<Workload> streams, long spanBytes, double fastBelowMs, long seed) {
        if (streams.isEmpty() || (long) streams.size() * spanBytes > capacityBytes) {
            throw new IllegalArgumentException("need 1.." + capacityBytes / Math.max(1, spanBytes)
                    + " streams of " + spanBytes + " bytes on this LUN, got " + streams.size());
        }
        Simulation sim = new Simulation();
        StorageDevice device = DeviceProfiles.build(sim, profile, capacityBytes, seed);
        long[] completed = {0};
        double[] written = {0};
        long[] counted = {0};
        double[] latencySum = {0};
        long[] fast = {0};
        double[] fastSum = {0};
        double[] measureFrom = {Double.POSITIVE_INFINITY};
        int n = streams.size();
        long[] streamCount = new long[n];
        double[] streamSum = new double[n];
        for (int i = 0; i < n; i++) {
            Workload w = streams.get(i);
            int stream = i;
            DiskLocation where = new DiskLocation("bench", device, i * spanBytes);
            IoObserver observer = new IoObserver() {
                @Override
                public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
                }

                @Override
                public void completed(double now, IoRequest io) {
                    completed[0]++;
                    if (!io.read()) {
                        written[0] += io.sizeBytes();
                    }
                    if (io.submittedAt() >= measureFrom[0]) {
                        counted[0]++;
                        latencySum[0] += io.latencyMs();
                        streamCount[stream]++;
                        streamSum[stream] += io.latencyMs();
                        if (io.latencyMs() <= fastBelowMs) {
                            fast[0]++;
                            fastSum[0] += io.latencyMs();
                        }
                    }
                }
            };
            WorkloadSpec spec = new WorkloadSpec(Math.max(1, Math.round(w.outstandingIos())), w.ioSizeKb(),
                    w.readFraction() * 100, w.randomFraction() * 100, 0.0, null);
            new VirtualDiskWorkload(sim, i == 0 ? "bench" : "bench" + i, spanBytes, spec, () -> where, observer,
                    seed * 31 + 7 + 1_000L * i).start();
        }
        boolean writes = streams.stream().anyMatch(w -> w.readFraction() < 1);
        double step = 50;
        while (completed[0] < warmupIos && sim.now() < MAX_WARMUP_MS) {
            sim.runUntil(sim.now() + step);
        }
        if (writes) {
            while (written[0] < preconditionBytes && sim.now() < MAX_PRECONDITION_MS) {
                sim.runUntil(sim.now() + step);
            }
        }
        measureFrom[0] = sim.now();
        double start = sim.now();
        while (counted[0] < measuredIos && sim.now() - start < MAX_MEASURE_MS) {
            sim.runUntil(sim.now() + step);
        }
        double seconds = (sim.now() - start) / 1000;
        if (counted[0] == 0) {
            throw new IllegalStateException("no IO completed for " + streams + " on " + profile.name());
        }
        double[] perStream = new double[n];
        for (int i = 0; i < n; i++) {
            perStream[i] = streamCount[i] == 0 ? Double.NaN : streamSum[i] / streamCount[i];
        }
        boolean separate = !Double.isNaN(fastBelowMs);
        return new StreamsResult(latencySum[0] / counted[0], counted[0] / seconds, perStream,
                separate ? (double) fast[0] / counted[0] : Double.NaN,
                separate && fast[0] > 0 ? fastSum[0] / fast[0] : Double.NaN, sim.now());
    }

    /**
     * Measures every workload of a design, each on its own fresh device (as successive
     * Iometer runs after the caches have drained), in parallel on {@code executor}; point i
     * uses seed {@code seed + i}.
     */
    public List<Observation> measureAll(List<Workload> design, long seed, ExecutorService executor) {
        List<Future<Observation>> futures = new ArrayList<>();
        for (int i = 0; i < design.size(); i++) {
            Workload w = design.get(i);
            long s = seed + i;
            futures.add(executor.submit(() -> measure(w, s)));
        }
        return results(futures);
    }

    /** Each future's result in order, once all have ended; a failed measurement's own exception ends the benchmark. */
    static <T> List<T> results(List<Future<T>> futures) {
        List<T> out = new ArrayList<>();
        try {
            for (Future<T> f : futures) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
        return out;
    }
}
