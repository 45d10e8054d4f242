package io.opensdrs.server.migration;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A persisted storage vMotion (table migration_action): the listed disks, the whole VM (no disk
 * keys), or the VM's home alone ({@code homeOnly}, its source the home's datastore). It starts only
 * once every action of {@code parentIds} has ended (table migration_action_parent; {@link ActionScheduler}).
 * {@code waitReason}: why it has not started, while it is queued in a recommendation being applied, as the
 * applier last found it (a parent, a limit, a backoff, space in flight); null once it starts or ends.
 */
public record MigrationAction(long id, long recommendationId, String vmId, List<Integer> diskKeys, List<String> sourceDatastores,
                              String destinationDatastore, String hostId, long sizeBytes, ActionState state, String taskId,
                              Set<String> knownTaskIds, int attempt, Instant nextAttemptAt, Integer progress,
                              boolean cancelSent, String faultType, String faultMessage, Instant createdAt, Instant issuingAt,
                              Instant startedAt, Instant finishedAt, boolean homeOnly, String waitReason, List<Long> parentIds) {

    public MigrationAction {
        parentIds = List.copyOf(parentIds);
    }

    public boolean wholeVm() {
        return diskKeys.isEmpty() && !homeOnly;
    }

    /** Every datastore the copy reads or writes: what the per-datastore limit counts. */
    public Set<String> datastores() {
        Set<String> s = new java.util.LinkedHashSet<>(sourceDatastores);
        s.add(destinationDatastore);
        return s;
    }

    MigrationAction withParents(List<Long> parents) {
        return new MigrationAction(id, recommendationId, vmId, diskKeys, sourceDatastores, destinationDatastore, hostId, sizeBytes, state,
                taskId, knownTaskIds, attempt, nextAttemptAt, progress, cancelSent, faultType, faultMessage, createdAt, issuingAt,
                startedAt, finishedAt, homeOnly, waitReason, parents);
    }

    public String describe() {
        return "action " + id + " (" + vmId + (wholeVm() ? " whole VM" : homeOnly ? " home" : " disks " + diskKeys) + " -> " + destinationDatastore + ")";
    }
}
