package io.opensdrs.server.balancing;

import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.EvacuationCoverage;
import io.opensdrs.balance.MaintenanceEvacuation;
import io.opensdrs.balance.MaintenanceState;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.VmHomeEvacuation;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.vcenter.VCenterProperties;
import io.opensdrs.server.vcenter.VCenterRefusedException;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Datastore maintenance mode (SPEC §4, Pesto §5.4.2): entering plans the evacuation — every disk
 * to the most balanced allowed destination, a series of initial placements
 * ({@link MaintenanceEvacuation}) — and records it as {@code datastoreMaint} recommendations;
 * disks that cannot move (excluded VMs, no destination that keeps the rules, space) are faults
 * with the reason. The datastore stays ENTERING until no disk is left on it, then it is
 * IN_MAINTENANCE; the balancer never places anything on it meanwhile. "Ignore affinity rules for
 * maintenance" skips the anti-affinity rules only; a request says whether, or follows the cluster's
 * setting, which is vCenter's pod option {@code IgnoreAffinityRulesForMaintenance}.
 *
 * <p>While Storage DRS is off for the cluster, entering makes no recommendations and no faults, as
 * vCenter's {@code DatastoreEnterMaintenanceMode} returns none for a pod without Storage DRS: the
 * datastore is ENTERING until its disks are moved by hand, or until Storage DRS is turned on,
 * when {@link #progress()} plans the evacuation.
 *
 * <p>The datastore's maintenance mode is vCenter's ({@code summary.maintenanceMode}): entering
 * calls {@code DatastoreEnterMaintenanceMode} first (vCenter then refuses new placements on it and
 * marks it {@code inMaintenance} once it is empty), exiting {@code DatastoreExitMaintenanceMode_Task};
 * a refusal is answered 502 and changes nothing here. A datastore put into maintenance mode in the
 * vSphere Client (vCenter holds {@code enteringMaintenance}, this server nothing) is adopted by
 * {@link #progress()} and its evacuation planned, as vCenter's own Storage DRS would; one taken out
 * of it there is taken out here too.
 */
@Service
public class MaintenanceMode {

    private static final Logger log = LoggerFactory.getLogger(MaintenanceMode.class);

    private final BalancingRepository store;
    private final ClusterStateAssembler assembler;
    private final PlanRecorder recorder;
    private final ClusterPolicies policies;
    private final ObjectProvider<VSphereClient> clients;
    private final Duration vcenterTimeout;
    private final Clock clock;
    private final ClusterPlanningLock planning;
    private final EvacuationProgress coverage;
    private final Timer checkTimer;
    private final TransactionTemplate tx;

    public MaintenanceMode(BalancingRepository store, ClusterStateAssembler assembler, PlanRecorder recorder,
                           ClusterPolicies policies, ObjectProvider<VSphereClient> clients, VCenterProperties vcenter, Clock clock,
                           ClusterPlanningLock planning, EvacuationProgress coverage, MeterRegistry meters, TransactionTemplate tx) {
        this.tx = tx;
        this.planning = planning;
        this.coverage = coverage;
        this.checkTimer = Timer.builder("sdrs.run.duration").tag("run", "maintenance-check").register(meters);
        this.store = store;
        this.assembler = assembler;
        this.recorder = recorder;
        this.policies = policies;
        this.clients = clients;
        this.vcenterTimeout = vcenter.getTimeout();
        this.clock = clock;
    }

    static final String VCENTER_NORMAL = "normal";
    static final String VCENTER_ENTERING = "enteringMaintenance";
    static final String VCENTER_IN_MAINTENANCE = "inMaintenance";

    /** The datastore's maintenance mode as vCenter held it at the last inventory sync. */
    private String vcenterMode(String datastoreId) {
        return store.vcenterMaintenanceMode(datastoreId).filter(m -> m != null && !m.isBlank()).orElse(VCENTER_NORMAL);
    }

    /** Records what vCenter holds after a call it completed, ahead of the sync that will read it back. */
    private void heldByVCenter(String datastoreId, String mode) {
        store.setVCenterMaintenanceMode(datastoreId, mode);
    }

    /** A datastore by id and name, with its cluster (null: none). */
    record Target(String id, String name, String clusterId) {
    }

    /** An ENTERING datastore as the progress loop reads it. */
    record Entering(Target target, boolean ignoreAffinity, boolean evacuationPlanned, Long evacuationRunId) {
    }

    Target target(String datastoreName) {
        Target t = store.datastoreNamed(datastoreName)
                .orElseThrow(() -> new NotFoundException("no datastore " + datastoreName));
        if (t.clusterId() == null) {
            throw new IllegalStateException("datastore " + datastoreName + " is not in a datastore cluster: Storage DRS maintenance mode"
                    + " evacuates into the other datastores of its cluster");
        }
        return t;
    }

    /**
     * @param ignoreAffinityRequested this request's "ignore affinity rules"; null follows the
     *     cluster's setting (vCenter's pod option IgnoreAffinityRulesForMaintenance)
     */
    public BalancingViews.MaintenanceView enter(String datastoreName, Boolean ignoreAffinityRequested) {
        Target t = target(datastoreName);
        boolean ignoreAffinity = ignoreAffinityRequested != null ? ignoreAffinityRequested
                : policies.settings(t.clusterId()).isIgnoreAffinityForMaintenance();
        synchronized (this) {
            VSphereClient vcenter = clients.getIfAvailable();
            if (vcenter != null && VCENTER_NORMAL.equals(vcenterMode(t.id()))) {
                try {
                    vcenter.enterDatastoreMaintenanceMode(t.id());
                } catch (VimFaultException e) {
                    throw new VCenterRefusedException("enter", "vCenter refused DatastoreEnterMaintenanceMode on datastore " + t.name()
                            + ": " + e.getMessage());
                }
                heldByVCenter(t.id(), VCENTER_ENTERING);
            }
            boolean storageDrsOn = policies.storageDrsOn(t.clusterId());
            Timestamp now = Timestamp.from(clock.instant());
            if (!store.updateIgnoreAffinity(t.id(), ignoreAffinity, now)) {
                // not planned until its evacuation is recorded: one that fails is planned again by the progress loop
                store.insertMaintenanceRequest(t.id(), t.clusterId(), ignoreAffinity, now);
                recorder.history(t.clusterId(), "maintenance-enter", "datastore " + t.name() + " entering maintenance mode"
                        + (ignoreAffinity ? " (ignoring affinity rules)" : "")
                        + (storageDrsOn ? "" : "; Storage DRS is off: no evacuation recommendations until it is turned on"), null);
            }
            if (!storageDrsOn) {
                store.markEvacuationUnplanned(t.id());
                MaintenanceState after = settle(t, assembler.assemble(t.clusterId()).state());
                return new BalancingViews.MaintenanceView(t.id(), t.name(), t.clusterId(), after.name(), ignoreAffinity, disksOn(t.id()),
                        homesOn(t.id()), List.of(), List.of(), List.of(), List.of(STORAGE_DRS_OFF));
            }
            return evacuate(t, ignoreAffinity);
        }
    }

    static final String STORAGE_DRS_OFF = "Storage DRS is turned off for the datastore cluster: no evacuation recommendations are made;"
            + " the datastore stays entering maintenance mode until its disks are migrated by hand, or until Storage DRS is turned on"
            + " and plans their evacuation";

    /** Plans the evacuation (recommendations and faults) of an ENTERING datastore, replacing a previous plan. */
    private BalancingViews.MaintenanceView evacuate(Target t, boolean ignoreAffinity) {
        return planning.plan(t.clusterId(), () -> planEvacuation(t, ignoreAffinity));
    }

    private BalancingViews.MaintenanceView planEvacuation(Target t, boolean ignoreAffinity) {
        ClusterStateAssembler.Assembled a = assembler.assemble(t.clusterId());
        // a VM being relocated off the datastore (a balancing move, or an earlier plan's move being applied) is left to that
        // relocation: never a second one for the same disks
        Set<String> moving = coverage.vmsLeaving(t.id());
        MovePlan disks = MaintenanceEvacuation.plan(a.state(), t.id(), ignoreAffinity).withoutVms(moving);
        MovePlan plan = disks.followedBy(VmHomeEvacuation.plan(assembler.withHomesOn(a, t.id()).state(), t.id(), disks).withoutVms(moving));
        // one transaction, as a balancing run's: an evacuation that fails while recorded leaves none of its recommendations and
        // the datastore not yet planned, so the progress loop plans it again
        PlanRecorder.Recorded all = tx.execute(status -> {
            recorder.supersede(t.clusterId(), List.of(ReasonCode.DATASTORE_MAINT.wireName()), t.id());
            long runId = recorder.startRun(t.clusterId(), "maintenance", MaintenanceEvacuation.NAME, plan, clock.instant());
            PlanRecorder.Recorded r = recorder.record(t.clusterId(), runId, plan, a);
            store.markEvacuationPlanned(t.id(), runId);
            return r;
        });
        MaintenanceState after = settle(t, a.state());
        return new BalancingViews.MaintenanceView(t.id(), t.name(), t.clusterId(), after.name(), ignoreAffinity, disksOn(t.id()),
                homesOn(t.id()), all.recommendationIds(), all.appliedIds(), all.faults(), plan.notes());
    }

    /**
     * Storage DRS was turned off for the cluster: an evacuation in progress waits (its pending
     * recommendations are withdrawn with the cluster's others) and is planned again when it is
     * turned on.
     */
    void suspendEvacuations(String clusterId) {
        store.markEvacuationsUnplanned(clusterId);
    }

    public BalancingViews.MaintenanceView exit(String datastoreName) {
        Target t = target(datastoreName);
        synchronized (this) {
            VSphereClient vcenter = clients.getIfAvailable();
            if (vcenter != null && !VCENTER_NORMAL.equals(vcenterMode(t.id()))) {
                try {
                    vcenter.completeTask(vcenter.exitDatastoreMaintenanceMode(t.id()), vcenterTimeout);
                } catch (VimFaultException e) {
                    throw new VCenterRefusedException("enter", "vCenter refused DatastoreExitMaintenanceMode_Task on datastore " + t.name()
                            + ": " + e.getMessage());
                }
                heldByVCenter(t.id(), VCENTER_NORMAL);
            }
            forget(t, "datastore " + t.name() + " left maintenance mode");
            return new BalancingViews.MaintenanceView(t.id(), t.name(), t.clusterId(), MaintenanceState.NORMAL.name(), false,
                    disksOn(t.id()), homesOn(t.id()), List.of(), List.of(), List.of(), List.of());
        }
    }

    /** Drops the request and its still-pending evacuation. */
    private void forget(Target t, String why) {
        if (store.deleteMaintenanceRequest(t.id())) {
            recorder.supersede(t.clusterId(), List.of(ReasonCode.DATASTORE_MAINT.wireName()), t.id());
            recorder.history(t.clusterId(), "maintenance-exit", why, null);
        }
    }

    /**
     * Follows vCenter: a datastore of a cluster that vCenter holds entering (or, already empty, in)
     * maintenance mode while this server has no request for it was put there in the vSphere Client —
     * it gets one, ENTERING, and its evacuation is planned below (an empty one settles at once); one this server has a request for that vCenter holds
     * normal was taken out of maintenance there. Only with a vCenter connected: without one, the
     * inventory's maintenance mode says nothing about what an administrator asked of vCenter.
     */
    void adoptVCenterMaintenance() {
        if (clients.getIfAvailable() == null) {
            return;
        }
        Timestamp now = Timestamp.from(clock.instant());
        for (Target t : store.inVCenterModeWithoutRequest(VCENTER_ENTERING, VCENTER_IN_MAINTENANCE)) {
            // vCenter's own Storage DRS evacuates with the pod's option IgnoreAffinityRulesForMaintenance
            boolean ignoreAffinity = policies.settings(t.clusterId()).isIgnoreAffinityForMaintenance();
            store.insertMaintenanceRequest(t.id(), t.clusterId(), ignoreAffinity, now);
            recorder.history(t.clusterId(), "maintenance-enter", "datastore " + t.name() + " entering maintenance mode in vCenter", null);
        }
        for (Target t : store.requestedInVCenterMode(VCENTER_NORMAL)) {
            forget(t, "datastore " + t.name() + " left maintenance mode in vCenter");
        }
    }

    /** The datastore's maintenance mode and, unless normal, what is still on it and where each stands in its evacuation. */
    public BalancingViews.MaintenanceStatusView status(String datastoreName) {
        Target t = target(datastoreName);
        Optional<BalancingRepository.MaintenanceRequest> r = store.maintenanceRequest(t.id());
        if (r.isEmpty()) {
            return new BalancingViews.MaintenanceStatusView(t.id(), t.name(), t.clusterId(), MaintenanceState.NORMAL.name(),
                    policies.settings(t.clusterId()).isIgnoreAffinityForMaintenance(), false, List.of());
        }
        BalancingRepository.MaintenanceRequest q = r.get();
        return new BalancingViews.MaintenanceStatusView(t.id(), t.name(), t.clusterId(), q.state(), q.ignoreAffinity(), q.planned(),
                coverage.left(t.id(), q.planned() ? q.runId() : null).stream().map(BalancingViews.LeftView::of).toList());
    }

    public MaintenanceState state(String datastoreId) {
        return store.maintenanceState(datastoreId).orElse(MaintenanceState.NORMAL);
    }

    /**
     * ENTERING → IN_MAINTENANCE once the inventory shows the datastore empty (SPEC §4) — no disk
     * and no VM home left on it — and, with a vCenter connected, vCenter holds it
     * {@code inMaintenance}: vCenter waits for every file of every VM, and this server says what
     * vCenter says.
     */
    MaintenanceState settle(Target t, ClusterState state) {
        MaintenanceState after = MaintenanceEvacuation.stateAfter(state, t.id());
        boolean vcenterAgrees = clients.getIfAvailable() == null || VCENTER_IN_MAINTENANCE.equals(vcenterMode(t.id()));
        if (after == MaintenanceState.IN_MAINTENANCE && leftOn(t.id()) == 0 && vcenterAgrees
                && store.markInMaintenance(t.id(), Timestamp.from(clock.instant()))) {
            recorder.history(t.clusterId(), "maintenance-entered", "datastore " + t.name() + " is empty: in maintenance", null);
        }
        return state(t.id());
    }

    /**
     * Follows vCenter's maintenance mode ({@link #adoptVCenterMaintenance()}), each evacuation as
     * the inventory changes, and plans those that waited for Storage DRS to be turned on or were
     * begun in vCenter.
     */
    @Scheduled(fixedDelayString = "${sdrs.balancing.maintenance-check-interval:PT20S}")
    public void progress() {
        checkTimer.record(this::check);
    }

    private void check() {
        synchronized (this) {
            adoptVCenterMaintenance();
        }
        List<Entering> entering = store.entering();
        for (Entering e : entering) {
            Target t = e.target();
            try {
                synchronized (this) {
                    if (leftOn(t.id()) == 0) {
                        settle(t, assembler.assemble(t.clusterId()).state());
                    } else if (!e.evacuationPlanned() && policies.storageDrsOn(t.clusterId())) {
                        recorder.history(t.clusterId(), "maintenance-evacuation", "Storage DRS is on: planning the evacuation of datastore "
                                + t.name() + ", entering maintenance mode", null);
                        evacuate(t, e.ignoreAffinity());
                    } else if (e.evacuationPlanned() && e.evacuationRunId() != null && policies.storageDrsOn(t.clusterId())) {
                        List<EvacuationCoverage.Item> left = coverage.unaccounted(t.id(), e.evacuationRunId());
                        if (!left.isEmpty()) {
                            recorder.history(t.clusterId(), "maintenance-evacuation", "datastore " + t.name() + ", entering maintenance mode,"
                                    + " holds what its evacuation does not account for (" + PlanRecorder.truncate(String.join(", ",
                                    left.stream().map(EvacuationCoverage.Item::describe).toList()), 1500) + "): planning the evacuation again", null);
                            evacuate(t, e.ignoreAffinity());
                        }
                    }
                }
            } catch (RuntimeException ex) {
                log.warn("maintenance progress of {} failed: {}", t.name(), ex.toString());
            }
        }
    }

    /** Disks and VM homes still on the datastore. */
    private int leftOn(String datastoreId) {
        return disksOn(datastoreId) + homesOn(datastoreId);
    }

    /** VM homes on the datastore, in the inventory as the last sync stored it. */
    private int homesOn(String datastoreId) {
        return store.homeCountOn(datastoreId);
    }

    int disksOn(String datastoreId) {
        return store.diskCountOn(datastoreId);
    }
}
