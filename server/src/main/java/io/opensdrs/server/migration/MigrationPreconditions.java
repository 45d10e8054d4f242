package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;

import java.util.Optional;

/**
 * What must hold, in vCenter's inventory as it is now, before an action is issued: the VM and
 * its disks still where the recommendation found them, the destination accessible and not in
 * maintenance, mounted on the VM's host, with room for the disks (and the home, when it moves) once
 * the space of other migrations in flight towards it is set aside, and no rule broken.
 */
public final class MigrationPreconditions {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final PlacementRules rules;
    private final MoveDescriptions names;

    public MigrationPreconditions(PlacementRules rules, MoveDescriptions names) {
        this.rules = rules;
        this.names = names;
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
        Optional<Outcome> gone = placementGone(inv, a, names);
        if (gone.isPresent()) {
            return gone.get();
        }
        InventorySnapshot.Vm vm = inv.vm(a.vmId()).orElseThrow();
        InventorySnapshot.Datastore dest = inv.datastore(a.destinationDatastore()).orElseThrow();
        long bytes = 0;
        if (!a.homeOnly()) {
            for (InventorySnapshot.VirtualDisk d : vm.disks()) {
                if ((a.wholeVm() || a.diskKeys().contains(d.key())) && !d.datastoreId().equals(dest.id())) {
                    bytes += d.capacityBytes();
                }
            }
        }
        // the home — configuration files, logs, swap — lands too when the VM moves whole or the home alone moves
        if ((a.homeOnly() || a.wholeVm()) && !dest.id().equals(vm.homeDatastoreId())) {
            bytes += vm.homeBytes();
        }

        if (!dest.accessible()) {
            return Outcome.fail("InaccessibleDatastore", "Unable to access datastore '" + dest.name() + "': it is not accessible");
        }
        for (String s : a.sourceDatastores()) {
            Optional<InventorySnapshot.Datastore> src = inv.datastore(s);
            if (src.isEmpty() || !src.get().accessible()) {
                return Outcome.fail("InaccessibleDatastore", "Unable to access source datastore '"
                        + src.map(InventorySnapshot.Datastore::name).orElseGet(() -> names.datastore(s)) + "'");
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

    /**
     * Whether the placement the action was made for is gone from {@code inv}: the VM, a disk or
     * the destination no longer exists, a disk or the home is on another datastore than the
     * action's source ({@code FAIL}), or everything it moves is on the destination already
     * ({@code ALREADY_DONE}); empty while the action still applies. The applier asks it of
     * vCenter before it issues an action; {@link OutdatedRecommendations} asks it of the stored
     * inventory to withdraw pending recommendations a change outside Storage DRS has overtaken.
     * A VM or destination gone from {@code inv} is named as the stored inventory last read it.
     */
    public static Optional<Outcome> placementGone(InventorySnapshot inv, MigrationAction a, MoveDescriptions names) {
        Optional<InventorySnapshot.Vm> vmOpt = inv.vm(a.vmId());
        if (vmOpt.isEmpty()) {
            return Optional.of(Outcome.fail("NotFound", "VM " + names.vm(a.vmId()) + " no longer exists"));
        }
        InventorySnapshot.Vm vm = vmOpt.get();
        Optional<InventorySnapshot.Datastore> destOpt = inv.datastore(a.destinationDatastore());
        if (destOpt.isEmpty()) {
            return Optional.of(Outcome.fail("NotFound", "destination datastore " + names.datastore(a.destinationDatastore())
                    + " no longer exists"));
        }
        InventorySnapshot.Datastore dest = destOpt.get();
        if (a.homeOnly()) {
            String home = vm.homeDatastoreId();
            if (dest.id().equals(home)) {
                return Optional.of(new Outcome(Verdict.ALREADY_DONE, null, "the home of VM " + vm.name() + " is already on " + dest.name()));
            }
            if (home != null && !a.sourceDatastores().contains(home)) {
                return Optional.of(Outcome.fail("HomeMoved", "the home of VM " + vm.name() + " is now on " + inv.datastoreName(home)
                        + ", no longer on its source " + a.sourceDatastores().stream().map(inv::datastoreName).toList()));
            }
            return Optional.empty();
        }
        if (a.wholeVm()) {
            return vm.wholeOn(dest.id())
                    ? Optional.of(new Outcome(Verdict.ALREADY_DONE, null, "VM " + vm.name() + " is already on " + dest.name()))
                    : Optional.empty();
        }
        int onDestination = 0;
        for (int key : a.diskKeys()) {
            Optional<InventorySnapshot.VirtualDisk> disk = vm.disk(key);
            if (disk.isEmpty()) {
                return Optional.of(Outcome.fail("NotFound", "disk " + key + " of VM " + vm.name() + " no longer exists"));
            }
            String on = disk.get().datastoreId();
            if (on.equals(dest.id())) {
                onDestination++;
            } else if (!a.sourceDatastores().contains(on)) {
                return Optional.of(Outcome.fail("DiskMoved", "disk " + key + " of VM " + vm.name() + " is now on " + inv.datastoreName(on)
                        + ", no longer on its source " + a.sourceDatastores().stream().map(inv::datastoreName).toList()));
            }
        }
        return onDestination == a.diskKeys().size()
                ? Optional.of(new Outcome(Verdict.ALREADY_DONE, null, "the disks are already on " + dest.name()))
                : Optional.empty();
    }
}
