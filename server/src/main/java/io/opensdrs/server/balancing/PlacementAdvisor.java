package io.opensdrs.server.balancing;

import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.InitialPlacement;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.VmState;
import io.opensdrs.model.Workload;
import io.opensdrs.server.problems.InvalidFieldException;
import io.opensdrs.server.settings.ClusterPolicies;
import org.springframework.stereotype.Service;

import java.util.ArrayList;
import java.util.List;

/**
 * Initial placement, like vSphere's RecommendDatastores (reason {@code storagePlacement}): where a
 * new disk should go. Pesto §5.4.2: a disk without statistics gets the cluster's average workload
 * and the datastore that leaves the predicted latencies most balanced wins; BASIL §4 on request:
 * the least normalized load. Each datastore is listed with the latency its model predicts once
 * the new disk is on it. Nothing is stored: placement is advice for a VM that does not exist yet.
 */
@Service
public class PlacementAdvisor {

    private final ClusterStateAssembler assembler;
    private final ClusterPolicies policies;

    public PlacementAdvisor(ClusterStateAssembler assembler, ClusterPolicies policies) {
        this.assembler = assembler;
        this.policies = policies;
    }

    /**
     * {@code workload} null = the cluster's average (Pesto §5.4.2); {@code hostId} null = any host;
     * {@code homeGb} the new VM's configuration files and swap, placed with the disk (0: not counted).
     *
     * @throws IllegalStateException while Storage DRS is off for the cluster, as vCenter's
     *                               RecommendDatastores then refuses the pod
     */
    public BalancingViews.PlacementResult recommend(String clusterId, double sizeGb, double homeGb, Workload workload, String vmName,
                                                    String hostId, InitialPlacement.Objective objective) {
        policies.requireStorageDrsOn(clusterId, "no initial placement is recommended into it (vCenter's RecommendDatastores answers"
                + " InvalidArgument podSelectionSpec.storagePod); choose one of its datastores yourself");
        ClusterStateAssembler.Assembled a = assembler.assemble(clusterId);
        ClusterState state = a.state();
        if (hostId != null && state.hosts().stream().noneMatch(h -> h.id().equals(hostId))) {
            throw new InvalidFieldException("hostId", "no host " + hostId + " sees a datastore of cluster " + clusterId);
        }
        String vmId = "new:" + (vmName == null ? "vm" : vmName);
        String diskId = vmId + "/0";
        InitialPlacement.NewVm request = new InitialPlacement.NewVm(vmId, hostId, null,
                List.of(new InitialPlacement.NewDisk(diskId, sizeGb, workload)), List.of(), homeGb);
        InitialPlacement.Result result = InitialPlacement.recommendDatastores(state, request, objective);
        Workload used = workload != null ? workload : InitialPlacement.averageWorkload(state);
        List<BalancingViews.PlacementView> out = new ArrayList<>();
        for (InitialPlacement.Recommendation r : result.recommendations()) {
            List<BalancingViews.RankedDatastore> ranked = new ArrayList<>();
            int rank = 1;
            for (String ds : r.rankedDatastores()) {
                ranked.add(new BalancingViews.RankedDatastore(rank++, ds, a.datastoreName(ds), predictedWith(state, ds, used),
                        a.modelSource().get(ds)));
            }
            List<BalancingViews.DatastoreForecastView> forecasts = new ArrayList<>();
            if (r.explanation() != null) {
                r.explanation().datastores().forEach(f -> forecasts.add(BalancingViews.DatastoreForecastView.of(f, a)));
            }
            out.add(new BalancingViews.PlacementView(vmName, r.diskIds(), r.datastoreId(), a.datastoreName(r.datastoreId()),
                    ReasonCode.STORAGE_PLACEMENT.wireName(), ranked, r.explanation() == null ? null : r.explanation().summary(), forecasts));
        }
        List<BalancingViews.FaultView> faults = result.faults().stream().map(BalancingViews.FaultView::of).toList();
        return new BalancingViews.PlacementResult(clusterId, objective.name(), out, faults);
    }

    /** The datastore's model's latency for its disks' workloads plus the new one (null when it cannot predict). */
    static Double predictedWith(ClusterState state, String datastoreId, Workload extra) {
        DatastoreState d = state.datastore(datastoreId);
        if (d.model() == null) {
            return null;
        }
        List<Workload> w = new ArrayList<>();
        for (VmState vm : state.vms()) {
            for (DiskState disk : vm.disks()) {
                if (disk.datastoreId().equals(datastoreId)) {
                    w.add(disk.workload());
                }
            }
        }
        w.add(extra);
        try {
            double l = d.model().predict(w).latencyMs();
            return Double.isFinite(l) ? l : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
