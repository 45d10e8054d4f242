package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * SDRS's IO load-balancing trigger (SPEC §4): IO balancing acts only when a datastore's
 * 90th-percentile latency exceeds the IO latency threshold [15 ms]; such datastores are the
 * sources, worst first. A destination must be at least the imbalance threshold [5 ms] below
 * the source at p90 (our reading of SDRS's unitless "I/O imbalance threshold": the smallest
 * p90 gap worth a storage vMotion).
 */
public final class IoLoadTrigger {

    private IoLoadTrigger() {
    }

    /** Datastores over the IO latency threshold at p90, worst first; empty when IO balancing is off. */
    public static List<Integer> overloaded(WorkingPlacement p) {
        List<Integer> out = new ArrayList<>();
        if (!p.settings().ioLoadBalanceEnabled()) {
            return out;
        }
        double[] p90 = new double[p.datastoreCount()];
        for (int j = 0; j < p.datastoreCount(); j++) {
            p90[j] = p.p90(j);
            if (p90[j] > p.settings().ioLatencyThresholdMs()) {
                out.add(j);
            }
        }
        out.sort(Comparator.comparingDouble((Integer j) -> -p90[j]));
        return out;
    }

    /** Datastores that may receive load from {@code source}: accepting disks and imbalance-threshold lower at p90, best first. */
    public static List<Integer> destinations(WorkingPlacement p, int source, int limit) {
        double sourceP90 = p.p90(source);
        List<Integer> out = new ArrayList<>();
        double[] p90 = new double[p.datastoreCount()];
        for (int j = 0; j < p.datastoreCount(); j++) {
            p90[j] = p.p90(j);
            if (j != source && p.acceptsDisks(j) && p90[j] <= sourceP90 - p.settings().ioImbalanceThresholdMs()) {
                out.add(j);
            }
        }
        out.sort(Comparator.comparingDouble((Integer j) -> p90[j]));
        return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
    }
}
