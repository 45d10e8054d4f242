package io.opensdrs.balance;

import io.opensdrs.model.Workload;

/**
 * One virtual disk (VMDK).
 *
 * @param id disk id, unique in the cluster
 * @param sizeGb space it takes (what a storage vMotion copies and the destination must hold)
 * @param datastoreId where it lives now
 * @param workload its workload characteristics (O, Z, R, X)
 * @param observedIops its measured IOPS (informative; BASIL's alternative candidate order)
 */
public record DiskState(String id, double sizeGb, String datastoreId, Workload workload, double observedIops) {

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

    public DiskState on(String datastore) {
        return new DiskState(id, sizeGb, datastore, workload, observedIops);
    }
}
