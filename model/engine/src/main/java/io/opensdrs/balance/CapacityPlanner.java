package io.opensdrs.balance;

import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.PestoQuantities;

/**
 * Pesto §5.5 capacity planning: how many more disks of a given workload fit on a datastore?
 * Three limits, the smallest wins:
 * <ul>
 *   <li>latency policy: total OIO up to Q_max = (L_max − C)/m (Pesto Eq. 12);</li>
 *   <li>throughput policy: total OIO up to Q_α = α·C/(m·(1 − α)) (Pesto Eq. 13);</li>
 *   <li>space: the disks must fit under the datastore's space threshold.</li>
 * </ul>
 * The LQ line is the datastore's model read as one ({@link io.opensdrs.model.DatastoreModel#lqLine});
 * current OIO is the sum over the disks on the datastore.
 */
public final class CapacityPlanner {

    /** The answer for one datastore. */
    public record Capacity(String datastoreId, double currentOutstandingIos, double qMax, double qAlpha,
                           long moreByLatency, long moreByThroughput, long moreBySpace, long more) {
    }

    private CapacityPlanner() {
    }

    public static Capacity forDatastore(ClusterState state, String datastoreId, Workload each, double sizeGbEach,
                                        double maxLatencyMs, double alpha) {
        WorkingPlacement p = new WorkingPlacement(state);
        int j = p.datastoreIndex(datastoreId);
        PestoQuantities line = p.model(j).lqLine();
        double current = p.load(j).outstandingIos();
        double qMax = line.maxOutstandingIos(maxLatencyMs);
        double qAlpha = line.outstandingIosAtFractionOfPeak(alpha);
        double o = each.outstandingIos();
        long byLatency = count(qMax - current, o);
        long byThroughput = count(qAlpha - current, o);
        double room = p.settings().spaceLimitGb(p.capacityGb(j)) - p.usedGb(j);
        long bySpace = sizeGbEach <= 0 ? Long.MAX_VALUE : (long) Math.floor(Math.max(0, room) / sizeGbEach + 1e-9);
        long more = p.acceptsDisks(j) ? Math.min(byLatency, Math.min(byThroughput, bySpace)) : 0;
        return new Capacity(datastoreId, current, qMax, qAlpha, byLatency, byThroughput, bySpace, more);
    }

    private static long count(double headroom, double each) {
        if (headroom <= 0) {
            return 0;
        }
        return each <= 0 ? Long.MAX_VALUE : (long) Math.floor(headroom / each + 1e-9);
    }
}
