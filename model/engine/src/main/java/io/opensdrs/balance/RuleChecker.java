package io.opensdrs.balance;

import java.util.Locale;
import java.util.Optional;

/**
 * The one place that decides whether placing disks on a datastore respects every rule and
 * hard constraint (SPEC §4, BASIL §4 "hard constraints always hold"). Every strategy and
 * workflow asks it before recommending anything:
 * <ol>
 *   <li>the destination accepts disks (accessible, not entering or in maintenance);</li>
 *   <li>the VM's host is connected to the destination;</li>
 *   <li>space: the destination stays within its space threshold (utilization or free-space mode);</li>
 *   <li>keep VMDKs together: a kept-together VM ends on one datastore;</li>
 *   <li>VMDK anti-affinity: no disk that moves lands beside another disk of its rule;</li>
 *   <li>VM anti-affinity: no disk that moves lands on a datastore holding a disk of another VM
 *       of its rule.</li>
 * </ol>
 * A move never creates a violation. One the inventory already has does not block a move that
 * leaves it as it is — {@link RuleRepair} fixes it, or reports it — so checks 5 and 6 judge the
 * disks that move, not the pairs that stay. On a placement that respects every rule this is the
 * same as requiring that every rule holds after the move.
 * With {@code ignoreAffinity} (SDRS's "ignore affinity rules for maintenance") checks 5 and 6
 * are skipped; keep-together is a property of the VM and still holds.
 */
public final class RuleChecker {

    private RuleChecker() {
    }

    /** Why moving {@code disks} of VM {@code vm} to {@code destination} is not allowed; empty when it is. */
    public static Optional<String> violation(WorkingPlacement p, int vm, int[] disks, int destination, boolean ignoreAffinity) {
        return Optional.ofNullable(check(p, vm, disks, destination, ignoreAffinity));
    }

    public static boolean allows(WorkingPlacement p, int vm, int[] disks, int destination, boolean ignoreAffinity) {
        return check(p, vm, disks, destination, ignoreAffinity) == null;
    }

    static String check(WorkingPlacement p, int vm, int[] disks, int destination, boolean ignoreAffinity) {
        if (!p.acceptsDisks[destination]) {
            return "datastore " + p.datastoreName(destination) + " does not accept disks (inaccessible or in maintenance)";
        }
        if (!p.vmSees[vm].get(destination)) {
            return "host " + p.vmHostName(vm) + " of VM " + p.vmName(vm) + " is not connected to datastore " + p.datastoreName(destination);
        }
        double incoming = 0;
        for (int i : disks) {
            if (p.diskDatastore[i] != destination) {
                incoming += p.diskSizeGb[i];
            }
        }
        incoming += p.homeArrivingGb(vm, disks, destination);
        double limit = p.settings.spaceLimitGb(p.capacityGb[destination]);
        if (incoming > 0 && p.usedGb[destination] + incoming > limit + 1e-9) {
            return String.format(Locale.ROOT, "datastore %s would hold %.1f GB, over its space threshold of %.1f GB",
                    p.datastoreName(destination), p.usedGb[destination] + incoming, limit);
        }
        if (p.keepTogether[vm]) {
            for (int i : p.vmDisks[vm]) {
                if (after(p, i, disks, destination) != destination) {
                    return "VM " + p.vmName(vm) + " keeps its VMDKs together: " + p.diskName(i) + " would stay on "
                            + p.datastoreName(p.diskDatastore[i]);
                }
            }
        }
        if (ignoreAffinity) {
            return null;
        }
        for (int r : p.vmdkRulesOfVm[vm]) {
            int[] members = p.vmdkAntiAffinity[r];
            for (int a : members) {
                if (!lands(p, a, disks, destination)) {
                    continue;
                }
                for (int b : members) {
                    if (b != a && after(p, b, disks, destination) == destination) {
                        return "VMDK anti-affinity rule " + p.ruleNames[r] + ": " + p.diskName(a) + " and "
                                + p.diskName(b) + " would share datastore " + p.datastoreName(destination);
                    }
                }
            }
        }
        if (p.vmRulesOfVm[vm].length > 0 && landsAny(p, disks, destination)) {
            for (int r : p.vmRulesOfVm[vm]) {
                for (int other : p.vmAntiAffinity[r]) {
                    if (other == vm) {
                        continue;
                    }
                    for (int i : p.vmDisks[other]) {
                        if (p.diskDatastore[i] == destination) {
                            return "VM anti-affinity rule " + p.ruleNames[p.vmdkAntiAffinity.length + r] + ": VMs "
                                    + p.vmName(vm) + " and " + p.vmName(other) + " would share datastore "
                                    + p.datastoreName(destination);
                        }
                    }
                }
            }
        }
        return null;
    }

    /** Whether {@code disk} is among the moving disks and not on the destination already. */
    private static boolean lands(WorkingPlacement p, int disk, int[] moving, int destination) {
        if (p.diskDatastore[disk] == destination) {
            return false;
        }
        for (int i : moving) {
            if (i == disk) {
                return true;
            }
        }
        return false;
    }

    private static boolean landsAny(WorkingPlacement p, int[] moving, int destination) {
        for (int i : moving) {
            if (p.diskDatastore[i] != destination) {
                return true;
            }
        }
        return false;
    }

    private static int after(WorkingPlacement p, int disk, int[] moving, int destination) {
        for (int i : moving) {
            if (i == disk) {
                return destination;
            }
        }
        return p.diskDatastore[disk];
    }
}
