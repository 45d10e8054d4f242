package io.opensdrs.balance;

import java.util.List;

/**
 * One recommended storage vMotion, as data: the applier (elsewhere) executes it.
 *
 * @param sequence position in the plan (1-based); later moves were planned assuming earlier ones happened
 * @param wave concurrency wave (1-based): moves of one wave may run together without exceeding
 *     the per-datastore / per-host storage vMotion limits; a wave starts only when the previous ended
 * @param vmId the VM
 * @param diskIds the disks that move (the whole VM when its VMDKs are kept together)
 * @param wholeVm the VM moves with all its files: its VMDKs are kept together and {@code diskIds} holds
 *     them all, and vSphere's intra-VM affinity rule keeps the VM's home (configuration files, logs,
 *     swap) on the same datastore as its disks, so the applier relocates the VM, not its disks alone
 * @param hostId the VM's host (counts against the per-host concurrency limit)
 * @param sourceDatastoreId where the disks are; a move carrying all of a VM's disks may gather them from
 *     several datastores (a kept-together VM spread over them, {@link RuleRepair}): then where most of what copies is
 * @param destinationDatastoreId where they go
 * @param sizeGb data copied
 * @param reason SDRS reason code
 * @param explanation predicted latency before/after per datastore, with intervals and model
 * @param cost Pesto Eq. 10 integrated over the migration (ms·OIO·s), with bounds
 * @param benefit Pesto Eq. 11 integrated over the invocation period (ms·OIO·s), with bounds
 * @param autoApplicable true when the cluster/subsystem automation level and the VM's override
 *     let the applier execute it unattended; false = a recommendation an administrator applies
 * @param parents sequences of the earlier moves this one waits for: those that leave its destination,
 *     whose freed space the plan counted on (OpenStack Watcher's action parents; {@link MoveScheduler})
 */
public record Move(int sequence, int wave, String vmId, List<String> diskIds, boolean wholeVm, String hostId,
                   String sourceDatastoreId, String destinationDatastoreId, double sizeGb, ReasonCode reason,
                   Explanation explanation, Estimate cost, Estimate benefit, boolean autoApplicable, List<Integer> parents) {

    public Move {
        diskIds = List.copyOf(diskIds);
        parents = List.copyOf(parents);
    }

    /** A move not yet scheduled: no parents. */
    public Move(int sequence, int wave, String vmId, List<String> diskIds, boolean wholeVm, String hostId,
                String sourceDatastoreId, String destinationDatastoreId, double sizeGb, ReasonCode reason,
                Explanation explanation, Estimate cost, Estimate benefit, boolean autoApplicable) {
        this(sequence, wave, vmId, diskIds, wholeVm, hostId, sourceDatastoreId, destinationDatastoreId, sizeGb, reason, explanation,
                cost, benefit, autoApplicable, List.of());
    }

    Move withSchedule(int seq, int w, boolean auto, List<Integer> parentSequences) {
        return new Move(seq, w, vmId, diskIds, wholeVm, hostId, sourceDatastoreId, destinationDatastoreId, sizeGb, reason,
                explanation, cost, benefit, auto, parentSequences);
    }
}
