package io.opensdrs.server.balancing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What Storage DRS turned off for a pod (vCenter's {@code podConfig.enabled = false}) means for
 * what it has already proposed: its pending recommendations are withdrawn — a vCenter pod lists
 * none while Storage DRS is off — and an evacuation for maintenance mode waits. Turning it on
 * again needs nothing from here: the scheduler makes the overdue run and
 * {@link MaintenanceMode#progress()} plans the evacuations that waited.
 *
 * <p>Idempotent, so that the scheduler can enforce it at every tick: a setting adopted from
 * vCenter by the inventory sync, or a run that was already planning when the setting changed, is
 * caught there.
 */
@Component
public class StorageDrsOff {

    private static final Logger log = LoggerFactory.getLogger(StorageDrsOff.class);

    private final PlanRecorder recorder;
    private final MaintenanceMode maintenance;
    private final ClusterPlanningLock planning;

    public StorageDrsOff(PlanRecorder recorder, MaintenanceMode maintenance, ClusterPlanningLock planning) {
        this.planning = planning;
        this.recorder = recorder;
        this.maintenance = maintenance;
    }

    /** Withdraws the cluster's pending recommendations and suspends its evacuations. */
    public void enforce(String clusterId) {
        // not between a plan's supersede and its record: what it records would outlive the withdrawal
        int withdrawn = planning.plan(clusterId, () -> {
            int n = recorder.withdraw(clusterId);
            maintenance.suspendEvacuations(clusterId);
            return n;
        });
        if (withdrawn > 0) {
            log.info("Storage DRS is off for cluster {}: {} pending recommendations withdrawn", clusterId, withdrawn);
        }
    }
}
