package io.opensdrs.balance;

import java.util.List;

/**
 * One storage vMotion as vCenter's {@code RelocateVM_Task} is asked for it: the one action type from
 * the engine's plan to vCenter. The engine plans it ({@link Move#relocation()}), the server stores it
 * as a recommendation's action, and its applier issues it as it is.
 *
 * @param vmId the VM (its managed-object id)
 * @param scope what of the VM moves
 * @param diskKeys vCenter's device keys of the disks that move ({@link DiskState#key()}): one locator each
 *     in the relocation's spec; empty unless {@link Scope#DISKS}
 * @param sourceDatastoreIds where what moves is now: with the destination, the datastores the copy reads or
 *     writes, each counted against the per-datastore limit
 * @param destinationDatastoreId where it goes
 * @param hostId the VM's host, counted against the per-host limit; null when not known
 * @param sizeBytes what the copy writes to the destination: the space its pre-condition asks for there
 */
public record Relocation(String vmId, Scope scope, List<Integer> diskKeys, List<String> sourceDatastoreIds,
                         String destinationDatastoreId, String hostId, long sizeBytes) {

    /** What of the VM a relocation moves. */
    public enum Scope {
        /** the listed disks, the home and the other disks staying where they are */
        DISKS,
        /** the VM with every file: its home (configuration, logs, swap) and all its disks */
        WHOLE_VM,
        /** the home alone, every disk staying where it is */
        HOME
    }

    public Relocation {
        if (vmId == null || vmId.isBlank() || scope == null || destinationDatastoreId == null || destinationDatastoreId.isBlank()) {
            throw new IllegalArgumentException("a relocation needs a VM, a scope and a destination");
        }
        diskKeys = List.copyOf(diskKeys);
        sourceDatastoreIds = List.copyOf(sourceDatastoreIds);
        if ((scope == Scope.DISKS) == diskKeys.isEmpty()) {
            throw new IllegalArgumentException("relocation of " + vmId + " (" + scope + "): disk keys " + diskKeys
                    + " — a move of disks lists them, a move of the whole VM or of its home lists none");
        }
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("relocation of " + vmId + ": sizeBytes must be >= 0, got " + sizeBytes);
        }
    }

    public boolean wholeVm() {
        return scope == Scope.WHOLE_VM;
    }

    public boolean homeOnly() {
        return scope == Scope.HOME;
    }
}
