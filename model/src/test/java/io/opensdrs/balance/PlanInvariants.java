package io.opensdrs.balance;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays a plan's moves on a copy of the world and checks, independently of RuleChecker,
 * that no move breaks keep-together, VMDK anti-affinity, VM anti-affinity, host connectivity
 * or space, that excluded VMs never move, and that no disk moves twice in one plan.
 */
final class PlanInvariants {

    private PlanInvariants() {
    }

    static void check(ClusterState state, MovePlan plan, boolean ignoreAffinity) {
        Map<String, String> diskDs = new HashMap<>();
        Map<String, VmState> vmOfDisk = new HashMap<>();
        Map<String, VmState> vms = new HashMap<>();
        Map<String, Double> used = new HashMap<>();
        Map<String, Double> size = new HashMap<>();
        for (DatastoreState d : state.datastores()) {
            used.put(d.id(), d.usedGb());
        }
        for (VmState vm : state.vms()) {
            vms.put(vm.id(), vm);
            for (DiskState d : vm.disks()) {
                diskDs.put(d.id(), d.datastoreId());
                vmOfDisk.put(d.id(), vm);
                size.put(d.id(), d.sizeGb());
            }
        }
        Set<String> vmdkRuleVms = new HashSet<>();
        for (Rule r : state.rules()) {
            if (r instanceof Rule.VmdkAntiAffinity) {
                vmdkRuleVms.add(((Rule.VmdkAntiAffinity) r).vmId());
            }
        }
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
            for (String disk : m.diskIds()) {
                if (vmOfDisk.get(disk) != vm) {
                    throw new AssertionError(where + "disk " + disk + " is not the vm's");
                }
                if (!diskDs.get(disk).equals(m.sourceDatastoreId())) {
                    throw new AssertionError(where + "disk " + disk + " is not on the source");
                }
                used.merge(diskDs.get(disk), -size.get(disk), Double::sum);
                used.merge(dst.id(), size.get(disk), Double::sum);
                diskDs.put(disk, dst.id());
            }
            if (used.get(dst.id()) > state.settings().spaceLimitGb(dst.capacityGb()) + 1e-6) {
                throw new AssertionError(where + "destination over its space threshold");
            }
            boolean together = vm.keepTogether() != null ? vm.keepTogether() : state.settings().keepVmdksTogetherByDefault();
            if (together && !vmdkRuleVms.contains(vm.id())) {
                Set<String> dss = new HashSet<>();
                vm.disks().forEach(d -> dss.add(diskDs.get(d.id())));
                if (dss.size() > 1) {
                    throw new AssertionError(where + "splits a kept-together VM");
                }
            }
            if (ignoreAffinity) {
                continue;
            }
            for (Rule r : state.rules()) {
                if (r instanceof Rule.VmdkAntiAffinity) {
                    Set<String> seen = new HashSet<>();
                    for (String d : ((Rule.VmdkAntiAffinity) r).diskIds()) {
                        if (!seen.add(diskDs.get(d))) {
                            throw new AssertionError(where + "breaks VMDK anti-affinity " + r.name());
                        }
                    }
                } else if (r instanceof Rule.VmAntiAffinity) {
                    Set<String> seen = new HashSet<>();
                    for (String v : ((Rule.VmAntiAffinity) r).vmIds()) {
                        Set<String> mine = new HashSet<>();
                        vms.get(v).disks().forEach(d -> mine.add(diskDs.get(d.id())));
                        for (String d : mine) {
                            if (seen.contains(d)) {
                                throw new AssertionError(where + "breaks VM anti-affinity " + r.name());
                            }
                        }
                        seen.addAll(mine);
                    }
                }
            }
        }
    }

    static List<Move> all(MovePlan plan) {
        return plan.moves();
    }
}
