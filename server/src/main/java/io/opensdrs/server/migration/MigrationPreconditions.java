package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;

import java.util.List;
import java.util.Optional;

/**
 * What must hold, in vCenter's inventory as it is now, before an action is issued: the VM and
 * its disks still where the recommendation found them, the destination accessible and not in
 * maintenance, mounted on the VM's host, with room for the disks once the space of other
 * migrations in flight towards it is set aside, and no rule broken.
 */
public final class MigrationPreconditions {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final PlacementRules rules;

    public MigrationPreconditions(PlacementRules rules) {
        this.rules = rules;
    }

    public enum Verdict { GO, ALREADY_DONE, WAIT, FAIL }

    public record Outcome(Verdict verdict, String faultType, String message) {
        static Outcome go() {
            return new Outcome(Verdict.GO, null, null);
        }

        static Outcome fail(String faultType, String message) {
            return new Outcome(Verdict.FAIL, faultType, message);
        }
    }

    /** @param reservedOnDestination bytes other in-flight actions will still write to the destination */
    public Outcome check(InventorySnapshot inv, MigrationAction a, long reservedOnDestination) {
        Optional<InventorySnapshot.Vm> vmOpt = inv.vm(a.vmId());
        if (vmOpt.isEmpty()) {
            return Outcome.fail("NotFound", "VM " + a.vmId() + " no longer exists");
        }
        InventorySnapshot.Vm vm = vmOpt.get();
        Optional<InventorySnapshot.Datastore> destOpt = inv.datastore(a.destinationDatastore());
        if (destOpt.isEmpty()) {
            return Outcome.fail("NotFound", "destination datastore " + a.destinationDatastore() + " no longer exists");
        }
        InventorySnapshot.Datastore dest = destOpt.get();

        long bytes = 0;
        if (a.homeOnly()) {
            String home = vm.homeDatastoreId();
            if (dest.id().equals(home)) {
                return new Outcome(Verdict.ALREADY_DONE, null, "the home of VM " + vm.name() + " is already on " + dest.name());
            }
            if (home != null && !a.sourceDatastores().contains(home)) {
                return Outcome.fail("HomeMoved", "the home of VM " + vm.name() + " is now on " + inv.datastoreName(home)
                        + ", no longer on its source " + a.sourceDatastores().stream().map(inv::datastoreName).toList());
            }
        } else if (a.wholeVm()) {
            if (vm.datastoreIds().equals(List.of(dest.id()))) {
                return new Outcome(Verdict.ALREADY_DONE, null, "VM " + vm.name() + " is already on " + dest.name());
            }
            for (InventorySnapshot.VirtualDisk d : vm.disks()) {
                if (!d.datastoreId().equals(dest.id())) {
                    bytes += d.capacityBytes();
                }
            }
        } else {
            int onDestination = 0;
            for (int key : a.diskKeys()) {
                Optional<InventorySnapshot.VirtualDisk> disk = vm.disk(key);
                if (disk.isEmpty()) {
                    return Outcome.fail("NotFound", "disk " + key + " of VM " + vm.name() + " no longer exists");
                }
                String on = disk.get().datastoreId();
                if (on.equals(dest.id())) {
                    onDestination++;
                } else if (!a.sourceDatastores().contains(on)) {
                    return Outcome.fail("DiskMoved", "disk " + key + " of VM " + vm.name() + " is now on " + inv.datastoreName(on)
                            + ", no longer on its source " + a.sourceDatastores().stream().map(inv::datastoreName).toList());
                } else {
                    bytes += disk.get().capacityBytes();
                }
            }
            if (onDestination == a.diskKeys().size()) {
                return new Outcome(Verdict.ALREADY_DONE, null, "the disks are already on " + dest.name());
            }
        }

        if (!dest.accessible()) {
            return Outcome.fail("InaccessibleDatastore", "Unable to access datastore '" + dest.name() + "': it is not accessible");
        }
        for (String s : a.sourceDatastores()) {
            Optional<InventorySnapshot.Datastore> src = inv.datastore(s);
            if (src.isEmpty() || !src.get().accessible()) {
                return Outcome.fail("InaccessibleDatastore", "Unable to access source datastore '" + inv.datastoreName(s) + "'");
            }
        }
        if (dest.maintenanceMode() != null && !"normal".equals(dest.maintenanceMode())) {
            return Outcome.fail("DatastoreInMaintenance", "datastore '" + dest.name() + "' is " + dest.maintenanceMode());
        }
        Optional<InventorySnapshot.Host> host = inv.host(vm.hostId());
        if (host.isPresent() && !host.get().sees(dest.id())) {
            return Outcome.fail("DatastoreNotWritableOnHost", "host " + host.get().name() + " of VM " + vm.name()
                    + " does not mount datastore '" + dest.name() + "'");
        }
        if (bytes > dest.freeBytes()) {
            return Outcome.fail("NoDiskSpace", String.format("Insufficient disk space on datastore '%s': the move needs %.2f GiB,"
                    + " %.2f GiB are free", dest.name(), bytes / GIB, dest.freeBytes() / GIB));
        }
        if (bytes > dest.freeBytes() - reservedOnDestination) {
            return new Outcome(Verdict.WAIT, null, "waiting for migrations in flight to " + dest.name() + " to finish");
        }
        Optional<String> rule = rules.violation(inv, a);
        if (rule.isPresent()) {
            return Outcome.fail("RuleViolation", rule.get());
        }
        return Outcome.go();
    }
}
