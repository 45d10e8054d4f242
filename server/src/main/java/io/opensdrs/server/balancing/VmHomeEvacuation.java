package io.opensdrs.server.balancing;

import io.opensdrs.balance.AutomationPolicy;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.MaintenanceState;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.settings.ClusterPolicies;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The VM homes a datastore's evacuation would leave behind. vCenter holds a datastore
 * {@code enteringMaintenance} until no VM has any file on it, the VM's home (its configuration
 * file and the files beside it) included; the engine's evacuation ({@code MaintenanceEvacuation})
 * moves disks, and a VM moved whole takes its home along. A home it leaves — the VM's disks are
 * elsewhere, or leave one by one (a VMDK anti-affinity rule, a VM that does not keep its VMDKs
 * together) — gets a move of its own, to where most of the VM's disk data will be (keeping the
 * VM's files together, as Storage DRS's intra-VM affinity does), else to the datastore with the
 * most room under its space threshold; among the cluster's datastores that are accessible, not in
 * maintenance, mounted on the VM's host and left under their space threshold with the home once the
 * plan has landed ({@link HomeSpace}). A home with nowhere to go, or of a VM excluded from Storage DRS, is
 * a fault with the reason; the home of a VM whose disks the engine could not move stays with
 * them, under their fault.
 */
@Component
public class VmHomeEvacuation {

    private final JdbcTemplate jdbc;
    private final ClusterPolicies policies;

    public VmHomeEvacuation(JdbcTemplate jdbc, ClusterPolicies policies) {
        this.jdbc = jdbc;
        this.policies = policies;
    }

    /** A home to move on its own: off a datastore entering maintenance, or to its kept-together disks ({@link KeptTogetherHomes}). */
    public record HomeMove(String vmId, String vmName, String sourceDatastoreId, String destinationDatastoreId, String summary,
                           boolean autoApplicable, ReasonCode reason) {
    }

    public record Planned(List<HomeMove> moves, List<BalancingViews.FaultView> faults) {
    }

    private record HomeOf(String vmId, String name, String hostId) {
    }

    /** Homes on the datastore, in the inventory as the last sync stored it. */
    public int homesOn(String datastoreId) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM vm WHERE home_datastore_moid = ?", Long.class, datastoreId);
        return n == null ? 0 : n.intValue();
    }

    /**
     * @param plan the engine's evacuation of {@code datastoreId}
     * @param a the cluster as the plan saw it
     */
    public Planned plan(String datastoreId, MovePlan plan, ClusterStateAssembler.Assembled a) {
        ClusterState state = a.state();
        Map<String, VmOverride> overrides = new LinkedHashMap<>();
        state.vms().forEach(v -> overrides.put(v.id(), v.override()));
        Map<String, VmOverride> stored = null;
        List<HomeMove> moves = new ArrayList<>();
        List<BalancingViews.FaultView> faults = new ArrayList<>();
        String source = a.datastoreName(datastoreId);
        HomeSpace space = new HomeSpace(jdbc, plan, a);
        for (HomeOf vm : jdbc.query("SELECT moid, name, host_moid FROM vm WHERE home_datastore_moid = ? ORDER BY moid",
                (rs, i) -> new HomeOf(rs.getString(1), rs.getString(2), rs.getString(3)), datastoreId)) {
            if (plan.moves().stream().anyMatch(m -> m.vmId().equals(vm.vmId()) && m.wholeVm())) {
                continue; // its home leaves with it
            }
            if (plan.faults().stream().anyMatch(f -> vm.vmId().equals(f.vmId()))) {
                continue; // a disk of the VM stays (excluded, or nowhere to go): its fault says so, and the home waits with it
            }
            VmOverride override = overrides.get(vm.vmId());
            if (override == null) {
                if (stored == null) {
                    stored = policies.vmOverrides(state.clusterId());
                }
                override = stored.getOrDefault(vm.vmId(), VmOverride.DEFAULT);
            }
            if (override == VmOverride.EXCLUDED) {
                faults.add(new BalancingViews.FaultView(vm.vmId(), null, datastoreId, ReasonCode.DATASTORE_MAINT.wireName(),
                        "the home of VM " + vm.name() + " stays on " + source + ": the VM is excluded from Storage DRS; move it by hand"));
                continue;
            }
            Set<String> candidates = candidates(datastoreId, vm.hostId(), state);
            if (candidates.isEmpty()) {
                faults.add(new BalancingViews.FaultView(vm.vmId(), null, datastoreId, ReasonCode.DATASTORE_MAINT.wireName(),
                        "the home of VM " + vm.name() + " cannot leave " + source + ": no other datastore of the cluster is accessible,"
                                + " out of maintenance and mounted on its host"));
                continue;
            }
            Map<String, String> full = new LinkedHashMap<>();
            candidates.forEach(c -> {
                String refusal = space.refusal(vm.vmId(), c);
                if (refusal != null) {
                    full.put(c, refusal);
                }
            });
            candidates.removeAll(full.keySet());
            Map<String, Double> bytesAfter = bytesAfterPlan(vm.vmId(), plan);
            String destination = null;
            double best = 0;
            for (Map.Entry<String, Double> e : bytesAfter.entrySet()) {
                if (candidates.contains(e.getKey()) && (destination == null || e.getValue() > best)) {
                    destination = e.getKey();
                    best = e.getValue();
                }
            }
            String why = "where most of its disk data will be";
            if (destination == null) {
                why = "the datastore with the most room under its space threshold";
                for (String c : candidates) {
                    double room = space.roomGb(c);
                    if (destination == null || room > best) {
                        destination = c;
                        best = room;
                    }
                }
            }
            if (destination == null) {
                faults.add(new BalancingViews.FaultView(vm.vmId(), null, datastoreId, ReasonCode.DATASTORE_MAINT.wireName(),
                        "the home of VM " + vm.name() + " cannot leave " + source + ": " + String.join("; ", full.values())));
                continue;
            }
            space.moveHome(vm.vmId(), datastoreId, destination);
            moves.add(new HomeMove(vm.vmId(), vm.name(), datastoreId, destination,
                    "datastore " + source + " is entering maintenance; the home of VM " + vm.name() + " (its configuration files)"
                            + space.sizeOfHome(vm.vmId()) + " goes to " + a.datastoreName(destination) + ", " + why
                            + "; its disks stay where they are",
                    AutomationPolicy.autoApplicable(state.settings(), ReasonCode.DATASTORE_MAINT, override), ReasonCode.DATASTORE_MAINT));
        }
        return new Planned(moves, faults);
    }

    /** The cluster's datastores a home may go to. */
    private Set<String> candidates(String leaving, String hostId, ClusterState state) {
        Set<String> mounted = hostId == null ? null : new HashSet<>(jdbc.queryForList(
                "SELECT datastore_moid FROM host_datastore WHERE host_moid = ?", String.class, hostId));
        Set<String> out = new java.util.LinkedHashSet<>();
        for (DatastoreState d : state.datastores()) {
            if (!d.id().equals(leaving) && d.accessible() && d.maintenance() == MaintenanceState.NORMAL
                    && (mounted == null || mounted.contains(d.id()))) {
                out.add(d.id());
            }
        }
        return out;
    }

    /** Bytes of the VM's disks per datastore once the plan's moves are done. */
    private Map<String, Double> bytesAfterPlan(String vmId, MovePlan plan) {
        Map<Integer, String> movedTo = new LinkedHashMap<>();
        for (Move m : plan.moves()) {
            if (m.vmId().equals(vmId)) {
                m.relocation().diskKeys().forEach(k -> movedTo.put(k, m.destinationDatastoreId()));
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        jdbc.query("SELECT disk_key, datastore_moid, size_bytes FROM virtual_disk WHERE vm_moid = ? ORDER BY disk_key",
                rs -> {
                    out.merge(movedTo.getOrDefault(rs.getInt(1), rs.getString(2)), (double) rs.getLong(3), Double::sum);
                }, vmId);
        return out;
    }
}
