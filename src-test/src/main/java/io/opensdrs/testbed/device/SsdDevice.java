package io.opensdrs.testbed.device;

import io.opensdrs.testbed.sim.Simulation;

import java.util.ArrayDeque;

/**
 * A flash device: every command passes one serial front end (command processing plus the
 * transfer over the host link — on a SATA SSD this, not the flash, caps 4 KiB IOPS), then
 * its pages go to the flash channels that hold them, each channel serving one page at a
 * time. Writes are acknowledged from the DRAM write cache while it has room and programmed
 * in the background; once the cache is full a write waits for room, and programming costs
 * {@code writeAmplification} times more flash time (garbage collection).
 */
public final class SsdDevice implements StorageDevice {
    private static final long PAGE = 16 * 1024;

    private final Simulation sim;
    private final SsdProfile p;
    private final long capacityBytes;
    private final double[] channelFreeAt;
    private final double linkBytesPerMs;
    private final double channelBytesPerMs;
    private final double writeCacheBytes;
    private final ArrayDeque<IoRequest> waitingForCache = new ArrayDeque<>();
    private static final long MAX_MERGE_BYTES = 512 * 1024;
    private final ArrayDeque<IoRequest> frontQueue = new ArrayDeque<>();
    private boolean frontEndBusy;
    private double dirtyBytes;
    private double writtenToCache;
    private int outstanding;

    public SsdDevice(Simulation sim, SsdProfile profile, long capacityBytes) {
        this.sim = sim;
        this.p = profile;
        this.capacityBytes = capacityBytes;
        this.channelFreeAt = new double[profile.channels()];
        this.linkBytesPerMs = profile.linkMBps() * 1e3;
        this.channelBytesPerMs = profile.channelMBps() * 1e3;
        this.writeCacheBytes = profile.writeCacheMB() * 1024 * 1024;
    }

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
        return new Caches(writeCacheBytes, dirtyBytes, writtenToCache, 0, 0);
    }

    public SsdProfile profile() {
        return p;
    }

    @Override
    public void submit(IoRequest io) {
        outstanding++;
        if (Double.isNaN(io.submittedAt())) {
            io.submittedAt(sim.now());
        }
        frontQueue.add(io);
        if (!frontEndBusy) {
            nextCommand();
        }
    }

    /**
     * The serial front end takes the next command. Requests still waiting in the host queue
     * that continue it (contiguous, same direction) are merged into one command, as the
     * Linux block layer does, up to {@link #MAX_MERGE_BYTES} — which is why sequential
     * streams of small IOs outrun random ones on a command-bound SATA SSD.
     */
    private void nextCommand() {
        IoRequest first = frontQueue.poll();
        if (first == null) {
            frontEndBusy = false;
            return;
        }
        frontEndBusy = true;
        java.util.List<IoRequest> command = new java.util.ArrayList<>();
        command.add(first);
        long end = first.end();
        long bytes = first.sizeBytes();
        while (!frontQueue.isEmpty() && frontQueue.peek().offset() == end
                && frontQueue.peek().read() == first.read() && bytes + frontQueue.peek().sizeBytes() <= MAX_MERGE_BYTES) {
            IoRequest next = frontQueue.poll();
            command.add(next);
            end = next.end();
            bytes += next.sizeBytes();
        }
        double frontDone = sim.now() + p.commandUs() / 1000.0 + bytes / linkBytesPerMs;
        sim.at(frontDone, () -> {
            for (IoRequest io : command) {
                afterFrontEnd(io);
            }
            nextCommand();
        });
    }

    private void afterFrontEnd(IoRequest io) {
        double frontDone = sim.now();
        if (io.read()) {
            sim.at(frontDone, () -> flash(io, true, 1.0, () -> finish(io)));
        } else if (writeCacheBytes > 0) {
            sim.at(frontDone, () -> {
                if (dirtyBytes + io.sizeBytes() <= writeCacheBytes && waitingForCache.isEmpty()) {
                    acceptIntoCache(io);
                } else {
                    waitingForCache.add(io);
                }
            });
        } else {
            sim.at(frontDone, () -> flash(io, false, p.writeAmplification(), () -> finish(io)));
        }
    }

    private void finish(IoRequest io) {
        outstanding--;
        io.complete(sim.now());
    }

    private void acceptIntoCache(IoRequest io) {
        dirtyBytes += io.sizeBytes();
        writtenToCache += io.sizeBytes();
        // Programming under a nearly full cache means garbage collection is running.
        double wa = dirtyBytes > 0.9 * writeCacheBytes ? p.writeAmplification() : 1.0;
        finish(io);
        flash(io, false, wa, () -> {
            dirtyBytes -= io.sizeBytes();
            while (!waitingForCache.isEmpty()
                    && dirtyBytes + waitingForCache.peek().sizeBytes() <= writeCacheBytes) {
                acceptIntoCache(waitingForCache.poll());
            }
        });
    }

    /** Serves the IO's pages on their channels; {@code done} runs when the last page is done. */
    private void flash(IoRequest io, boolean read, double amplification, Runnable done) {
        double latest = sim.now();
        long first = io.offset() / PAGE;
        long last = (io.end() - 1) / PAGE;
        for (long page = first; page <= last; page++) {
            long from = Math.max(io.offset(), page * PAGE);
            long to = Math.min(io.end(), (page + 1) * PAGE);
            // Pages are striped over channels by address (mixing the page number so that
            // strided patterns do not all land on one channel).
            int ch = (int) Math.floorMod(page * 0x9E3779B97F4A7C15L >>> 17, channelFreeAt.length);
            double work = ((read ? p.readUs() : p.programUs()) / 1000.0 + (to - from) / channelBytesPerMs)
                    * amplification;
            double start = Math.max(sim.now(), channelFreeAt[ch]);
            channelFreeAt[ch] = start + work;
            latest = Math.max(latest, channelFreeAt[ch]);
        }
        sim.at(latest, done);
    }
}
