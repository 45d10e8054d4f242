package io.opensdrs.capture;

import io.opensdrs.bench.ClosedLoopMeasurement;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.scenario.DeviceSpec;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;
import io.opensdrs.testbed.device.HddArrayProfile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Chooses a testbed device for a datastore whose model the server fitted: the testbed never builds
 * a device from a model's equation (SPEC §6), so each candidate of a small, fixed set of mechanistic
 * devices is measured the way the host agent's injector measures a datastore (closed-loop random
 * reads at 4 and 256 KiB, OIO 2 to 32, on a fresh device of the datastore's size:
 * {@link ClosedLoopMeasurement}) and the one whose measured latencies lie nearest the server model's
 * predictions for the same workloads is chosen.
 *
 * <p>Distance: the mean over the points of |ln(measured ÷ predicted)|, reported as
 * e<sup>distance</sup> − 1, "the line within N %" (a symmetric relative error: a device twice as
 * slow and one twice as fast are equally far). It compares predictions, whatever the model's kind.
 *
 * <p>The candidates ({@link #candidates()}):
 * <ul>
 *   <li>every named profile of {@link DeviceProfiles} as it is (the four calibrated to fio-plot and
 *       the two defaults);</li>
 *   <li>hdd-array on the default array's mechanics at 7,200, 10,000 and 15,000 rpm: one disk
 *       (raid none), RAID-5 of 3 to 16 disks, RAID-10 of 4 to 16;</li>
 *   <li>ssd on the Intel D3-S4610 profile with 2, 4, 8 or 16 channels and a 4 KiB page read of 15,
 *       27, 50 or 100 µs.</li>
 * </ul>
 * 64 candidates; each measured once per datastore size and cached, in parallel.
 */
public final class DeviceMatch {

    /** A candidate device: a label for people and the scenario's device object. */
    public record Candidate(String label, DeviceSpec spec) {
    }

    /** One model prediction to match: random reads of {@code ioSizeKb} at {@code oio}. */
    public record Target(double oio, double ioSizeKb, double latencyMs) {
    }

    /**
     * The chosen device, how near its measured line lies to the model's (e^distance − 1), and the
     * runner-up for comparison.
     */
    public record Choice(Candidate device, double relativeDistance, List<Observation> measured, Candidate runnerUp,
                         double runnerUpDistance, OperatingPoint operatingPoint) {
    }

    /**
     * The datastore's own disks with their captured workloads, and the mean latency the server measured
     * of them: what breaks a near-tie of lines (a random-read line says nothing of RAID writes, caches or
     * sequential streams, and devices as unlike as a 7,200 and a 10,000 rpm disk draw nearly the same line).
     *
     * @param shortlisted how many devices were run with the disks: the candidates whose line was near enough, each also with
     *     the cache configurations its line cannot see ({@link #cacheVariants})
     * @param testbedMs the chosen device's IO-weighted mean latency with the disks, null until run
     */
    public record OperatingPoint(List<io.opensdrs.scenario.DiskSpec> disks, double serverMs, int shortlisted, Double testbedMs) {
    }

    /** How much farther than the best line a candidate's may lie and still be run with the disks: ×1.5, or +10 points. */
    static final double SHORTLIST_FACTOR = 1.5;
    static final double SHORTLIST_SLACK = 0.10;

    private final long measuredIos;
    private final long seed;
    private final ExecutorService executor;
    private final List<Candidate> candidates;
    private final Map<String, Future<Observation>> cache = new ConcurrentHashMap<>();

    public DeviceMatch(long measuredIos, long seed, ExecutorService executor) {
        this(candidates(), measuredIos, seed, executor);
    }

    public DeviceMatch(List<Candidate> candidates, long measuredIos, long seed, ExecutorService executor) {
        this.candidates = List.copyOf(candidates);
        this.measuredIos = measuredIos;
        this.seed = seed;
        this.executor = executor;
    }

    public List<Candidate> candidateList() {
        return candidates;
    }

    /** The documented candidate set (class comment). */
    public static List<Candidate> candidates() {
        List<Candidate> out = new ArrayList<>();
        for (String name : DeviceProfiles.names()) {
            DeviceProfile p = DeviceProfiles.get(name);
            out.add(new Candidate(name, p instanceof io.opensdrs.testbed.device.SsdProfile
                    ? new DeviceSpec.Ssd(name, null, null, null, null)
                    : new DeviceSpec.HddArray(name, null, null, null, null, null, null, null)));
        }
        for (int rpm : new int[]{7200, 10000, 15000}) {
            out.add(hdd(rpm, 1, "none"));
            for (int n : new int[]{3, 4, 5, 6, 8, 10, 12, 16}) {
                out.add(hdd(rpm, n, "raid5"));
            }
            for (int n : new int[]{4, 6, 8, 12, 16}) {
                out.add(hdd(rpm, n, "raid10"));
            }
        }
        for (int channels : new int[]{2, 4, 8, 16}) {
            for (double us : new double[]{15, 27, 50, 100}) {
                out.add(new Candidate(String.format(Locale.ROOT, "ssd %d channels, %.0f µs reads", channels, us),
                        new DeviceSpec.Ssd(DeviceProfiles.INTEL_D3_S4610, channels, us, null, null)));
            }
        }
        return out;
    }

    private static Candidate hdd(int rpm, int disks, String raid) {
        String label = disks == 1 ? String.format("1 × %d rpm disk", rpm)
                : String.format("%d × %d rpm %s", disks, rpm, raid.toUpperCase().replace("RAID", "RAID-"));
        return new Candidate(label, new DeviceSpec.HddArray(null, disks, rpm, raid, null, null, null, null));
    }

    /**
     * The candidate nearest the targets on a device of {@code capacityBytes}; targets without a
     * prediction are left out.
     *
     * @throws IllegalArgumentException without any target
     */
    public Choice choose(List<Target> targets, long capacityBytes) {
        return choose(targets, capacityBytes, null);
    }

    /**
     * The same; with an operating point, the candidates whose line lies within ×1.5 (or 10 points) of the
     * best are each run with the datastore's disks (the testbed's steady-state method, as {@code sdrs
     * testbed run}) and the one whose mean latency lies nearest the server's is chosen; of runs within
     * {@link #OPERATING_TOLERANCE} of the nearest, the one with the best line ({@link #nearestOperatingPoint}).
     */
    public Choice choose(List<Target> targets, long capacityBytes, OperatingPoint op) {
        List<Target> usable = targets.stream().filter(t -> Double.isFinite(t.latencyMs()) && t.latencyMs() > 0).toList();
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("the model predicts no latency for the injector's workloads");
        }
        // submit every measurement first, so that they run in parallel
        for (Candidate c : candidates) {
            for (Target t : usable) {
                observation(c, t, capacityBytes);
            }
        }
        record Scored(Candidate c, double distance, List<Observation> obs) {
        }
        List<Scored> scored = new ArrayList<>();
        for (Candidate c : candidates) {
            double sum = 0;
            List<Observation> obs = new ArrayList<>();
            for (Target t : usable) {
                Observation o = get(observation(c, t, capacityBytes));
                obs.add(o);
                sum += Math.abs(Math.log(o.latencyMs() / t.latencyMs()));
            }
            scored.add(new Scored(c, sum / usable.size(), obs));
        }
        scored.sort(Comparator.comparingDouble(Scored::distance));
        Scored best = scored.get(0);
        Scored second = scored.size() > 1 ? scored.get(1) : best;
        if (op == null || op.disks().isEmpty() || !(op.serverMs() > 0)) {
            return new Choice(best.c(), Math.expm1(best.distance()), best.obs(), second.c(), Math.expm1(second.distance()), op);
        }
        double bound = Math.max(SHORTLIST_FACTOR * Math.expm1(best.distance()), Math.expm1(best.distance()) + SHORTLIST_SLACK);
        List<Scored> shortlist = scored.stream().filter(x -> Math.expm1(x.distance()) <= bound).toList();
        // each near line with each cache configuration its line cannot see, in line order
        List<Scored> runs = new ArrayList<>();
        for (Scored x : shortlist) {
            for (Candidate v : cacheVariants(x.c())) {
                runs.add(new Scored(v, x.distance(), x.obs()));
            }
        }
        List<Future<Double>> pending = new ArrayList<>();
        for (Scored x : runs) {
            pending.add(executor.submit(() -> withDisks(x.c(), capacityBytes, op.disks())));
        }
        double[] ms = new double[runs.size()];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = getDouble(pending.get(i));
        }
        int pick = nearestOperatingPoint(ms, op.serverMs());
        Scored chosen = pick < 0 ? best : runs.get(pick);
        double chosenMs = pick < 0 ? Double.NaN : ms[pick];
        Scored other = chosen.c().equals(best.c()) ? second : best;
        return new Choice(chosen.c(), Math.expm1(chosen.distance()), chosen.obs(), other.c(), Math.expm1(other.distance()),
                new OperatingPoint(op.disks(), op.serverMs(), runs.size(), Double.isFinite(chosenMs) ? chosenMs : null));
    }

    /** The read caches (GB) and write-back caches (MB) a near hdd-array's line is also run with: none, or the default array's. */
    static final double[] READ_CACHES_GB = {0, 4};
    static final double[] WRITE_CACHES_MB = {0, 512};

    /**
     * The candidate as it is, and for an hdd-array the same array with each other combination of {@link #READ_CACHES_GB}
     * and {@link #WRITE_CACHES_MB}: the injector's random reads over the whole LUN see neither cache (a read cache of a
     * few GB holds a fraction of a percent of a multi-TB LUN; a write cache holds no reads), so the line cannot choose
     * them, while a datastore's own disks (writes, a log's sequential stream, a hot region) run very differently with and
     * without them.
     */
    static List<Candidate> cacheVariants(Candidate c) {
        if (!(c.spec() instanceof DeviceSpec.HddArray h)) {
            return List.of(c);
        }
        HddArrayProfile p = (HddArrayProfile) DeviceProfiles.resolve(h);
        List<Candidate> out = new ArrayList<>(List.of(c));
        for (double rc : READ_CACHES_GB) {
            for (double wc : WRITE_CACHES_MB) {
                if (rc == p.readCacheGB() && wc == p.writeCacheMB()) {
                    continue;
                }
                out.add(new Candidate(String.format(Locale.ROOT, "%s, %s read cache, %s write cache", c.label(),
                        rc == 0 ? "no" : String.format(Locale.ROOT, "%.0f GB", rc),
                        wc == 0 ? "no" : String.format(Locale.ROOT, "%.0f MB", wc)),
                        new DeviceSpec.HddArray(h.profile(), h.disks(), h.rpm(), h.raid(), h.stripeKB(), rc, wc, h.prefetch())));
            }
        }
        return out;
    }

    /**
     * How much farther from the server's mean latency than the nearest (in |ln(testbed ÷ server)|) a near line's run with
     * the disks may lie and still count as a tie: 0.05, about 5 %, the spread of one short steady-state sample.
     */
    static final double OPERATING_TOLERANCE = 0.05;

    /**
     * Which of the shortlisted candidates (sorted by line distance, nearest first) to choose from their mean latencies with
     * the disks: of those within {@link #OPERATING_TOLERANCE} of the nearest to {@code serverMs}, the first (the best
     * line) — runs a sample's noise apart say nothing more, and the line is the second thing the server observed;
     * −1 when no run had IO.
     */
    static int nearestOperatingPoint(double[] ms, double serverMs) {
        double[] err = new double[ms.length];
        double bestErr = Double.POSITIVE_INFINITY;
        for (int i = 0; i < ms.length; i++) {
            err[i] = ms[i] > 0 ? Math.abs(Math.log(ms[i] / serverMs)) : Double.POSITIVE_INFINITY;
            bestErr = Math.min(bestErr, err[i]);
        }
        if (!Double.isFinite(bestErr)) {
            return -1;
        }
        for (int i = 0; i < ms.length; i++) {
            if (err[i] <= bestErr + OPERATING_TOLERANCE) {
                return i;
            }
        }
        return -1;
    }

    /** The candidate with the disks on it, one VM each: IO-weighted mean latency over a short steady-state run. */
    double withDisks(Candidate c, long capacityBytes, List<io.opensdrs.scenario.DiskSpec> disks) throws Exception {
        List<io.opensdrs.scenario.VmSpec> vms = new ArrayList<>();
        List<io.opensdrs.scenario.DiskSpec> on = new ArrayList<>();
        int i = 0;
        for (io.opensdrs.scenario.DiskSpec d : disks) {
            io.opensdrs.scenario.DiskSpec x = new io.opensdrs.scenario.DiskSpec(d.name(), d.sizeGB(), "ds", true, d.workload());
            vms.add(new io.opensdrs.scenario.VmSpec("vm" + i++, "h", null, null, List.of(x), null));
            on.add(x);
        }
        io.opensdrs.scenario.Scenario s = new io.opensdrs.scenario.Scenario("probe", null, seed, 1.0, List.of(),
                List.of(new io.opensdrs.scenario.DatastoreSpec("ds", capacityBytes / (double) (1L << 30), null, c.spec())),
                List.of(new io.opensdrs.scenario.HostSpec("h", List.of("ds"))), vms, List.of(), List.of());
        io.opensdrs.testbed.world.World world = io.opensdrs.testbed.world.World.build(s);
        double[] acc = new double[2];
        io.opensdrs.testbed.world.WorldRun.create(world, io.opensdrs.testbed.world.WorldRun.Method.STEADY_STATE, seed)
                .run(OPERATING_HOURS, new io.opensdrs.testbed.sim.VirtualClock(), (start, ds, dss) -> {
                    for (io.opensdrs.testbed.stats.DatastoreWindow w : dss) {
                        acc[0] += w.ios();
                        acc[1] += w.meanLatencyMs() * w.ios();
                    }
                }, io.opensdrs.testbed.world.WorldRun.PlacementPolicy.NONE);
        return acc[0] == 0 ? Double.NaN : acc[1] / acc[0];
    }

    /** Simulated hours of a candidate's run with the disks (its steady-state sample is taken once, at the start). */
    static final double OPERATING_HOURS = 0.1;

    private static double getDouble(Future<Double> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    private Future<Observation> observation(Candidate c, Target t, long capacityBytes) {
        String key = c.label() + "|" + capacityBytes + "|" + t.oio() + "|" + t.ioSizeKb();
        return cache.computeIfAbsent(key, k -> {
            DeviceProfile profile = DeviceProfiles.resolve(c.spec());
            Workload w = new Workload(t.oio(), t.ioSizeKb(), 1, 1);
            long s = seed * 7_919L + Math.round(t.oio() * 31 + t.ioSizeKb());
            return executor.submit(() -> new ClosedLoopMeasurement(profile, capacityBytes, measuredIos).measure(w, s));
        });
    }

    private static Observation get(Future<Observation> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }
}
