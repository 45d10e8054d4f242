package io.opensdrs.testbed.device;

import io.opensdrs.testbed.sim.Simulation;

import java.util.BitSet;

/**
 * Thin provisioning in front of a device: a read of a region never written is answered
 * by the controller with zeros, without touching the media — the fast, all-zero IOs Pesto
 * §5.1.2 had to detect and discard when measuring thin-provisioned datastores.
 */
public final class ThinProvisionedLun implements StorageDevice {
    /** Allocation granularity of the thin LUN. */
    public static final long CHUNK = 1024 * 1024;
    /** Time the controller takes to answer a read of unallocated space, ms. */
    public static final double ZERO_FILL_MS = 0.05;

    private final Simulation sim;
    private final StorageDevice backing;
    private final BitSet allocated = new BitSet();
    private int zeroFillsOutstanding;

    public ThinProvisionedLun(Simulation sim, StorageDevice backing) {
        this.sim = sim;
        this.backing = backing;
    }

    /** Marks a byte range as holding data (a placed virtual disk). */
    public void allocate(long offset, long length) {
        if (length <= 0) {
            return;
        }
        long first = offset / CHUNK;
        long last = (offset + length - 1) / CHUNK;
        allocated.set((int) first, (int) Math.min(Integer.MAX_VALUE, last + 1));
    }

    public boolean isAllocated(long offset, long length) {
        for (long c = offset / CHUNK; c <= (offset + length - 1) / CHUNK; c++) {
            if (!allocated.get((int) c)) {
                return false;
            }
        }
        return true;
    }

    public StorageDevice backing() {
        return backing;
    }

    @Override
    public String profileName() {
        return backing.profileName();
    }

    @Override
    public long capacityBytes() {
        return backing.capacityBytes();
    }

    @Override
    public int outstanding() {
        return backing.outstanding() + zeroFillsOutstanding;
    }

    @Override
    public Caches caches() {
        return backing.caches();
    }

    @Override
    public void submit(IoRequest io) {
        if (Double.isNaN(io.submittedAt())) {
            io.submittedAt(sim.now());
        }
        if (io.read() && !isAllocated(io.offset(), io.sizeBytes())) {
            zeroFillsOutstanding++;
            io.markZeroFilled();
            sim.after(ZERO_FILL_MS, () -> {
                zeroFillsOutstanding--;
                io.complete(sim.now());
            });
            return;
        }
        if (!io.read()) {
            allocate(io.offset(), io.sizeBytes());
        }
        backing.submit(io);
    }
}
