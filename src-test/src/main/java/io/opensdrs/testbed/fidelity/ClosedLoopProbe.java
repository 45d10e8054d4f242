package io.opensdrs.testbed.fidelity;

import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;
import io.opensdrs.testbed.device.IoRequest;
import io.opensdrs.testbed.device.StorageDevice;
import io.opensdrs.testbed.sim.Simulation;
import io.opensdrs.testbed.workload.DiskLocation;
import io.opensdrs.testbed.workload.IoObserver;
import io.opensdrs.testbed.workload.VirtualDiskWorkload;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs closed-loop workloads on a fresh emulated device, IO by IO in virtual time, the way
 * fio runs on a real one: a warm-up, then a measured interval long enough for a stable
 * mean (at least {@code minIos} IOs or {@code maxMeasureMs} of simulated time).
 */
public final class ClosedLoopProbe {
    /** What one closed-loop stream achieved in the measured interval. */
    public record Result(long ios, double iops, double meanLatencyMs, double measuredMs) {
    }

    private final DeviceProfile profile;
    private final long capacityBytes;
    private final long seed;
    private double warmupMs = 3_000;
    private long minIos = 20_000;
    private double minMeasureMs = 2_000;
    private double maxMeasureMs = 120_000;

    public ClosedLoopProbe(DeviceProfile profile, long capacityBytes, long seed) {
        this.profile = profile;
        this.capacityBytes = capacityBytes;
        this.seed = seed;
    }

    public static ClosedLoopProbe of(String profileName, long seed) {
        // The LUN the fio file sits on: 100 GiB; seeks span it (see DeviceProfiles).
        return new ClosedLoopProbe(DeviceProfiles.get(profileName), 100L << 30, seed);
    }

    public ClosedLoopProbe effort(long minIos, double maxMeasureMs) {
        this.minIos = minIos;
        this.maxMeasureMs = maxMeasureMs;
        return this;
    }

    public static WorkloadSpec randomRead(int oio, double ioSizeKB) {
        return new WorkloadSpec(oio, ioSizeKB, 100.0, 100.0, 0.0, null);
    }

    public Result run(WorkloadSpec spec) {
        return runMix(List.of(spec)).get(0);
    }

    /** Runs several streams on one device at once, each on its own region of the LUN. */
    public List<Result> runMix(List<WorkloadSpec> specs) {
        Simulation sim = new Simulation();
        StorageDevice device = DeviceProfiles.build(sim, profile, capacityBytes, seed);
        int n = specs.size();
        long region = capacityBytes / n;
        long[] ios = new long[n];
        double[] latSum = new double[n];
        boolean[] measuring = {false};
        List<VirtualDiskWorkload> loops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            DiskLocation where = new DiskLocation("probe", device, k * region);
            IoObserver obs = new IoObserver() {
                @Override
                public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
                }

                @Override
                public void completed(double now, IoRequest io) {
                    if (measuring[0] && io.submittedAt() >= measureStart[0]) {
                        ios[k]++;
                        latSum[k] += io.latencyMs();
                    }
                }
            };
            loops.add(new VirtualDiskWorkload(sim, "probe" + k, region, specs.get(k), () -> where, obs,
                    seed * 31 + k));
        }
        loops.forEach(VirtualDiskWorkload::start);
        sim.runUntil(warmupMs);
        measuring[0] = true;
        measureStart[0] = sim.now();
        double start = sim.now();
        double step = 250;
        while (true) {
            sim.runUntil(sim.now() + step);
            double elapsed = sim.now() - start;
            long total = 0;
            for (long c : ios) {
                total += c;
            }
            if (elapsed >= maxMeasureMs || (total >= minIos && elapsed >= minMeasureMs)) {
                break;
            }
        }
        double measured = sim.now() - start;
        List<Result> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Result(ios[i], ios[i] / (measured / 1000.0),
                    ios[i] == 0 ? Double.NaN : latSum[i] / ios[i], measured));
        }
        return out;
    }

    private final double[] measureStart = {Double.POSITIVE_INFINITY};
}
