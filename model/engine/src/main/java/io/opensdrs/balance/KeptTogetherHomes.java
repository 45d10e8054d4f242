package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The homes that break keep-VMDKs-together. vSphere's intra-VM affinity rule keeps a VM's files
 * together on one datastore — the configuration file, logs and swap as much as the VMDKs (Storage
 * DRS creates one "DrmDisk" for the system files beside one per VMDK, and moves them as one while
 * the rule holds). {@link RuleRepair} gathers a VM's VMDKs, and a VM moved whole takes its home
 * along, but a home left on another datastore of the cluster than the VM's gathered disks — the VM
 * moved by hand, a disk added elsewhere and gathered, a VM created with its disks on another
 * datastore than its .vmx — is a violation the disk planners cannot see.
 * <p>
 * This gives each such home a move of its own to its disks' datastore (a {@link Relocation.Scope#HOME}
 * relocation: the few bytes to copy, not the disks), reason {@code virtualDiskJointAffin}, under the
 * rule-enforcement automation level; a VM excluded from Storage DRS, with its home or its disks on a
 * datastore that is not accessible, or whose home would take its disks' datastore over the space
 * threshold once the plan has landed ({@link HomeSpace}), is a fault that says so.
 * <p>
 * A VM the plan moves, or faults, is left to the plan: a kept-together VM moves whole, its home
 * along. A home on a datastore in maintenance is its evacuation's ({@link VmHomeEvacuation}); one
 * outside the cluster ({@link VmState#homeDatastoreId()} null) is not the cluster's rule to enforce
 * (the vSphere rule applies inside one datastore cluster).
 */
public final class KeptTogetherHomes {

    private KeptTogetherHomes() {
    }

    /**
     * @param plan the run's plan, counted as landed
     * @return the homes' plan: their moves (numbered from 1, one wave) and faults
     */
    public static MovePlan plan(ClusterState state, MovePlan plan) {
        Set<String> planned = new LinkedHashSet<>();
        plan.moves().forEach(m -> planned.add(m.vmId()));
        plan.faults().forEach(f -> planned.add(f.vmId()));
        // keep-together as the engine reads it: the VM's override, else the cluster's default, switched off by a
        // VMDK anti-affinity rule on the VM
        Set<String> together = state.vmsKeepingTogether();
        HomeSpace space = new HomeSpace(state, plan);
        DisplayNames names = state.names();
        List<Move> moves = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        ReasonCode reason = ReasonCode.VIRTUAL_DISK_JOINT_AFFIN;
        for (VmState vm : state.vms()) {
            String home = vm.homeDatastoreId();
            if (home == null || vm.disks().isEmpty() || !together.contains(vm.id()) || planned.contains(vm.id())) {
                continue;
            }
            Set<String> disksOn = new LinkedHashSet<>();
            vm.disks().forEach(d -> disksOn.add(d.datastoreId()));
            if (disksOn.size() != 1 || disksOn.contains(home)) {
                continue; // spread disks are RuleRepair's to gather, the whole VM with them
            }
            String target = disksOn.iterator().next();
            DatastoreState from = datastore(state, home);
            DatastoreState to = datastore(state, target);
            if (from == null || to == null) {
                continue; // not a datastore of the cluster
            }
            if (from.maintenance() != MaintenanceState.NORMAL || to.maintenance() != MaintenanceState.NORMAL) {
                continue; // an evacuation places the VM's files, by this rule
            }
            String violation = "VM " + names.vm(vm.id()) + " keeps its VMDKs together but its home (configuration files, logs, swap) is on "
                    + names.datastore(home) + " and its disks on " + names.datastore(target);
            if (vm.override() == VmOverride.EXCLUDED) {
                faults.add(new Fault(vm.id(), null, home, reason, violation + "; the VM is excluded from Storage DRS: fix it by hand"));
                continue;
            }
            if (!from.accessible() || !to.accessible()) {
                faults.add(new Fault(vm.id(), null, home, reason, violation + "; datastore "
                        + names.datastore(from.accessible() ? target : home) + " is not accessible"));
                continue;
            }
            String full = space.refusal(vm.id(), target);
            if (full != null) {
                faults.add(new Fault(vm.id(), null, home, reason, violation + "; " + full));
                continue;
            }
            String summary = violation + "; the home" + space.sizeOfHome(vm.id()) + " joins its disks on " + names.datastore(target)
                    + ", the fewest bytes to copy";
            moves.add(space.homeMove(moves.size() + 1, vm, home, target, reason, summary,
                    AutomationPolicy.autoApplicable(state.settings(), reason, vm.override())));
            space.moveHome(vm.id(), home, target);
        }
        return new MovePlan(state.clusterId(), plan.strategy(), moves, faults, List.of(), plan.maxConcurrentPerDatastore(),
                plan.maxConcurrentPerHost());
    }

    private static DatastoreState datastore(ClusterState state, String id) {
        return state.datastores().stream().filter(d -> d.id().equals(id)).findFirst().orElse(null);
    }
}
