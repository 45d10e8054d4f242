package io.opensdrs.balance;

import java.util.List;
import java.util.Set;

/**
 * A strategy's answer, as data (OpenStack Watcher's action plan): ordered moves with reasons
 * and explanations, faults, and the concurrency limits the waves were cut to.
 */
public record MovePlan(String clusterId, String strategy, List<Move> moves, List<Fault> faults, List<String> notes,
                       int maxConcurrentPerDatastore, int maxConcurrentPerHost) {

    public MovePlan {
        moves = List.copyOf(moves);
        faults = List.copyOf(faults);
        notes = List.copyOf(notes);
    }

    /** The moves the applier may execute without an administrator. */
    public List<Move> autoApplicableMoves() {
        return moves.stream().filter(Move::autoApplicable).toList();
    }

    /**
     * The plan without the moves and faults of the given VMs; a fault of no VM stays. A VM whose
     * relocation is already being carried out is left to it: a second relocation of the same files
     * would fail its pre-conditions once the first has moved them.
     */
    public MovePlan withoutVms(Set<String> vmIds) {
        return new MovePlan(clusterId, strategy, moves.stream().filter(m -> !vmIds.contains(m.vmId())).toList(),
                faults.stream().filter(f -> f.vmId() == null || !vmIds.contains(f.vmId())).toList(), notes,
                maxConcurrentPerDatastore, maxConcurrentPerHost);
    }

    /**
     * This plan and then {@code more}, planned counting this one as landed (the homes that move on their
     * own, {@link KeptTogetherHomes}, {@link VmHomeEvacuation}): one plan, its moves numbered on and cut
     * into waves and parents again under this plan's limits, so that a move of {@code more} into a
     * datastore this plan frees waits for the moves that free it; its faults after this plan's.
     */
    public MovePlan followedBy(MovePlan more) {
        List<Move> all = new java.util.ArrayList<>(moves);
        all.addAll(more.moves());
        List<Fault> allFaults = new java.util.ArrayList<>(faults);
        allFaults.addAll(more.faults());
        List<String> allNotes = new java.util.ArrayList<>(notes);
        allNotes.addAll(more.notes());
        return new MovePlan(clusterId, strategy, MoveScheduler.schedule(all, maxConcurrentPerDatastore, maxConcurrentPerHost),
                allFaults, allNotes, maxConcurrentPerDatastore, maxConcurrentPerHost);
    }

    public boolean isEmpty() {
        return moves.isEmpty();
    }
}
