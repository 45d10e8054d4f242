package io.opensdrs.balance;

import java.util.List;

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

    public boolean isEmpty() {
        return moves.isEmpty();
    }
}
