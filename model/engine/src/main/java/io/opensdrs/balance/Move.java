package io.opensdrs.balance;

import java.util.List;

/**
 * One recommended storage vMotion, as data: what vCenter is asked to do ({@link #relocation()}, which
 * the applier executes as it is) with what the plan knows of it.
 *
 * @param sequence position in the plan (1-based); later moves were planned assuming earlier ones happened
 * @param wave concurrency wave (1-based): moves of one wave may run together without exceeding
 *     the per-datastore / per-host storage vMotion limits; a wave starts only when the previous ended
 * @param relocation the VM, what of it moves (its disks, or the whole VM with its home when
 *     {@link WorkingPlacement#carriesHome}), where to, its host and the bytes it copies
 * @param diskIds the engine's ids of the disks that move (all of the VM's for a whole VM), as its
 *     explanations and faults name them
 * @param sourceDatastoreId where the disks are; a move carrying all of a VM's disks may gather them from
 *     several datastores (a kept-together VM spread over them, {@link RuleRepair}): then where most of what copies is
 * @param sizeGb data copied, the home's included when it moves along
 * @param reason SDRS reason code
 * @param explanation predicted latency before/after per datastore, with intervals and model
 * @param cost Pesto Eq. 10 integrated over the migration (ms·OIO·s), with bounds
 * @param benefit Pesto Eq. 11 integrated over the invocation period (ms·OIO·s), with bounds
 * @param autoApplicable true when the cluster/subsystem automation level and the VM's override
 *     let the applier execute it unattended; false = a recommendation an administrator applies
 * @param parents sequences of the earlier moves this one waits for: those that leave its destination,
 *     whose freed space the plan counted on (OpenStack Watcher's action parents; {@link MoveScheduler})
 */
public record Move(int sequence, int wave, Relocation relocation, List<String> diskIds, String sourceDatastoreId, double sizeGb,
                   ReasonCode reason, Explanation explanation, Estimate cost, Estimate benefit, boolean autoApplicable,
                   List<Integer> parents) {

    public Move {
        diskIds = List.copyOf(diskIds);
        parents = List.copyOf(parents);
    }

    /** A move not yet scheduled: no parents. */
    public Move(int sequence, int wave, Relocation relocation, List<String> diskIds, String sourceDatastoreId, double sizeGb,
                ReasonCode reason, Explanation explanation, Estimate cost, Estimate benefit, boolean autoApplicable) {
        this(sequence, wave, relocation, diskIds, sourceDatastoreId, sizeGb, reason, explanation, cost, benefit, autoApplicable,
                List.of());
    }

    public String vmId() {
        return relocation.vmId();
    }

    /** The VM moves with all its files: vSphere relocates it whole, its home (configuration files, logs, swap) along. */
    public boolean wholeVm() {
        return relocation.wholeVm();
    }

    /** The VM's host (counts against the per-host concurrency limit). */
    public String hostId() {
        return relocation.hostId();
    }

    public String destinationDatastoreId() {
        return relocation.destinationDatastoreId();
    }

    Move withSchedule(int seq, int w, boolean auto, List<Integer> parentSequences) {
        return new Move(seq, w, relocation, diskIds, sourceDatastoreId, sizeGb, reason, explanation, cost, benefit, auto,
                parentSequences);
    }
}
