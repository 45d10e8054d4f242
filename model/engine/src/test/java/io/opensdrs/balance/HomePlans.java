package io.opensdrs.balance;

import io.opensdrs.model.Workload;

import java.util.List;

/** Plans and VMs for the tests of the homes' planners ({@link KeptTogetherHomes}, {@link VmHomeEvacuation}). */
final class HomePlans {

    private HomePlans() {
    }

    /** A plan with the given moves and no faults. */
    static MovePlan plan(Move... moves) {
        return new MovePlan("test", "test", List.of(moves), List.of(), List.of(), 2, 2);
    }

    /** A VM on host h0 with one disk (key 2000) per datastore in {@code diskDatastores}, each {@code diskGb}. */
    static VmState vm(String id, VmOverride override, Boolean keepTogether, String homeDatastore, double homeGb, double diskGb,
                      String... diskDatastores) {
        List<DiskState> disks = new java.util.ArrayList<>();
        for (int i = 0; i < diskDatastores.length; i++) {
            disks.add(new DiskState(id + "/" + (2000 + i), 2000 + i, diskGb, diskDatastores[i], new Workload(1, 4, 1, 1), 0));
        }
        return new VmState(id, "h0", override, keepTogether, disks, homeDatastore, homeGb);
    }

    /** A move of the VM's listed disks (by key) from {@code from} to {@code to}, or of the whole VM when no key is given. */
    static Move move(String vmId, String from, String to, double sizeGb, Integer... keys) {
        Relocation.Scope scope = keys.length == 0 ? Relocation.Scope.WHOLE_VM : Relocation.Scope.DISKS;
        Relocation r = new Relocation(vmId, scope, List.of(keys), List.of(from), to, "h0", (long) (sizeGb * (1L << 30)));
        return new Move(1, 1, r, List.of(), from, sizeGb, ReasonCode.BALANCE_DATASTORE_SPACE_USAGE, null, null, null, false);
    }
}
