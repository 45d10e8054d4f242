package io.opensdrs.balance;

import io.opensdrs.balance.pesto.CostBenefit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Maintenance mode (SPEC §4, Pesto §5.4.2 "Datastore Removal"): evacuate every disk of a
 * datastore entering maintenance — "a series of initial placement operations, except that
 * valid workload models already exist". Each unit (whole VM when its VMDKs are kept together,
 * else one disk), largest first, goes where the datastores' predicted latencies stay most
 * balanced, among the destinations {@link RuleChecker} allows; a unit carrying all of its VM's disks
 * moves the whole VM, its home along ({@link WorkingPlacement#carriesHome}). A unit that fits nowhere is a
 * fault with the reasons; a VM excluded from SDRS is a fault too. The datastore stays
 * {@link MaintenanceState#ENTERING} until all its disks are gone ({@link #stateAfter}).
 * The move cap does not apply: the administrator asked for everything to leave.
 */
public final class MaintenanceEvacuation {

    public static final String NAME = "maintenance";

    private MaintenanceEvacuation() {
    }

    /** Evacuation with the cluster's "ignore affinity rules for maintenance" setting. */
    public static MovePlan plan(ClusterState state, String datastoreId) {
        return plan(state, datastoreId, state.settings().ignoreAffinityForMaintenance());
    }

    public static MovePlan plan(ClusterState state, String datastoreId, boolean ignoreAffinity) {
        DatastoreState leaving = state.datastore(datastoreId);
        ClusterState entering = leaving.maintenance() == MaintenanceState.NORMAL
                ? state.withDatastore(leaving.withMaintenance(MaintenanceState.ENTERING)) : state;
        WorkingPlacement p = WorkingPlacement.forEvacuation(entering);
        MovePlanBuilder b = new MovePlanBuilder(p, NAME);
        CostBenefit costBenefit = new CostBenefit(p);
        int target = p.datastoreIndex(datastoreId);
        String targetName = p.datastoreName(target);
        List<Integer> vms = new ArrayList<>();
        for (int v = 0; v < p.vmCount(); v++) {
            for (int i : p.vmDisks(v)) {
                if (p.diskDatastore(i) == target) {
                    vms.add(v);
                    break;
                }
            }
        }
        List<MovableUnit> units = new ArrayList<>();
        for (int v : vms) {
            if (p.vmOverride(v) == VmOverride.EXCLUDED) {
                b.fault(new Fault(p.vmId(v), null, datastoreId, ReasonCode.DATASTORE_MAINT,
                        "VM " + p.vmName(v) + " is excluded from Storage DRS; move its disks off " + targetName + " by hand"));
                continue;
            }
            List<MovableUnit> own = p.unitsOf(v);
            if (own.isEmpty()) {
                b.fault(new Fault(p.vmId(v), null, datastoreId, ReasonCode.DATASTORE_MAINT,
                        "VM " + p.vmName(v) + " keeps its VMDKs together but they are on several datastores; fix its placement first"));
                continue;
            }
            for (MovableUnit u : own) {
                if (p.datastoreOf(u) == target) {
                    units.add(u);
                }
            }
        }
        units.sort(Comparator.comparingDouble((MovableUnit u) -> -u.sizeGb()));
        for (MovableUnit u : units) {
            Set<String> reasons = new LinkedHashSet<>();
            int dst = PlacementChoice.mostBalanced(p, u, target, ignoreAffinity, reasons);
            if (dst < 0) {
                for (int i : u.disks()) {
                    b.fault(new Fault(p.vmId(u.vm()), p.diskId(i), datastoreId, ReasonCode.DATASTORE_MAINT,
                            p.diskName(i) + " cannot leave " + targetName + ": " + String.join("; ", reasons)));
                }
                continue;
            }
            CostBenefit.Result r = costBenefit.evaluate(u, target, dst);
            String summary = String.format(Locale.ROOT,
                    "datastore %s is entering maintenance; %s goes to %s, the most balanced destination%s: "
                            + "source %s, destination %s (%s); %s",
                    targetName, p.unitName(u), p.datastoreName(dst), ignoreAffinity ? " (affinity rules ignored)" : "",
                    r.source().latencyChange(), r.destination().latencyChange(), r.destination().model(), r.describe());
            b.add(u, dst, ReasonCode.DATASTORE_MAINT, summary, List.of(r.source(), r.destination()), r.cost(), r.benefit(),
                    ignoreAffinity);
        }
        b.note("datastore " + targetName + " stays " + MaintenanceState.ENTERING + " until all its disks have moved");
        return b.build();
    }

    /** ENTERING while any disk is still on the datastore, IN_MAINTENANCE once it is empty. */
    public static MaintenanceState stateAfter(ClusterState state, String datastoreId) {
        for (VmState vm : state.vms()) {
            for (DiskState d : vm.disks()) {
                if (d.datastoreId().equals(datastoreId)) {
                    return MaintenanceState.ENTERING;
                }
            }
        }
        return MaintenanceState.IN_MAINTENANCE;
    }
}
