package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
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
 *   <li>VMDK anti-affinity: the rule's disks end on pairwise different datastores;</li>
 *   <li>VM anti-affinity: the rule's VMs end sharing no datastore.</li>
 * </ol>
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
            for (int a = 0; a < members.length; a++) {
                int da = after(p, members[a], disks, destination);
                for (int b = a + 1; b < members.length; b++) {
                    if (da == after(p, members[b], disks, destination)) {
                        return "VMDK anti-affinity rule " + p.ruleNames[r] + ": " + p.diskName(members[a]) + " and "
                                + p.diskName(members[b]) + " would share datastore " + p.datastoreName(da);
                    }
                }
            }
        }
        if (p.vmRulesOfVm[vm].length > 0) {
            BitSet mine = new BitSet(p.datastoreCount);
            for (int i : p.vmDisks[vm]) {
                mine.set(after(p, i, disks, destination));
            }
            for (int r : p.vmRulesOfVm[vm]) {
                for (int other : p.vmAntiAffinity[r]) {
                    if (other == vm) {
                        continue;
                    }
                    for (int i : p.vmDisks[other]) {
                        if (mine.get(p.diskDatastore[i])) {
                            return "VM anti-affinity rule " + p.ruleNames[p.vmdkAntiAffinity.length + r] + ": VMs "
                                    + p.vmName(vm) + " and " + p.vmName(other) + " would share datastore "
                                    + p.datastoreName(p.diskDatastore[i]);
                        }
                    }
                }
            }
        }
        return null;
    }

    private static int after(WorkingPlacement p, int disk, int[] moving, int destination) {
        for (int i : moving) {
            if (i == disk) {
                return destination;
            }
        }
        return p.diskDatastore[disk];
    }

    /**
     * Rules the current inventory already breaks (placed by hand, or rules added later):
     * SDRS reports them; here as faults with the rule's reason code.
     */
    public static List<Fault> existingViolations(WorkingPlacement p) {
        List<Fault> out = new ArrayList<>();
        for (int v = 0; v < p.vmIds.length; v++) {
            int[] disks = p.vmDisks[v];
            if (p.keepTogether[v] && disks.length > 1) {
                for (int i : disks) {
                    if (p.diskDatastore[i] != p.diskDatastore[disks[0]]) {
                        out.add(new Fault(p.vmIds[v], null, null, ReasonCode.VIRTUAL_DISK_JOINT_AFFIN,
                                "VM " + p.vmName(v) + " keeps its VMDKs together but they are on more than one datastore"));
                        break;
                    }
                }
            }
        }
        for (int r = 0; r < p.vmdkAntiAffinity.length; r++) {
            int[] m = p.vmdkAntiAffinity[r];
            BitSet seen = new BitSet();
            for (int i : m) {
                if (seen.get(p.diskDatastore[i])) {
                    out.add(new Fault(p.vmIds[p.diskVm[i]], p.diskIds[i], p.datastoreIds[p.diskDatastore[i]],
                            ReasonCode.VIRTUAL_DISK_ANTI_AFFIN, "VMDK anti-affinity rule " + p.ruleNames[r] + " is violated: "
                            + p.diskName(i) + " shares datastore " + p.datastoreName(p.diskDatastore[i]) + " with another disk of the rule"));
                    break;
                }
                seen.set(p.diskDatastore[i]);
            }
        }
        for (int r = 0; r < p.vmAntiAffinity.length; r++) {
            int[] m = p.vmAntiAffinity[r];
            BitSet seen = new BitSet();
            boolean broken = false;
            for (int v : m) {
                BitSet mine = new BitSet();
                for (int i : p.vmDisks[v]) {
                    mine.set(p.diskDatastore[i]);
                }
                if (mine.intersects(seen)) {
                    out.add(new Fault(p.vmIds[v], null, null, ReasonCode.VIRTUAL_DISK_ANTI_AFFIN,
                            "VM anti-affinity rule " + p.ruleNames[p.vmdkAntiAffinity.length + r] + " is violated: VM "
                                    + p.vmName(v) + " shares a datastore with another VM of the rule"));
                    broken = true;
                }
                seen.or(mine);
                if (broken) {
                    break;
                }
            }
        }
        return out;
    }
}
