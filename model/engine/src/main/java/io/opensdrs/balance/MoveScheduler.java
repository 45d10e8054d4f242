package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts an ordered list of moves into waves for the applier: within a wave no datastore takes
 * part in more than 8 storage vMotions and no host in more than 2 (SDRS limits, SPEC §4).
 * Waves keep the plan's order (a move never runs before one planned earlier), and a move
 * into a datastore that an earlier move of the same wave leaves starts a new wave, because
 * the plan counted on that space being freed first.
 *
 * <p>Of these cuts only the space one is an order the applier cannot tell from the moves alone
 * (the limits it counts itself, in flight): each move's parents are the earlier moves that leave its
 * destination, and the applier starts a move only once its parents have ended — an action plan
 * with parents, as OpenStack Watcher's planner hands its applier.
 */
public final class MoveScheduler {

    private MoveScheduler() {
    }

    public static List<Move> schedule(List<Move> ordered, BalancingSettings settings) {
        return schedule(ordered, settings.maxConcurrentMigrationsPerDatastore(), settings.maxConcurrentMigrationsPerHost());
    }

    /** The same, under the given limits (a plan's own, {@link MovePlan#followedBy}). */
    static List<Move> schedule(List<Move> ordered, int maxPerDatastore, int maxPerHost) {
        List<Move> out = new ArrayList<>();
        int wave = 1;
        Map<String, Integer> perDatastore = new HashMap<>();
        Map<String, Integer> perHost = new HashMap<>();
        Set<String> leftThisWave = new HashSet<>();
        Map<String, List<Integer>> leaving = new HashMap<>();
        int seq = 1;
        for (Move m : ordered) {
            boolean fits = perDatastore.getOrDefault(m.sourceDatastoreId(), 0) < maxPerDatastore
                    && perDatastore.getOrDefault(m.destinationDatastoreId(), 0) < maxPerDatastore
                    && (m.hostId() == null || perHost.getOrDefault(m.hostId(), 0) < maxPerHost)
                    && !leftThisWave.contains(m.destinationDatastoreId());
            if (!fits) {
                wave++;
                perDatastore.clear();
                perHost.clear();
                leftThisWave.clear();
            }
            perDatastore.merge(m.sourceDatastoreId(), 1, Integer::sum);
            perDatastore.merge(m.destinationDatastoreId(), 1, Integer::sum);
            if (m.hostId() != null) {
                perHost.merge(m.hostId(), 1, Integer::sum);
            }
            leftThisWave.add(m.sourceDatastoreId());
            List<Integer> parents = leaving.getOrDefault(m.destinationDatastoreId(), List.of());
            out.add(m.withSchedule(seq, wave, m.autoApplicable(), parents));
            leaving.computeIfAbsent(m.sourceDatastoreId(), ds -> new ArrayList<>()).add(seq);
            seq++;
        }
        return out;
    }
}
