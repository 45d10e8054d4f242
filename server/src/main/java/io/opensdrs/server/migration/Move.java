package io.opensdrs.server.migration;

import java.util.List;

/**
 * One move of a recommendation: the given disks of a VM (or, with no disk keys, the whole VM:
 * home and every disk) to a datastore.
 */
public record Move(String vmId, List<Integer> diskKeys, String destinationDatastoreId) {
    public Move {
        diskKeys = diskKeys == null ? List.of() : List.copyOf(diskKeys);
    }

    public boolean wholeVm() {
        return diskKeys.isEmpty();
    }
}
