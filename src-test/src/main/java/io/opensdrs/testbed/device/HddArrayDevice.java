package io.opensdrs.testbed.device;

import io.opensdrs.testbed.sim.Simulation;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * A RAID group of spindles behind a controller with a read cache and a write-back cache.
 * A host IO is split at stripe-unit boundaries onto member disks (RAID mapping, left-
 * symmetric parity rotation); small writes to parity RAID pay read-modify-write (read old
 * data and parity, write both); the write-back cache acknowledges writes at controller
 * speed while it has room and destages them to the disks in the background, a bounded number
 * at a time ({@link #DESTAGE_PER_DISK}), so writes wait only once the cache is full.
 */
public final class HddArrayDevice implements StorageDevice {
    private static final long LINE = 64 * 1024;

    private final Simulation sim;
    private final HddArrayProfile p;
    private final long capacityBytes;
    private final long unit;
    private final int dataDisks;
    private final Spindle[] spindles;
    private final ReadCacheLines readCache;
    private final long readCacheLines;
    private final double writeCacheBytes;
    private final double busBytesPerMs;
    private final ArrayDeque<IoRequest> waitingForCache = new ArrayDeque<>();
    private final ArrayDeque<IoRequest> destageQueue = new ArrayDeque<>();
    private final int destageLimit;
    private int destaging;
    private double dirtyBytes;
    private double writtenToCache;
    private int outstanding;

    public HddArrayDevice(Simulation sim, HddArrayProfile profile, long capacityBytes, long seed) {
        this.sim = sim;
        this.p = profile;
        this.capacityBytes = capacityBytes;
        this.unit = profile.stripeKB() * 1024L;
        this.dataDisks = profile.raid().dataDisks(profile.disks());
        SplittableRandom rng = new SplittableRandom(seed);
        SpindleMechanics mech = profile.prefetch() ? profile.mechanics()
                : profile.mechanics().withReadAheadKB(0);
        // Each member disk holds capacity / dataDisks of the LUN; the LUN spans the full stroke.
        long perDisk = (capacityBytes + dataDisks - 1) / dataDisks;
        this.spindles = new Spindle[profile.disks()];
        for (int i = 0; i < spindles.length; i++) {
            spindles[i] = new Spindle(sim, mech, perDisk, rng.nextDouble());
        }
        this.readCacheLines = (long) (profile.readCacheGB() * 1024 * 1024 * 1024 / LINE);
        this.readCache = readCacheLines > 0 ? new ReadCacheLines(readCacheLines) : null;
        this.writeCacheBytes = profile.writeCacheMB() * 1024 * 1024;
        this.busBytesPerMs = profile.busMBps() * 1e3;
        this.destageLimit = Math.max(1, (int) Math.round(DESTAGE_PER_DISK * profile.disks()));
    }

    /**
     * Destage writes in flight per member disk. A controller destages dirty data in the
     * background a few stripes at a time (its flush threads, cf. Linux md's stripe cache and
     * the "destage" schedulers of Varma and Jacobson, FAST 2003), not all at once: issuing every
     * acknowledged write to the disks at once would put thousands of commands ahead of the host's
     * reads in the drives' queues.
     */
    static final double DESTAGE_PER_DISK = 1;

    @Override
    public String profileName() {
        return p.name();
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public int outstanding() {
        return outstanding;
    }

    @Override
    public Caches caches() {
        return new Caches(writeCacheBytes, dirtyBytes, writtenToCache, readCache == null ? 0 : (double) readCacheLines * LINE,
                readCache == null ? 0 : (double) readCache.size() * LINE);
    }

    public HddArrayProfile profile() {
        return p;
    }

    @Override
    public void submit(IoRequest io) {
        outstanding++;
        if (Double.isNaN(io.submittedAt())) {
            io.submittedAt(sim.now());
        }
        if (io.read()) {
            read(io);
        } else if (writeCacheBytes > 0) {
            if (dirtyBytes + io.sizeBytes() <= writeCacheBytes && waitingForCache.isEmpty()) {
                acceptIntoCache(io);
            } else {
                waitingForCache.add(io);
            }
        } else {
            writeToDisks(io, () -> finish(io, sim.now()));
        }
    }

    private void finish(IoRequest io, double at) {
        sim.at(at, () -> {
            outstanding--;
            io.complete(sim.now());
        });
    }

    private double cacheServiceMs(IoRequest io) {
        return p.controllerMs() + io.sizeBytes() / busBytesPerMs;
    }

    private void read(IoRequest io) {
        if (readCache != null && cached(io)) {
            finish(io, sim.now() + cacheServiceMs(io));
            return;
        }
        int[] remaining = {0};
        Runnable pieceDone = () -> {
            if (--remaining[0] == 0) {
                fillCache(io);
                finish(io, sim.now() + io.sizeBytes() / busBytesPerMs);
            }
        };
        long off = io.offset();
        long end = io.end();
        java.util.List<Runnable> submits = new java.util.ArrayList<>();
        while (off < end) {
            long pieceEnd = Math.min(end, (off / unit + 1) * unit);
            int size = (int) (pieceEnd - off);
            long stripe = off / unit;
            int disk = readDisk(stripe);
            long diskOffset = diskOffset(stripe, off);
            remaining[0]++;
            Spindle s = spindles[disk];
            Spindle.Op op = new Spindle.Op(diskOffset, size, true, pieceDone);
            submits.add(() -> s.submit(op));
            off = pieceEnd;
        }
        // The controller maps the IO before the disks see it.
        sim.after(p.controllerMs(), () -> submits.forEach(Runnable::run));
    }

    private boolean cached(IoRequest io) {
        for (long l = io.offset() / LINE; l <= (io.end() - 1) / LINE; l++) {
            if (!readCache.touch(l)) {
                return false;
            }
        }
        return true;
    }

    private void fillCache(IoRequest io) {
        if (readCache == null) {
            return;
        }
        for (long l = io.offset() / LINE; l <= (io.end() - 1) / LINE; l++) {
            readCache.add(l);
        }
    }

    private void acceptIntoCache(IoRequest io) {
        dirtyBytes += io.sizeBytes();
        writtenToCache += io.sizeBytes();
        finish(io, sim.now() + cacheServiceMs(io));
        destageQueue.add(io);
        destageNext();
    }

    private void destageNext() {
        while (destaging < destageLimit && !destageQueue.isEmpty()) {
            IoRequest io = destageQueue.poll();
            destaging++;
            writeToDisks(io, () -> {
                destaging--;
                dirtyBytes -= io.sizeBytes();
                while (!waitingForCache.isEmpty()
                        && dirtyBytes + waitingForCache.peek().sizeBytes() <= writeCacheBytes) {
                    acceptIntoCache(waitingForCache.poll());
                }
                destageNext();
            });
        }
    }

    /** Writes (or destages) a host write to the member disks, paying the RAID write penalty. */
    private void writeToDisks(IoRequest io, Runnable done) {
        int[] remaining = {0};
        Runnable pieceDone = () -> {
            if (--remaining[0] == 0) {
                done.run();
            }
        };
        long off = io.offset();
        long end = io.end();
        java.util.List<Runnable> submits = new java.util.ArrayList<>();
        while (off < end) {
            long pieceEnd = Math.min(end, (off / unit + 1) * unit);
            int size = (int) (pieceEnd - off);
            long stripe = off / unit;
            long diskOffset = diskOffset(stripe, off);
            remaining[0]++;
            submits.add(() -> writePiece(stripe, diskOffset, size, pieceDone));
            off = pieceEnd;
        }
        sim.after(p.controllerMs(), () -> submits.forEach(Runnable::run));
    }

    private void writePiece(long stripe, long diskOffset, int size, Runnable done) {
        int n = p.disks();
        switch (p.raid()) {
            case NONE:
            case RAID0:
                spindles[dataDisk(stripe)].submit(new Spindle.Op(diskOffset, size, false, done));
                break;
            case RAID1:
            case RAID10: {
                int pair = (int) (stripe % dataDisks);
                parallel(new int[]{2 * pair, 2 * pair + 1}, diskOffset, size, false, done);
                break;
            }
            case RAID5: {
                long row = stripe / dataDisks;
                int parity = (int) (n - 1 - row % n);
                int data = dataDisk(stripe);
                int[] both = {data, parity};
                // Read-modify-write: old data and old parity first, then new data and parity.
                parallel(both, diskOffset, size, true, () -> parallel(both, diskOffset, size, false, done));
                break;
            }
            case RAID6: {
                long row = stripe / dataDisks;
                int pp = (int) (n - 1 - row % n);
                int q = (pp + 1) % n;
                int[] three = {dataDisk(stripe), pp, q};
                parallel(three, diskOffset, size, true, () -> parallel(three, diskOffset, size, false, done));
                break;
            }
            default:
                throw new AssertionError(p.raid());
        }
    }

    private void parallel(int[] disks, long diskOffset, int size, boolean read, Runnable done) {
        int[] remaining = {disks.length};
        for (int d : disks) {
            spindles[d].submit(new Spindle.Op(diskOffset, size, read, () -> {
                if (--remaining[0] == 0) {
                    done.run();
                }
            }));
        }
    }

    /** Member disk holding the data of stripe unit {@code stripe}. */
    private int dataDisk(long stripe) {
        int n = p.disks();
        switch (p.raid()) {
            case NONE:
                return 0;
            case RAID0:
                return (int) (stripe % n);
            case RAID1:
            case RAID10:
                return (int) (2 * (stripe % dataDisks));
            case RAID5: {
                long row = stripe / dataDisks;
                int parity = (int) (n - 1 - row % n);
                return (int) ((parity + 1 + stripe % dataDisks) % n);
            }
            case RAID6: {
                long row = stripe / dataDisks;
                int pp = (int) (n - 1 - row % n);
                return (int) ((pp + 2 + stripe % dataDisks) % n);
            }
            default:
                throw new AssertionError(p.raid());
        }
    }

    /** For reads, mirrored levels use whichever copy has the shorter queue. */
    private int readDisk(long stripe) {
        int d = dataDisk(stripe);
        if (p.raid() == RaidLevel.RAID1 || p.raid() == RaidLevel.RAID10) {
            return spindles[d + 1].queued() < spindles[d].queued() ? d + 1 : d;
        }
        return d;
    }

    private long diskOffset(long stripe, long lunOffset) {
        long row = stripe / dataDisks;
        return row * unit + lunOffset % unit;
    }
}
