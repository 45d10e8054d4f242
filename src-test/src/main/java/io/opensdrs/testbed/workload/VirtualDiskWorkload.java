package io.opensdrs.testbed.workload;

import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.IoRequest;
import io.opensdrs.testbed.sim.Simulation;

import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * A closed-loop workload on one virtual disk, the way Iometer or fio drives a disk: it
 * keeps {@code oio} IOs outstanding; when one completes it waits the think time and issues
 * the next. Each IO is a read with probability R, random with probability X (else it
 * continues where the previous IO ended), of size Z. IOs go to the device of the datastore
 * the disk lives on <em>at the moment they are issued</em>, so a completed relocation
 * redirects the next IO.
 */
public final class VirtualDiskWorkload {
    private static final int ALIGN = 4096;

    private final Simulation sim;
    private final String id;
    private final long sizeBytes;
    private final Supplier<DiskLocation> location;
    private final IoObserver observer;
    private final SplittableRandom rng;
    private WorkloadSpec spec;
    private TokenBucketThrottle throttle = TokenBucketThrottle.unlimited();
    private int targetOio;
    private int inFlight;
    private long seqCursor;
    private boolean running;

    public VirtualDiskWorkload(Simulation sim, String id, long sizeBytes, WorkloadSpec spec,
                               Supplier<DiskLocation> location, IoObserver observer, long seed) {
        this.sim = sim;
        this.id = id;
        this.sizeBytes = Math.max(sizeBytes, 1024L * 1024);
        this.location = location;
        this.observer = observer;
        this.rng = new SplittableRandom(seed);
        this.spec = spec;
        this.seqCursor = alignedRandomOffset(4096);
    }

    public String id() {
        return id;
    }

    public WorkloadSpec spec() {
        return spec;
    }

    public int inFlight() {
        return inFlight;
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    /** Outstanding IOs the loop keeps for a spec: O rounded, at least 1 unless O is 0 (idle). */
    public static int oioOf(WorkloadSpec s) {
        if (s.oio() <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.round(s.oio()));
    }

    public void start() {
        running = true;
        targetOio = oioOf(spec);
        topUp();
    }

    public void stop() {
        running = false;
        targetOio = 0;
    }

    /** Changes the workload (a phase boundary or a workload shift); the loop adapts as IOs complete. */
    public void setSpec(WorkloadSpec newSpec) {
        this.spec = newSpec;
        this.targetOio = running ? oioOf(newSpec) : 0;
        if (running) {
            topUp();
        }
    }

    public void setThrottle(TokenBucketThrottle t) {
        this.throttle = t == null ? TokenBucketThrottle.unlimited() : t;
    }

    private void topUp() {
        while (running && inFlight < targetOio) {
            issue();
        }
    }

    private long alignedRandomOffset(int ioBytes) {
        long slots = Math.max(1, (sizeBytes - ioBytes) / ALIGN);
        return rng.nextLong(slots) * ALIGN;
    }

    private void issue() {
        WorkloadSpec s = spec;
        int bytes = (int) Math.max(512, Math.round(s.ioSizeKB() * 1024));
        boolean read = rng.nextDouble() * 100 < s.readPct();
        boolean random = rng.nextDouble() * 100 < s.randomPct();
        long diskOffset;
        if (random) {
            diskOffset = alignedRandomOffset(bytes);
        } else {
            diskOffset = seqCursor + bytes <= sizeBytes ? seqCursor : 0;
        }
        seqCursor = diskOffset + bytes;
        inFlight++;
        double now = sim.now();
        observer.issued(now, diskOffset, bytes, read);
        double admitAt = throttle.isUnlimited() ? now : throttle.admit(now, bytes, read);
        long off = diskOffset;
        Runnable enter = () -> {
            DiskLocation where = location.get();
            IoRequest io = new IoRequest(where.baseOffset() + off, bytes, read, this::completed);
            io.submittedAt(now); // latency counts from the vSCSI queue, throttle wait included
            where.device().submit(io);
        };
        if (admitAt > now) {
            sim.at(admitAt, enter);
        } else {
            enter.run();
        }
    }

    private void completed(IoRequest io) {
        inFlight--;
        observer.completed(sim.now(), io);
        if (!running || inFlight >= targetOio) {
            return;
        }
        double think = spec.thinkTimeMs();
        if (think > 0) {
            // Exponential think times: a user population rather than a metronome.
            double wait = -Math.log(1 - rng.nextDouble()) * think;
            inFlight++; // the slot is reserved while the thread thinks
            sim.after(wait, () -> {
                inFlight--;
                if (running && inFlight < targetOio) {
                    issue();
                }
            });
        } else {
            issue();
        }
    }
}
