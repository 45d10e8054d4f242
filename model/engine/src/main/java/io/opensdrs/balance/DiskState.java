package io.opensdrs.balance;

import io.opensdrs.model.Workload;

/**
 * One virtual disk (VMDK).
 *
 * @param id disk id, unique in the cluster
 * @param key vCenter's device key of the disk in its VM ({@code VirtualDevice.key}), what a relocation names
 *     it by ({@link Relocation#diskKeys()}); {@link #NO_KEY} in a world not read from vCenter (a test's, a
 *     benchmark's)
 * @param sizeGb space it takes (what a storage vMotion copies and the destination must hold)
 * @param datastoreId where it lives now
 * @param workload its workload characteristics (O, Z, R, X)
 * @param observedIops its measured IOPS (informative; BASIL's alternative candidate order)
 */
public record DiskState(String id, int key, double sizeGb, String datastoreId, Workload workload, double observedIops) {

    /** The key of a disk not read from vCenter. */
    public static final int NO_KEY = -1;

    public DiskState {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("disk id must not be blank");
        }
        if (!(sizeGb >= 0) || Double.isInfinite(sizeGb)) {
            throw new IllegalArgumentException("disk " + id + ": sizeGb must be >= 0, got " + sizeGb);
        }
        if (datastoreId == null || workload == null) {
            throw new IllegalArgumentException("disk " + id + ": needs a datastore and a workload");
        }
    }

    /** A disk of a world not read from vCenter: no device key. */
    public DiskState(String id, double sizeGb, String datastoreId, Workload workload, double observedIops) {
        this(id, NO_KEY, sizeGb, datastoreId, workload, observedIops);
    }

    public DiskState on(String datastore) {
        return new DiskState(id, key, sizeGb, datastore, workload, observedIops);
    }
}
