package io.opensdrs.server.balancing;

import io.opensdrs.balance.CapacityPlanner;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.CongestionThresholds;
import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.InitialPlacement;
import io.opensdrs.balance.VmState;
import io.opensdrs.model.Workload;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.settings.ClusterPolicies;
import org.springframework.stereotype.Service;

import java.util.ArrayList;
import java.util.List;

/**
 * Pesto §5.5 capacity planning for one datastore: Q_max (Eq. 12) for a latency bound, Q_α
 * (Eq. 13) for a fraction of peak throughput, how many more disks of a workload fit (the least of
 * latency, throughput and space), and the congestion threshold L_α (Eq. 9). Unset inputs come from
 * the cluster: its average disk workload and size, its IO latency threshold and its α.
 */
@Service
public class CapacityAdvisor {

    private final ClusterStateAssembler assembler;
    private final ClusterPolicies policies;
    private final BalancingRepository store;

    public CapacityAdvisor(ClusterStateAssembler assembler, ClusterPolicies policies, BalancingRepository store) {
        this.assembler = assembler;
        this.policies = policies;
        this.store = store;
    }

    /** Each argument may be null (the cluster's value is used). Percentages 0–100. */
    public BalancingViews.CapacityView capacity(String datastoreName, Double oio, Double ioSizeKb, Double readPct, Double randomPct,
                                                Double sizeGb, Double latencyMs, Double alpha) {
        MaintenanceMode.Target ds = store.datastoreNamed(datastoreName)
                .orElseThrow(() -> new NotFoundException("no datastore " + datastoreName));
        if (ds.clusterId() == null) {
            throw new IllegalStateException("datastore " + datastoreName + " is not in a datastore cluster");
        }
        ClusterStateAssembler.Assembled a = assembler.assemble(ds.clusterId());
        ClusterState state = a.state();
        Workload avg = InitialPlacement.averageWorkload(state);
        Workload each = new Workload(oio != null ? oio : avg.outstandingIos(), ioSizeKb != null ? ioSizeKb : avg.ioSizeKb(),
                readPct != null ? readPct / 100 : avg.readFraction(), randomPct != null ? randomPct / 100 : avg.randomFraction());
        double size = sizeGb != null ? sizeGb : averageDiskGb(state);
        double lMax = latencyMs != null ? latencyMs : state.settings().ioLatencyThresholdMs();
        double a2 = alpha != null ? alpha : policies.settings(ds.clusterId()).getCongestionAlpha();
        CapacityPlanner.Capacity c = CapacityPlanner.forDatastore(state, ds.id(), each, size, lMax, a2);
        double lAlpha = CongestionThresholds.of(state, a2, 0).get(ds.id()).latencyMs();
        return new BalancingViews.CapacityView(datastoreName, ds.id(), a.modelSource().get(ds.id()), c.currentOutstandingIos(), c.qMax(),
                c.qAlpha(), c.more(), c.moreByLatency(), c.moreByThroughput(), c.moreBySpace(), lAlpha, a2, lMax);
    }

    /**
     * Pesto §5.5 for every datastore of the cluster at once: how many of {@code count} workloads like {@code each}
     * fit, each datastore limited by Q_max at the cluster's IO latency threshold (Eq. 12), Q_α at its congestion α
     * (Eq. 13) and its space threshold, from the cluster's current models and load. {@code sizeGb} null: the
     * cluster's average disk size.
     */
    public BalancingViews.CapacityPlanView plan(String clusterId, Workload each, Double sizeGb, int count) {
        ClusterStateAssembler.Assembled a = assembler.assemble(clusterId);
        ClusterState state = a.state();
        double size = sizeGb != null ? sizeGb : averageDiskGb(state);
        double lMax = state.settings().ioLatencyThresholdMs();
        double alpha = policies.settings(clusterId).getCongestionAlpha();
        List<BalancingViews.DatastoreCapacityView> rows = new ArrayList<>();
        long fits = 0;
        for (String id : a.datastores().keySet()) {
            CapacityPlanner.Capacity c = CapacityPlanner.forDatastore(state, id, each, size, lMax, alpha);
            rows.add(new BalancingViews.DatastoreCapacityView(id, a.datastoreName(id), a.modelSource().get(id), c.currentOutstandingIos(),
                    c.qMax(), c.qAlpha(), c.moreByLatency(), c.moreByThroughput(),
                    c.moreBySpace() == Long.MAX_VALUE ? null : c.moreBySpace(), c.more()));
            fits = saturatedAdd(fits, c.more());
        }
        return new BalancingViews.CapacityPlanView(clusterId, lMax, alpha, size, count, fits, fits >= count, rows);
    }

    private static long saturatedAdd(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }

    static double averageDiskGb(ClusterState state) {
        double sum = 0;
        int n = 0;
        for (VmState vm : state.vms()) {
            for (DiskState d : vm.disks()) {
                sum += d.sizeGb();
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }
}
