package io.opensdrs.server.migration;

import java.util.List;

/**
 * One move of a recommendation: the given disks of a VM, or, with no disk keys, the whole VM
 * (home and every disk), to a datastore; or, {@code homeOnly}, the VM's home alone — its
 * configuration file and the files beside it — with every disk staying where it is (vim25
 * {@code RelocateVM_Task} with {@code spec.datastore} and a locator per disk for its current datastore).
 */
public record Move(String vmId, List<Integer> diskKeys, String destinationDatastoreId, boolean homeOnly) {
    public Move {
        diskKeys = diskKeys == null ? List.of() : List.copyOf(diskKeys);
    }

    /** The given disks, or the whole VM when there are none. */
    public Move(String vmId, List<Integer> diskKeys, String destinationDatastoreId) {
        this(vmId, diskKeys, destinationDatastoreId, false);
    }

    public boolean wholeVm() {
        return diskKeys.isEmpty() && !homeOnly;
    }
}
