package io.opensdrs.server.balancing;

import io.opensdrs.balance.AutomationPolicy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.MaintenanceState;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.VmState;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The homes that break keep-VMDKs-together. vSphere's intra-VM affinity rule keeps a VM's files
 * together on one datastore — the configuration file, logs and swap as much as the VMDKs
 * (Storage DRS creates one "DrmDisk" for the system files beside one per VMDK, and moves them as
 * one while the rule holds). The engine knows disks, not homes: its rule repair gathers a VM's
 * VMDKs, and a VM moved whole takes its home along, but a home left on another datastore of the
 * cluster than the VM's gathered disks — the VM moved by hand, a disk added elsewhere and gathered,
 * a VM created with its disks on another datastore than its .vmx — is a violation it cannot see.
 * This finds those and gives each a move of the home alone to its disks' datastore (the few bytes
 * to copy, not the disks), reason {@code virtualDiskJointAffin}, under the rule-enforcement
 * automation level; a VM excluded from Storage DRS, with its home or its disks on a datastore
 * that is not accessible, or whose home would take its disks' datastore over the space threshold
 * once the plan has landed ({@link HomeSpace}), is a fault that says so.
 * <p>
 * A VM the plan moves, or faults, is left to the plan: a kept-together VM moves whole, its home
 * along. A home on a datastore entering
 * maintenance is its evacuation's ({@link VmHomeEvacuation}); one outside the cluster is not the
 * cluster's rule to enforce (the vSphere rule applies inside one datastore cluster).
 */
@Component
public class KeptTogetherHomes {

    private final JdbcTemplate jdbc;

    public KeptTogetherHomes(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    private record Home(String vmId, String name, String datastoreId) {
    }

    /**
     * @param plan the run's plan
     * @param a the cluster as the plan saw it
     */
    public VmHomeEvacuation.Planned plan(MovePlan plan, ClusterStateAssembler.Assembled a) {
        ClusterState state = a.state();
        Map<String, DatastoreState> datastores = state.datastores().stream()
                .collect(Collectors.toMap(DatastoreState::id, Function.identity()));
        Map<String, Home> homes = jdbc.query("SELECT v.moid, v.name, v.home_datastore_moid FROM vm v JOIN datastore d"
                        + " ON d.moid = v.home_datastore_moid WHERE d.cluster_moid = ? ORDER BY v.moid",
                (rs, i) -> new Home(rs.getString(1), rs.getString(2), rs.getString(3)), state.clusterId())
                .stream().collect(Collectors.toMap(Home::vmId, Function.identity()));
        Set<String> planned = new LinkedHashSet<>();
        plan.moves().forEach(m -> planned.add(m.vmId()));
        plan.faults().forEach(f -> planned.add(f.vmId()));
        // the engine's own reading of keep-together: the VM's override, else the cluster's default,
        // switched off by a VMDK anti-affinity rule on the VM
        Set<String> together = state.vmsKeepingTogether();
        HomeSpace space = new HomeSpace(jdbc, plan, a);
        List<VmHomeEvacuation.HomeMove> moves = new ArrayList<>();
        List<BalancingViews.FaultView> faults = new ArrayList<>();
        String reason = ReasonCode.VIRTUAL_DISK_JOINT_AFFIN.wireName();
        for (VmState vm : state.vms()) {
            Home home = homes.get(vm.id());
            if (home == null || vm.disks().isEmpty() || !together.contains(vm.id()) || planned.contains(vm.id())) {
                continue;
            }
            Set<String> disksOn = new LinkedHashSet<>();
            vm.disks().forEach(d -> disksOn.add(d.datastoreId()));
            if (disksOn.size() != 1 || disksOn.contains(home.datastoreId())) {
                continue; // spread disks are the engine's to gather (RuleRepair), the whole VM with them
            }
            String target = disksOn.iterator().next();
            DatastoreState from = datastores.get(home.datastoreId());
            DatastoreState to = datastores.get(target);
            if (from == null || to == null) {
                continue; // not a datastore the run saw
            }
            if (from.maintenance() != MaintenanceState.NORMAL || to.maintenance() != MaintenanceState.NORMAL) {
                continue; // an evacuation places the VM's files, by this rule
            }
            String violation = "VM " + home.name() + " keeps its VMDKs together but its home (configuration files, logs, swap) is on "
                    + a.datastoreName(home.datastoreId()) + " and its disks on " + a.datastoreName(target);
            if (vm.override() == VmOverride.EXCLUDED) {
                faults.add(new BalancingViews.FaultView(vm.id(), null, home.datastoreId(), reason,
                        violation + "; the VM is excluded from Storage DRS: fix it by hand"));
                continue;
            }
            if (!from.accessible() || !to.accessible()) {
                faults.add(new BalancingViews.FaultView(vm.id(), null, home.datastoreId(), reason, violation + "; datastore "
                        + a.datastoreName(from.accessible() ? target : home.datastoreId()) + " is not accessible"));
                continue;
            }
            String full = space.refusal(vm.id(), target);
            if (full != null) {
                faults.add(new BalancingViews.FaultView(vm.id(), null, home.datastoreId(), reason, violation + "; " + full));
                continue;
            }
            space.moveHome(vm.id(), home.datastoreId(), target);
            moves.add(new VmHomeEvacuation.HomeMove(vm.id(), home.name(), home.datastoreId(), target,
                    violation + "; the home" + space.sizeOfHome(vm.id()) + " joins its disks on "
                            + a.datastoreName(target) + ", the fewest bytes to copy",
                    AutomationPolicy.autoApplicable(state.settings(), ReasonCode.VIRTUAL_DISK_JOINT_AFFIN, vm.override()),
                    ReasonCode.VIRTUAL_DISK_JOINT_AFFIN));
        }
        return new VmHomeEvacuation.Planned(moves, faults);
    }
}
