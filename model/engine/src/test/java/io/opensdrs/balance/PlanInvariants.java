package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Replays a plan's moves on a copy of the world and checks, independently of RuleChecker,
 * that no move creates a violation of keep-together, VMDK anti-affinity or VM anti-affinity
 * (on a world that respects every rule: that every rule holds after every move; on one that
 * does not, that each move keeps or removes the violations there were), host connectivity and
 * space, that excluded VMs never move, and that no disk moves twice in one plan.
 */
public final class PlanInvariants {

    private PlanInvariants() {
    }

    public static void check(ClusterState state, MovePlan plan, boolean ignoreAffinity) {
        replay(state, plan, ignoreAffinity);
    }

    /** The violations left once every move of the plan has happened, checked as {@link #check} does. */
    static Set<String> replay(ClusterState state, MovePlan plan, boolean ignoreAffinity) {
        Map<String, String> diskDs = new HashMap<>();
        Map<String, VmState> vmOfDisk = new HashMap<>();
        Map<String, VmState> vms = new HashMap<>();
        Map<String, Double> used = new HashMap<>();
        Map<String, Double> size = new HashMap<>();
        Map<String, String> homeDs = new HashMap<>();
        for (DatastoreState d : state.datastores()) {
            used.put(d.id(), d.usedGb());
        }
        for (VmState vm : state.vms()) {
            vms.put(vm.id(), vm);
            homeDs.put(vm.id(), vm.homeDatastoreId());
            for (DiskState d : vm.disks()) {
                diskDs.put(d.id(), d.datastoreId());
                vmOfDisk.put(d.id(), vm);
                size.put(d.id(), d.sizeGb());
            }
        }
        Set<String> violations = violations(state, vms, diskDs, ignoreAffinity);
        Set<String> movedDisks = new HashSet<>();
        for (Move m : plan.moves()) {
            String where = plan.strategy() + " " + state.clusterId() + " move " + m.sequence() + " (" + m.vmId() + " → "
                    + m.destinationDatastoreId() + "): ";
            for (String d : m.diskIds()) {
                if (!movedDisks.add(d)) {
                    throw new AssertionError(where + "disk " + d + " moves a second time in one plan");
                }
            }
            VmState vm = vms.get(m.vmId());
            if (vm == null) {
                throw new AssertionError(where + "unknown vm");
            }
            if (vm.override() == VmOverride.EXCLUDED) {
                throw new AssertionError(where + "moves an excluded VM");
            }
            DatastoreState dst = state.datastore(m.destinationDatastoreId());
            if (!dst.accessible() || dst.maintenance() != MaintenanceState.NORMAL
                    || (plan.strategy().equals("maintenance") && m.destinationDatastoreId().equals(m.sourceDatastoreId()))) {
                throw new AssertionError(where + "destination does not accept disks");
            }
            HostState host = state.hosts().stream().filter(h -> h.id().equals(vm.hostId())).findFirst().orElseThrow();
            if (!host.datastores().contains(dst.id())) {
                throw new AssertionError(where + "host " + host.id() + " cannot reach destination");
            }
            // only a move of the whole VM (one relocation of all its files) may gather disks from several datastores
            boolean gathers = m.diskIds().size() == vm.disks().size();
            if (m.diskIds().stream().noneMatch(d -> m.sourceDatastoreId().equals(diskDs.get(d)))) {
                throw new AssertionError(where + "none of its disks is on the source");
            }
            for (String disk : m.diskIds()) {
                if (vmOfDisk.get(disk) != vm) {
                    throw new AssertionError(where + "disk " + disk + " is not the vm's");
                }
                if (!gathers && !diskDs.get(disk).equals(m.sourceDatastoreId())) {
                    throw new AssertionError(where + "disk " + disk + " is not on the source");
                }
                used.merge(diskDs.get(disk), -size.get(disk), Double::sum);
                used.merge(dst.id(), size.get(disk), Double::sum);
                diskDs.put(disk, dst.id());
            }
            // a whole VM's relocation takes its home along, which the destination's space holds too
            if (m.wholeVm() && !dst.id().equals(homeDs.get(vm.id()))) {
                if (homeDs.get(vm.id()) != null) {
                    used.merge(homeDs.get(vm.id()), -vm.homeGb(), Double::sum);
                }
                used.merge(dst.id(), vm.homeGb(), Double::sum);
                homeDs.put(vm.id(), dst.id());
            }
            if (used.get(dst.id()) > state.settings().spaceLimitGb(dst.capacityGb()) + 1e-6) {
                throw new AssertionError(where + "destination over its space threshold");
            }
            Set<String> after = violations(state, vms, diskDs, ignoreAffinity);
            for (String v : after) {
                if (!violations.contains(v)) {
                    throw new AssertionError(where + "breaks " + v);
                }
            }
            violations = after;
        }
        return violations;
    }

    /**
     * Every rule violation of a placement, one string per broken pair: {@code keep-together <vm>},
     * {@code vmdk <rule> <disk>|<disk>}, {@code vm <rule> <vm>|<vm>}.
     */
    static Set<String> violations(ClusterState state, Map<String, VmState> vms, Map<String, String> diskDs, boolean ignoreAffinity) {
        Set<String> vmdkRuleVms = new HashSet<>();
        for (Rule r : state.rules()) {
            if (r instanceof Rule.VmdkAntiAffinity) {
                vmdkRuleVms.add(((Rule.VmdkAntiAffinity) r).vmId());
            }
        }
        Set<String> out = new TreeSet<>();
        for (VmState vm : vms.values()) {
            boolean together = vm.keepTogether() != null ? vm.keepTogether() : state.settings().keepVmdksTogetherByDefault();
            Set<String> dss = new HashSet<>();
            vm.disks().forEach(d -> dss.add(diskDs.get(d.id())));
            if (together && !vmdkRuleVms.contains(vm.id()) && dss.size() > 1) {
                out.add("keep-together " + vm.id());
            }
        }
        if (ignoreAffinity) {
            return out;
        }
        for (Rule r : state.rules()) {
            if (r instanceof Rule.VmdkAntiAffinity) {
                List<String> disks = new ArrayList<>(((Rule.VmdkAntiAffinity) r).diskIds());
                disks.sort(null);
                for (int a = 0; a < disks.size(); a++) {
                    for (int b = a + 1; b < disks.size(); b++) {
                        if (diskDs.get(disks.get(a)).equals(diskDs.get(disks.get(b)))) {
                            out.add("vmdk " + r.name() + " " + disks.get(a) + "|" + disks.get(b));
                        }
                    }
                }
            } else if (r instanceof Rule.VmAntiAffinity) {
                List<String> members = new ArrayList<>(((Rule.VmAntiAffinity) r).vmIds());
                members.sort(null);
                for (int a = 0; a < members.size(); a++) {
                    for (int b = a + 1; b < members.size(); b++) {
                        Set<String> mine = new HashSet<>();
                        vms.get(members.get(a)).disks().forEach(d -> mine.add(diskDs.get(d.id())));
                        for (DiskState d : vms.get(members.get(b)).disks()) {
                            if (mine.contains(diskDs.get(d.id()))) {
                                out.add("vm " + r.name() + " " + members.get(a) + "|" + members.get(b));
                                break;
                            }
                        }
                    }
                }
            }
        }
        return out;
    }
}
