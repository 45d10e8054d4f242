package io.opensdrs.testbed.world;

import io.opensdrs.scenario.WorkloadSpec;
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

/**
 * The fast method for long virtual-time runs. Datastores do not interact except through
 * relocations, and a closed-loop system reaches its steady state within seconds; so for
 * each datastore the run simulates, IO by IO, a short sample of exactly what runs on it
 * (its disks' workloads of the moment, any copy streams) and reuses the sample for every
 * window until that changes (a phase boundary, an event, a relocation starting or ending).
 * The sample is the same mechanistic device, not a formula; the agreement with
 * {@link IoLevelRun} on steady-state mean latency is tested (within 5 %).
 */
public final class SteadyStateRun extends WorldRun {
    /** Simulated warm-up before a sample is measured, ms. */
    static final double WARMUP_MS = 2_000;
    /** A sample ends after this many IOs ... */
    static final long SAMPLE_IOS = 4_000;
    /** ... or this much simulated time, whichever comes first (but not before MIN_SAMPLE_MS). */
    static final double MAX_SAMPLE_MS = 60_000;
    static final double MIN_SAMPLE_MS = 3_000;

    private final Map<String, List<DiskWindow>> samples = new HashMap<>();
    private int samplesTaken;

    /** One closed-loop stream on a datastore for sampling. */
    private record Stream(String id, long sizeBytes, long base, WorkloadSpec spec) {
    }

    SteadyStateRun(World world, long seed) {
        super(world, seed);
    }

    /** How many IO-level samples the run has simulated (the rest were reused). */
    public int samplesTaken() {
        return samplesTaken;
    }

    @Override
    protected List<DiskWindow> window(double startMs, double endMs, Clock clock) {
        double hour = startMs / 3_600_000;
        double seconds = (endMs - startMs) / 1000;
        List<DiskWindow> out = new ArrayList<>();
        Map<String, Double> copyRate = new HashMap<>();
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
            StringBuilder key = new StringBuilder(ds.profile().toString()).append('|').append(ds.thin());
            for (Stream s : streams) {
                key.append('|').append(s.sizeBytes()).append('@').append(s.base()).append(':').append(s.spec());
            }
            List<DiskWindow> sample = samples.computeIfAbsent(key.toString(), k -> sample(ds, streams));
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

    private List<DiskWindow> sample(Datastore ds, List<Stream> streams) {
        samplesTaken++;
        Simulation sim = new Simulation();
        StorageDevice dev = DeviceProfiles.build(sim, ds.profile(), ds.capacityBytes(), seed ^ ds.name().hashCode());
        if (ds.thin()) {
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
            DiskLocation where = new DiskLocation(ds.name(), device, s.base());
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
        for (WindowAccumulator a : accs) {
            a.close(sim.now(), ds.name());
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
            out.add(a.close(sim.now(), ds.name()));
        }
        return out;
    }
}
