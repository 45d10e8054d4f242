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
import io.opensdrs.testbed.workload.TokenBucketThrottle;
import io.opensdrs.testbed.workload.VirtualDiskWorkload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every IO of every disk simulated on one event queue: the reference method. */
public final class IoLevelRun extends WorldRun {
    private final Simulation sim = new Simulation();
    private final Map<String, StorageDevice> devices = new LinkedHashMap<>();
    private final Map<String, VirtualDiskWorkload> loops = new LinkedHashMap<>();
    private final Map<String, WindowAccumulator> stats = new LinkedHashMap<>();
    private final Map<Relocation, Copy> copies = new LinkedHashMap<>();
    private final Map<String, long[]> submitted = new LinkedHashMap<>();
    /** Each virtual disk's current second (SLEDS's per-stream samples); copies have none. */
    private final Map<String, WindowAccumulator> seconds = new LinkedHashMap<>();
    /** Set from the vSCSI service's threads, read on the engine's. */
    private volatile SecondListener secondListener;

    /** Receives each simulated second's statistics of every virtual disk (window_seconds 1). */
    public interface SecondListener {
        void second(double startMs, List<DiskWindow> disks);
    }

    private final class Copy {
        final VirtualDiskWorkload reader;
        final VirtualDiskWorkload writer;
        long read;
        long written;

        Copy(Relocation r) {
            String id = r.disk().id();
            WindowAccumulator rs = new WindowAccumulator("copy-read:" + id, sim.now());
            WindowAccumulator ws = new WindowAccumulator("copy-write:" + id, sim.now());
            stats.put("copy-read:" + id, rs);
            stats.put("copy-write:" + id, ws);
            DiskLocation src = new DiskLocation(r.from(), device(r.from()), r.sourceBase());
            DiskLocation dst = new DiskLocation(r.to(), device(r.to()), r.destinationBase());
            WorkloadSpec copyRead = new WorkloadSpec(Relocation.COPY_OIO, Relocation.COPY_IO_KB, 100.0, 0.0, 0.0, null);
            WorkloadSpec copyWrite = new WorkloadSpec(Relocation.COPY_OIO, Relocation.COPY_IO_KB, 0.0, 0.0, 0.0, null);
            reader = new VirtualDiskWorkload(sim, "copy-read:" + id, r.disk().sizeBytes(), copyRead, () -> src,
                    observer(rs, n -> { read += n; progress(r); }), seed ^ id.hashCode());
            writer = new VirtualDiskWorkload(sim, "copy-write:" + id, r.disk().sizeBytes(), copyWrite, () -> dst,
                    observer(ws, n -> { written += n; progress(r); }), seed ^ (id.hashCode() * 31L));
            reader.start();
            writer.start();
        }

        void progress(Relocation r) {
            long copied = Math.min(read, written);
            if (copied > r.copiedBytes()) {
                r.addCopied(copied - r.copiedBytes());
            }
            if (r.done() && copies.containsKey(r)) {
                reader.stop();
                writer.stop();
                copies.remove(r);
                world.completeRelocation(r, sim.now());
            }
        }
    }

    IoLevelRun(World world, long seed) {
        super(world, seed);
        for (VirtualDisk d : world.disks()) {
            WindowAccumulator acc = new WindowAccumulator(d.id(), 0);
            stats.put(d.id(), acc);
            WindowAccumulator second = new WindowAccumulator(d.id(), 0);
            seconds.put(d.id(), second);
            VirtualDiskWorkload loop = new VirtualDiskWorkload(sim, d.id(), d.sizeBytes(), d.workloadAt(0),
                    () -> new DiskLocation(d.datastore(), device(d.datastore()), d.baseOffset()),
                    observer(acc, second), seed * 1_000_003L + d.id().hashCode());
            loops.put(d.id(), loop);
        }
        loops.values().forEach(VirtualDiskWorkload::start);
    }

    /** A virtual disk's IO counted in its window and in its second. */
    private static IoObserver observer(WindowAccumulator acc, WindowAccumulator second) {
        return new IoObserver() {
            @Override
            public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
                acc.issued(now, diskOffset, sizeBytes, read);
                second.issued(now, diskOffset, sizeBytes, read);
            }

            @Override
            public void completed(double now, IoRequest io) {
                acc.completed(now, io);
                second.completed(now, io);
            }
        };
    }

    private static IoObserver observer(WindowAccumulator acc, java.util.function.LongConsumer bytesDone) {
        return new IoObserver() {
            @Override
            public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
                acc.issued(now, diskOffset, sizeBytes, read);
            }

            @Override
            public void completed(double now, IoRequest io) {
                acc.completed(now, io);
                bytesDone.accept(io.sizeBytes());
            }
        };
    }

    /**
     * Reports every simulated second from now on (null: none). Windows then advance a second at a
     * time; without a listener each second's accumulation is discarded at the window's end.
     */
    public void onSecond(SecondListener listener) {
        this.secondListener = listener;
    }

    public Simulation simulation() {
        return sim;
    }

    /** The device behind a datastore, built on first use (datastores may be added by events). */
    public StorageDevice device(String datastore) {
        return devices.computeIfAbsent(datastore, name -> {
            Datastore ds = world.datastore(name);
            StorageDevice dev = DeviceProfiles.build(sim, ds.profile(), ds.capacityBytes(), seed ^ name.hashCode());
            if (ds.thin()) {
                ThinProvisionedLun thin = new ThinProvisionedLun(sim, dev);
                for (VirtualDisk d : world.disksOn(name)) {
                    thin.allocate(d.baseOffset(), d.sizeBytes());
                }
                dev = thin;
            }
            return new CountingDevice(dev, submitted.computeIfAbsent(name, k -> new long[1]));
        });
    }

    /**
     * IOs submitted to a datastore's device since the start (VMs, copies and anything else
     * submitted through {@link #device}): the vSCSI service derives the other workloads' IO
     * rate from it for the injector's Little's-law check (Pesto §5.1.1).
     */
    public long submittedIos(String datastore) {
        long[] c = submitted.get(datastore);
        return c == null ? 0 : c[0];
    }

    /** Counts the IOs that enter a device; everything else is the device's own. */
    private record CountingDevice(StorageDevice inner, long[] count) implements StorageDevice {
        @Override
        public String profileName() {
            return inner.profileName();
        }

        @Override
        public long capacityBytes() {
            return inner.capacityBytes();
        }

        @Override
        public void submit(IoRequest io) {
            count[0]++;
            inner.submit(io);
        }

        @Override
        public int outstanding() {
            return inner.outstanding();
        }

        @Override
        public Caches caches() {
            return inner.caches();
        }
    }

    /**
     * Starts the copy of every relocation that has none yet. Runs at each window start; the
     * vSCSI service calls it as soon as a placement change arrives so that the copy starts then.
     */
    public void startPendingCopies() {
        for (Relocation r : world.relocations()) {
            if (!copies.containsKey(r)) {
                copies.put(r, new Copy(r));
            }
        }
    }

    /** Changes a disk's workload now (not at the next window boundary): a VM starts or stops its IO. */
    public void shiftWorkload(String diskId, WorkloadSpec workload) {
        VirtualDisk d = world.disk(diskId);
        d.setWorkload(workload);
        loops.get(diskId).setSpec(d.workloadAt(sim.now() / 3_600_000));
    }

    /** Applies a throttle to one disk's IO path (the vSCSI service's StreamLimit). */
    public void throttle(String diskId, TokenBucketThrottle t) {
        VirtualDiskWorkload loop = loops.get(diskId);
        if (loop == null) {
            throw new IllegalArgumentException("no virtual disk '" + diskId + "'");
        }
        loop.setThrottle(t);
    }

    @Override
    protected List<DiskWindow> window(double startMs, double endMs, Clock clock) throws InterruptedException {
        double hour = startMs / 3_600_000;
        for (VirtualDisk d : world.disks()) {
            VirtualDiskWorkload loop = loops.get(d.id());
            WorkloadSpec want = d.workloadAt(hour);
            if (!want.equals(loop.spec())) {
                loop.setSpec(want);
            }
        }
        startPendingCopies();
        if (secondListener == null) {
            clock.advanceTo(sim, endMs);
            closeSeconds();
        } else {
            for (double t = startMs + 1_000; t <= endMs + 1e-6; t += 1_000) {
                double secondStart = t - 1_000;
                clock.advanceTo(sim, t);
                List<DiskWindow> second = closeSeconds();
                SecondListener l = secondListener;
                if (l != null) {
                    l.second(secondStart, second);
                }
            }
        }
        List<DiskWindow> out = new ArrayList<>();
        for (Map.Entry<String, WindowAccumulator> e : new ArrayList<>(stats.entrySet())) {
            String id = e.getKey();
            String ds;
            if (id.startsWith("copy-")) {
                Relocation r = findRelocation(id.substring(id.indexOf(':') + 1));
                if (r == null) {
                    stats.remove(id);
                    continue;
                }
                ds = id.startsWith("copy-read:") ? r.from() : r.to();
            } else {
                ds = world.disk(id).datastore();
            }
            out.add(e.getValue().close(sim.now(), ds));
        }
        return out;
    }

    private List<DiskWindow> closeSeconds() {
        List<DiskWindow> out = new ArrayList<>(seconds.size());
        seconds.forEach((id, acc) -> out.add(acc.close(sim.now(), world.disk(id).datastore())));
        return out;
    }

    private Relocation findRelocation(String diskId) {
        for (Relocation r : copies.keySet()) {
            if (r.disk().id().equals(diskId)) {
                return r;
            }
        }
        return null;
    }
}
