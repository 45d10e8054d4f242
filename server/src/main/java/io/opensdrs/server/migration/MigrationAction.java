package io.opensdrs.server.migration;

import io.opensdrs.balance.Relocation;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A persisted storage vMotion (table migration_action): the engine's {@link Relocation} — the listed
 * disks, the whole VM, or the VM's home alone — with where it is in its life. It starts only once every
 * action of {@code parentIds} has ended (table migration_action_parent; {@link ActionScheduler}).
 * {@code waitReason}: why it has not started, while it is queued in a recommendation being applied, as the
 * applier last found it (a parent, a limit, a backoff, space in flight); null once it starts or ends.
 */
public record MigrationAction(long id, long recommendationId, Relocation relocation, ActionState state, String taskId,
                              Set<String> knownTaskIds, int attempt, Instant nextAttemptAt, Integer progress,
                              boolean cancelSent, String faultType, String faultMessage, Instant createdAt, Instant issuingAt,
                              Instant startedAt, Instant finishedAt, String waitReason, List<Long> parentIds) {

    public MigrationAction {
        parentIds = List.copyOf(parentIds);
    }

    public String vmId() {
        return relocation.vmId();
    }

    /** The disks that move; none for the whole VM or its home alone. */
    public List<Integer> diskKeys() {
        return relocation.diskKeys();
    }

    /** Where what moves is now: the home's datastore for the home alone. */
    public List<String> sourceDatastores() {
        return relocation.sourceDatastoreIds();
    }

    public String destinationDatastore() {
        return relocation.destinationDatastoreId();
    }

    public String hostId() {
        return relocation.hostId();
    }

    public long sizeBytes() {
        return relocation.sizeBytes();
    }

    public boolean wholeVm() {
        return relocation.wholeVm();
    }

    public boolean homeOnly() {
        return relocation.homeOnly();
    }

    /** Every datastore the copy reads or writes: what the per-datastore limit counts. */
    public Set<String> datastores() {
        Set<String> s = new java.util.LinkedHashSet<>(sourceDatastores());
        s.add(destinationDatastore());
        return s;
    }

    MigrationAction withParents(List<Long> parents) {
        return new MigrationAction(id, recommendationId, relocation, state, taskId, knownTaskIds, attempt, nextAttemptAt, progress,
                cancelSent, faultType, faultMessage, createdAt, issuingAt, startedAt, finishedAt, waitReason, parents);
    }

    public String describe() {
        return "action " + id + " (" + vmId() + (wholeVm() ? " whole VM" : homeOnly() ? " home" : " disks " + diskKeys()) + " -> "
                + destinationDatastore() + ")";
    }
}
