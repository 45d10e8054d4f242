package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The VM homes a datastore's evacuation would leave behind. vCenter holds a datastore
 * {@code enteringMaintenance} until no VM has any file on it, the VM's home (its configuration file
 * and the files beside it) included; {@link MaintenanceEvacuation} moves disks, and a VM moved whole
 * takes its home along. A home it leaves — the VM's disks are elsewhere, or leave one by one (a VMDK
 * anti-affinity rule, a VM that does not keep its VMDKs together) — gets a move of its own (a
 * {@link Relocation.Scope#HOME} relocation), to where most of the VM's disk data will be (keeping the
 * VM's files together, as Storage DRS's intra-VM affinity does), else to the datastore with the most
 * room under its space threshold; among the cluster's datastores that are accessible, not in
 * maintenance, mounted on the VM's host and left under their space threshold with the home once the
 * plan has landed ({@link HomeSpace}). A home with nowhere to go, or of a VM excluded from Storage
 * DRS, is a fault with the reason; the home of a VM whose disks the plan could not move stays with
 * them, under their fault.
 * <p>
 * The VMs whose home is on the datastore are all in the state, those without a disk in the cluster
 * too (with no disks).
 */
public final class VmHomeEvacuation {

    private VmHomeEvacuation() {
    }

    /**
     * @param datastoreId the datastore entering maintenance
     * @param plan the evacuation's plan of disks, counted as landed
     * @return the homes' plan: their moves (numbered from 1, one wave) and faults, by VM id
     */
    public static MovePlan plan(ClusterState state, String datastoreId, MovePlan plan) {
        DisplayNames names = state.names();
        List<Move> moves = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        ReasonCode reason = ReasonCode.DATASTORE_MAINT;
        String source = names.datastore(datastoreId);
        HomeSpace space = new HomeSpace(state, plan);
        List<VmState> homed = state.vms().stream().filter(v -> datastoreId.equals(v.homeDatastoreId()))
                .sorted(Comparator.comparing(VmState::id)).toList();
        for (VmState vm : homed) {
            String name = names.vm(vm.id());
            if (plan.moves().stream().anyMatch(m -> m.vmId().equals(vm.id()) && m.wholeVm())) {
                continue; // its home leaves with it
            }
            if (plan.faults().stream().anyMatch(f -> vm.id().equals(f.vmId()))) {
                continue; // a disk of the VM stays (excluded, or nowhere to go): its fault says so, and the home waits with it
            }
            if (vm.override() == VmOverride.EXCLUDED) {
                faults.add(new Fault(vm.id(), null, datastoreId, reason,
                        "the home of VM " + name + " stays on " + source + ": the VM is excluded from Storage DRS; move it by hand"));
                continue;
            }
            Set<String> candidates = candidates(datastoreId, vm.hostId(), state);
            if (candidates.isEmpty()) {
                faults.add(new Fault(vm.id(), null, datastoreId, reason,
                        "the home of VM " + name + " cannot leave " + source + ": no other datastore of the cluster is accessible,"
                                + " out of maintenance and mounted on its host"));
                continue;
            }
            Map<String, String> full = new LinkedHashMap<>();
            candidates.forEach(c -> {
                String refusal = space.refusal(vm.id(), c);
                if (refusal != null) {
                    full.put(c, refusal);
                }
            });
            candidates.removeAll(full.keySet());
            String destination = null;
            double best = 0;
            for (Map.Entry<String, Double> e : gbAfterPlan(vm, plan).entrySet()) {
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
                faults.add(new Fault(vm.id(), null, datastoreId, reason,
                        "the home of VM " + name + " cannot leave " + source + ": " + String.join("; ", full.values())));
                continue;
            }
            String summary = "datastore " + source + " is entering maintenance; the home of VM " + name + " (its configuration files)"
                    + space.sizeOfHome(vm.id()) + " goes to " + names.datastore(destination) + ", " + why + "; its disks stay where they are";
            moves.add(space.homeMove(moves.size() + 1, vm, datastoreId, destination, reason, summary,
                    AutomationPolicy.autoApplicable(state.settings(), reason, vm.override())));
            space.moveHome(vm.id(), datastoreId, destination);
        }
        return new MovePlan(state.clusterId(), plan.strategy(), moves, faults, List.of(), plan.maxConcurrentPerDatastore(),
                plan.maxConcurrentPerHost());
    }

    /** The cluster's datastores a home may go to: accessible, not in maintenance, mounted on its host (any, host unknown). */
    private static Set<String> candidates(String leaving, String hostId, ClusterState state) {
        Set<String> mounted = hostId == null ? null : state.hosts().stream().filter(h -> h.id().equals(hostId)).findFirst()
                .map(HostState::datastores).orElse(Set.of());
        Set<String> out = new LinkedHashSet<>();
        for (DatastoreState d : state.datastores()) {
            if (!d.id().equals(leaving) && d.accessible() && d.maintenance() == MaintenanceState.NORMAL
                    && (mounted == null || mounted.contains(d.id()))) {
                out.add(d.id());
            }
        }
        return out;
    }

    /** GB of the VM's disks per datastore once the plan's moves are done. */
    private static Map<String, Double> gbAfterPlan(VmState vm, MovePlan plan) {
        Map<Integer, String> movedTo = new LinkedHashMap<>();
        for (Move m : plan.moves()) {
            if (m.vmId().equals(vm.id())) {
                m.relocation().diskKeys().forEach(k -> movedTo.put(k, m.destinationDatastoreId()));
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        vm.disks().stream().sorted(Comparator.comparingInt(DiskState::key))
                .forEach(d -> out.merge(movedTo.getOrDefault(d.key(), d.datastoreId()), d.sizeGb(), Double::sum));
        return out;
    }
}
