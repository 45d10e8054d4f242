package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;

import java.util.Optional;

/**
 * Whether vCenter's inventory shows an action done: each moved disk's backing on the destination,
 * or for a whole VM, {@code vm.datastore} being the destination alone (the datastores holding any
 * of its files: home and disks), or for a home alone, the VM's home datastore being the destination.
 */
public final class ResultVerifier {

    private ResultVerifier() {
    }

    /** Empty when done; otherwise what is still elsewhere. */
    public static Optional<String> missing(InventorySnapshot inv, MigrationAction a) {
        Optional<InventorySnapshot.Vm> vm = inv.vm(a.vmId());
        if (vm.isEmpty()) {
            return Optional.of("VM " + a.vmId() + " is gone");
        }
        if (a.homeOnly()) {
            String home = vm.get().homeDatastoreId();
            return a.destinationDatastore().equals(home) ? Optional.empty()
                    : Optional.of("the home of VM " + vm.get().name() + " is on " + inv.datastoreName(home));
        }
        if (a.wholeVm()) {
            return vm.get().wholeOn(a.destinationDatastore()) ? Optional.empty() : Optional.of("VM " + vm.get().name()
                    + " has its home or disks on " + vm.get().homeAndDiskDatastoreIds().stream().map(inv::datastoreName).toList());
        }
        for (int key : a.diskKeys()) {
            Optional<InventorySnapshot.VirtualDisk> d = vm.get().disk(key);
            if (d.isEmpty() || !d.get().datastoreId().equals(a.destinationDatastore())) {
                return Optional.of("disk " + key + " of VM " + vm.get().name() + " is on "
                        + d.map(x -> inv.datastoreName(x.datastoreId())).orElse("(no such disk)"));
            }
        }
        return Optional.empty();
    }
}
