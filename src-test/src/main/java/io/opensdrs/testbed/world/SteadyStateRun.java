package io.opensdrs.testbed.world;

import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;
import io.opensdrs.testbed.device.IoRequest;
import io.opensdrs.testbed.device.StorageDevice;
import io.opensdrs.testbed.device.ThinProvisionedLun;
import io.opensdrs.testbed.sim.Clock;
import io.opensdrs.testbed.sim.Simulation;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.stats.WindowAccumulator;
import io.opensdrs.testbed.workload.DiskLocation;
import io.opensdrs.testbed.workload.IoObserver;
import io.opensdrs.testbed.workload.VirtualDiskWorkload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The fast method for long virtual-time runs. Datastores do not interact except through
 * relocations, and a closed-loop system reaches its steady state within seconds; so for
 * each datastore the run simulates, IO by IO, a short sample of exactly what runs on it
 * (its disks' workloads of the moment, any copy streams) and reuses the sample for every
 * window until that changes (a phase boundary, an event, a relocation starting or ending).
 * The sample is the same mechanistic device, not a formula; the agreement with
 * {@link IoLevelRun} on steady-state mean latency is tested (within 5 %).
 *
 * <p><b>Caches.</b> A device with caches is not in its steady state while they fill. A write-back
 * cache acknowledges writes at controller speed until it is full, and from then on every write waits
 * for the media (on a RAID-5, a read-modify-write of four disk IOs): filling hundreds of MB takes
 * tens of seconds of a write-heavy mix, far longer than the 2-s warm-up, so a sample taken then
 * measures the filling cache, several times faster than the same device IO by IO over an hour.
 * Once full, the cache still holds the writes it took at controller speed (for a log, sequential
 * writes, cheap to destage) and reaches its steady mix only when all of them have been destaged,
 * after it has taken its room's worth of writes again. A read cache evicts nothing until it is full,
 * so a workload whose data does not fit hits more (or, beside a sequential stream, less) until then.
 * So the warm-up goes on, in steps of {@link #CACHE_STEP_MS}: a write cache that filled
 * ({@link #CACHE_FULL}) until it has taken its room's worth of writes since, one that did not and a read
 * cache while they still grow by more than {@link #CACHE_RISE} of their room in a step and are not full;
 * for at most {@link #MAX_WARMUP_MS}.
 */
public final class SteadyStateRun extends WorldRun {
    /** Simulated warm-up before a sample is measured, ms. */
    static final double WARMUP_MS = 2_000;
    /** A sample ends after this many IOs ... */
    static final long SAMPLE_IOS = 4_000;
    /** ... or this much simulated time, whichever comes first (but not before MIN_SAMPLE_MS). */
    static final double MAX_SAMPLE_MS = 60_000;
    static final double MIN_SAMPLE_MS = 3_000;
    /** Steps of the warm-up while a cache fills, ms. */
    static final double CACHE_STEP_MS = 5_000;
    /** A cache that grew by less than this share of its room in a step is settled ... */
    static final double CACHE_RISE = 0.01;
    /** ... and so is one this full. */
    static final double CACHE_FULL = 0.95;
    /** The longest warm-up, ms (a cache filling more slowly than 1 % in 5 s counts as settled). */
    static final double MAX_WARMUP_MS = 600_000;

    /**
     * Samples that runs of one world share: a sample is a function of the datastore's device, name
     * (its device's seed), the run's seed and the streams on it, all in its key, so a shared sample
     * is the one the run would have simulated. Thread-safe: each sample is simulated once; a run
     * that needs one another run is simulating first simulates the others it needs, then waits.
     */
    public static final class Samples {
        private final Map<String, CompletableFuture<List<DiskWindow>>> byKey = new ConcurrentHashMap<>();

        /** How many distinct samples are held (or being simulated). */
        public int size() {
            return byKey.size();
        }
    }

    private final Samples samples;
    private int samplesTaken;

    /** One closed-loop stream on a datastore for sampling. */
    private record Stream(String id, long sizeBytes, long base, WorkloadSpec spec) {
    }

    SteadyStateRun(World world, long seed) {
        this(world, seed, new Samples());
    }

    SteadyStateRun(World world, long seed, Samples samples) {
        super(world, seed);
        this.samples = samples;
    }

    /** How many IO-level samples the run has simulated (the rest were reused). */
    public int samplesTaken() {
        return samplesTaken;
    }

    @Override
    protected List<DiskWindow> window(double startMs, double endMs, Clock clock) throws InterruptedException {
        double hour = startMs / 3_600_000;
        double seconds = (endMs - startMs) / 1000;
        List<Datastore> busy = new ArrayList<>();
        List<List<Stream>> streamsOf = new ArrayList<>();
        List<CompletableFuture<List<DiskWindow>>> sampleOf = new ArrayList<>();
        List<Integer> mine = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (Datastore ds : world.datastores()) {
            List<Stream> streams = new ArrayList<>();
            for (VirtualDisk d : world.disksOn(ds.name())) {
                streams.add(new Stream(d.id(), d.sizeBytes(), d.baseOffset(), d.workloadAt(hour)));
            }
            for (Relocation r : world.relocations()) {
                if (r.from().equals(ds.name())) {
                    streams.add(new Stream("copy-read:" + r.disk().id(), r.disk().sizeBytes(), r.sourceBase(),
                            new WorkloadSpec(Relocation.COPY_OIO, Relocation.COPY_IO_KB, 100.0, 0.0, 0.0, null)));
                }
                if (r.to().equals(ds.name())) {
                    streams.add(new Stream("copy-write:" + r.disk().id(), r.disk().sizeBytes(), r.destinationBase(),
                            new WorkloadSpec(Relocation.COPY_OIO, Relocation.COPY_IO_KB, 0.0, 0.0, 0.0, null)));
                }
            }
            if (streams.isEmpty()) {
                continue;
            }
            StringBuilder key = new StringBuilder(ds.profile().toString()).append('|').append(ds.thin()).append('|')
                    .append(ds.name()).append('|').append(ds.capacityBytes()).append('|').append(seed);
            for (Stream s : streams) {
                key.append('|').append(s.id()).append('=').append(s.sizeBytes()).append('@').append(s.base()).append(':')
                        .append(s.spec());
            }
            CompletableFuture<List<DiskWindow>> claim = new CompletableFuture<>();
            CompletableFuture<List<DiskWindow>> held = samples.byKey.putIfAbsent(key.toString(), claim);
            if (held == null) {
                held = claim;
                mine.add(busy.size());
            }
            busy.add(ds);
            streamsOf.add(streams);
            sampleOf.add(held);
            keys.add(key.toString());
        }
        simulateClaimed(mine, busy, streamsOf, sampleOf, keys);
        List<DiskWindow> out = new ArrayList<>();
        Map<String, Double> copyRate = new HashMap<>();
        for (int k = 0; k < busy.size(); k++) {
            Datastore ds = busy.get(k);
            List<Stream> streams = streamsOf.get(k);
            List<DiskWindow> sample = await(sampleOf.get(k));
            for (int i = 0; i < streams.size(); i++) {
                DiskWindow w = sample.get(i);
                double scale = seconds / Math.max(1e-9, w.seconds());
                String id = streams.get(i).id();
                out.add(new DiskWindow(id, ds.name(), startMs, seconds, Math.round(w.ios() * scale),
                        Math.round(w.reads() * scale), Math.round(w.writes() * scale),
                        Math.round(w.bytesRead() * scale), Math.round(w.bytesWritten() * scale),
                        w.meanOutstanding(), w.meanLatencyMs(), w.p50Ms(), w.p90Ms(), w.p99Ms(), w.meanIoSizeKB(),
                        w.readShare(), w.randomness(), w.readLatencyMs(), w.writeLatencyMs(), w.readOutstanding(),
                        w.writeOutstanding(), Math.round(w.smallSeeks() * scale), Math.round(w.mediumSeeks() * scale),
                        Math.round(w.largeSeeks() * scale)));
                if (id.startsWith("copy-")) {
                    copyRate.put(id, (w.bytesRead() + w.bytesWritten()) / w.seconds());
                }
            }
        }
        for (Relocation r : world.relocations()) {
            double rd = copyRate.getOrDefault("copy-read:" + r.disk().id(), 0.0);
            double wr = copyRate.getOrDefault("copy-write:" + r.disk().id(), 0.0);
            // The copy is a pipeline: it moves data as fast as its slower side.
            r.addCopied((long) (Math.min(rd, wr) * seconds));
            if (r.done()) {
                world.completeRelocation(r, endMs);
            }
        }
        return out;
    }

    /**
     * Simulates the samples this run claimed ({@code mine}, indexes into the lists). One that fails is
     * released with every claimed sample not yet simulated, so a run waiting for them fails too rather
     * than waiting for ever, and a later run simulates them afresh.
     */
    private void simulateClaimed(List<Integer> mine, List<Datastore> busy, List<List<Stream>> streamsOf,
                                 List<CompletableFuture<List<DiskWindow>>> sampleOf, List<String> keys) {
        int next = 0;
        try {
            for (; next < mine.size(); next++) {
                int k = mine.get(next);
                sampleOf.get(k).complete(sample(busy.get(k), streamsOf.get(k)));
            }
        } catch (RuntimeException | Error e) {
            for (int j = next; j < mine.size(); j++) {
                int k = mine.get(j);
                samples.byKey.remove(keys.get(k), sampleOf.get(k));
                sampleOf.get(k).completeExceptionally(e);
            }
            throw e;
        }
    }

    private static List<DiskWindow> await(CompletableFuture<List<DiskWindow>> sample) throws InterruptedException {
        try {
            return sample.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
    }

    private List<DiskWindow> sample(Datastore ds, List<Stream> streams) {
        samplesTaken++;
        return sample(ds.profile(), ds.capacityBytes(), ds.thin(), ds.name(), seed, streams);
    }

    /**
     * The steady state of closed-loop workloads running together on one device, sampled as a
     * datastore's is (class comment): workload i on its own virtual disk, the disks splitting the
     * LUN evenly in order. One window per workload, in order, each named {@code disk<i>}.
     *
     * @param datastore the datastore's name, which seeds its device as in a world run
     */
    public static List<DiskWindow> together(DeviceProfile profile, long capacityBytes, String datastore, long seed,
                                            List<WorkloadSpec> workloads) {
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("no workloads to run together on " + datastore);
        }
        long size = capacityBytes / workloads.size();
        List<Stream> streams = new ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            streams.add(new Stream("disk" + i, size, i * size, workloads.get(i)));
        }
        return sample(profile, capacityBytes, false, datastore, seed, streams);
    }

    private static List<DiskWindow> sample(DeviceProfile profile, long capacityBytes, boolean thinLun, String datastore,
                                           long seed, List<Stream> streams) {
        Simulation sim = new Simulation();
        StorageDevice dev = DeviceProfiles.build(sim, profile, capacityBytes, seed ^ datastore.hashCode());
        if (thinLun) {
            ThinProvisionedLun thin = new ThinProvisionedLun(sim, dev);
            for (Stream s : streams) {
                thin.allocate(s.base(), s.sizeBytes());
            }
            dev = thin;
        }
        StorageDevice device = dev;
        List<WindowAccumulator> accs = new ArrayList<>();
        long[] total = {0};
        for (Stream s : streams) {
            WindowAccumulator acc = new WindowAccumulator(s.id(), 0);
            accs.add(acc);
            DiskLocation where = new DiskLocation(datastore, device, s.base());
            new VirtualDiskWorkload(sim, s.id(), s.sizeBytes(), s.spec(), () -> where, new IoObserver() {
                @Override
                public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
                    acc.issued(now, diskOffset, sizeBytes, read);
                }

                @Override
                public void completed(double now, IoRequest io) {
                    acc.completed(now, io);
                    total[0]++;
                }
            }, seed * 7919 + s.id().hashCode()).start();
        }
        sim.runUntil(WARMUP_MS);
        warmUpCaches(sim, device);
        for (WindowAccumulator a : accs) {
            a.restart(sim.now());
        }
        total[0] = 0;
        double start = sim.now();
        while (true) {
            sim.runUntil(sim.now() + 500);
            double el = sim.now() - start;
            if (el >= MAX_SAMPLE_MS || (el >= MIN_SAMPLE_MS && total[0] >= SAMPLE_IOS)) {
                break;
            }
        }
        List<DiskWindow> out = new ArrayList<>();
        for (WindowAccumulator a : accs) {
            out.add(a.close(sim.now(), datastore));
        }
        return out;
    }

    /**
     * Runs on until the device's caches are in their steady state (class comment): a write-back cache that
     * filled until its content has been renewed once, one that did not once it stops growing; a read cache
     * once it is full or stops growing.
     */
    static void warmUpCaches(Simulation sim, StorageDevice device) {
        StorageDevice.Caches c = device.caches();
        if (!(c.writeRoom() > 0) && !(c.readRoom() > 0)) {
            return;
        }
        double renewedAt = Double.NaN; // bytes written into the write cache at which its content has been renewed
        while (sim.now() < MAX_WARMUP_MS) {
            StorageDevice.Caches before = device.caches();
            renewedAt = renewedAt(renewedAt, before);
            if (writeSettled(before, before, renewedAt) && full(before.readHeld(), before.readRoom())) {
                return;
            }
            sim.runUntil(Math.min(MAX_WARMUP_MS, sim.now() + CACHE_STEP_MS));
            StorageDevice.Caches after = device.caches();
            renewedAt = renewedAt(renewedAt, after);
            boolean readSettled = full(after.readHeld(), after.readRoom())
                    || after.readHeld() - before.readHeld() < CACHE_RISE * after.readRoom();
            if (writeSettled(before, after, renewedAt) && readSettled) {
                return;
            }
        }
    }

    /** Once the write cache is first full: the bytes written into it by which all it held then has been destaged. */
    private static double renewedAt(double renewedAt, StorageDevice.Caches now) {
        return Double.isNaN(renewedAt) && now.writeRoom() > 0 && full(now.dirty(), now.writeRoom())
                ? now.written() + now.writeRoom() : renewedAt;
    }

    /** No write cache; one that filled and has renewed its content; or one that never filled and stopped growing. */
    private static boolean writeSettled(StorageDevice.Caches before, StorageDevice.Caches after, double renewedAt) {
        if (!(after.writeRoom() > 0)) {
            return true;
        }
        if (!Double.isNaN(renewedAt)) {
            return after.written() >= renewedAt;
        }
        return after != before && after.dirty() - before.dirty() < CACHE_RISE * after.writeRoom();
    }

    /** A cache without room, or one this full. */
    private static boolean full(double level, double room) {
        return !(room > 0) || level >= CACHE_FULL * room;
    }
}
