package io.opensdrs.testbed.world;

import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.testbed.device.DeviceProfile;

import java.util.Set;

/**
 * A datastore of the world: its device profile, the LUN's size, which hosts see it, whether
 * it is in maintenance mode, and a simple allocator of LUN regions for the disks placed on it.
 */
public final class Datastore {
    private final DatastoreSpec spec;
    private final DeviceProfile profile;
    private final long capacityBytes;
    private final Set<String> hosts;
    private long nextFree;
    private long usedBytes;
    private boolean maintenance;

    Datastore(DatastoreSpec spec, DeviceProfile profile, Set<String> hosts) {
        this.spec = spec;
        this.profile = profile;
        this.capacityBytes = (long) (spec.capacityGB() * (1L << 30));
        this.hosts = hosts;
    }

    public String name() {
        return spec.name();
    }

    public DatastoreSpec spec() {
        return spec;
    }

    public DeviceProfile profile() {
        return profile;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    public long usedBytes() {
        return usedBytes;
    }

    public boolean thin() {
        return spec.thinProvisioned();
    }

    public boolean inMaintenance() {
        return maintenance;
    }

    void setMaintenance(boolean m) {
        maintenance = m;
    }

    public boolean seenBy(String host) {
        return hosts.contains(host);
    }

    void addHost(String host) {
        hosts.add(host);
    }

    /**
     * Reserves a LUN region for {@code bytes}. Regions are handed out in order; when the
     * end of the LUN is reached allocation wraps (freed regions are not tracked — the
     * layout only matters to seek distances).
     */
    long allocate(long bytes) {
        if (nextFree + bytes > capacityBytes) {
            nextFree = 0;
        }
        long at = nextFree;
        nextFree += bytes;
        usedBytes += bytes;
        return at;
    }

    void release(long bytes) {
        usedBytes = Math.max(0, usedBytes - bytes);
    }
}
