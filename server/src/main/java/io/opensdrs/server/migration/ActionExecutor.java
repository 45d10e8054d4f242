package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs one action, Watcher-style: its pre-condition against vCenter's inventory as it is now
 * ({@link MigrationPreconditions}), then {@code RelocateVM_Task}, the vCenter task tracked, and its
 * post-condition: the result verified in the inventory ({@link ResultVerifier}) and read into the
 * stored inventory. Every step is a compare-and-set on the action's stored state, ISSUING
 * committed before the call: an action left ISSUING by a crash or a lost answer is re-attached to
 * its task, or found never to have reached vCenter ({@link #recover}), so none is issued twice.
 * One executor serves one pass of the applier's loop: it reads the live inventory once for the
 * pass, and again after a task has ended (the pre-conditions of the actions started in the pass set
 * aside the space of the copies in flight instead).
 */
final class ActionExecutor {

    private static final Logger log = LoggerFactory.getLogger(ActionExecutor.class);

    /** What {@link #start} did. */
    enum Start {
        /** issued (or left ISSUING for the next pass to look for its task): in flight */
        STARTED,
        /** not started: done already, failed its pre-condition, or cancelled meanwhile */
        ENDED,
        /** its pre-condition says wait (space of copies in flight to its destination) */
        WAITING,
        /** vCenter's inventory cannot be read now: start nothing more this pass */
        DEFERRED
    }

    private final VSphereClient client;
    private final MigrationRepository store;
    private final MigrationProperties properties;
    private final MigrationPreconditions preconditions;
    private final StoredInventory stored;
    private InventorySnapshot inventory;

    ActionExecutor(VSphereClient client, MigrationRepository store, MigrationProperties properties, MigrationPreconditions preconditions,
                   StoredInventory stored) {
        this.client = client;
        this.store = store;
        this.properties = properties;
        this.preconditions = preconditions;
        this.stored = stored;
    }

    private InventorySnapshot inventory() throws VimFaultException {
        if (inventory == null) {
            inventory = client.inventory();
        }
        return inventory;
    }

    /**
     * Pre-condition, then issue. {@code reservedOnDestination}: bytes the copies in flight will still
     * write to the action's destination.
     */
    Start start(MigrationAction a, long reservedOnDestination) {
        MigrationPreconditions.Outcome o;
        try {
            o = preconditions.check(inventory(), a, reservedOnDestination);
        } catch (VimFaultException e) {
            if (FaultClassifier.isTransient(e.faultType())) {
                log.info("inventory not readable, issuing deferred: {}", e.getMessage());
                return Start.DEFERRED;
            }
            // e.g. the session expired and logging in again failed: nothing can be issued
            faulted(a, ActionState.QUEUED, e.faultType(), e.getMessage());
            return Start.ENDED;
        }
        switch (o.verdict()) {
            case WAIT:
                store.noteWait(a, o.message());
                return Start.WAITING;
            case FAIL:
                store.end(a.id(), ActionState.QUEUED, ActionState.FAILED, o.faultType(), o.message());
                log.info("{}: pre-condition failed: {}: {}", a.describe(), o.faultType(), o.message());
                return Start.ENDED;
            case ALREADY_DONE:
                succeeded(a, ActionState.QUEUED, null);
                return Start.ENDED;
            default:
                return issue(a) ? Start.STARTED : Start.ENDED;
        }
    }

    /** An ISSUING action left over: find its task, or learn that it never reached vCenter. */
    void recover(MigrationAction a) {
        try {
            List<RecentTask> ours = new ArrayList<>();
            for (RecentTask t : client.recentTasks(a.vmId())) {
                if (t.isRelocation() && !a.knownTaskIds().contains(t.taskId())) {
                    ours.add(t);
                }
            }
            if (!ours.isEmpty()) {
                if (ours.size() > 1) {
                    log.warn("{}: {} relocation tasks appeared on {} after issuing; attaching to the first, {}",
                            a.describe(), ours.size(), a.vmId(), ours.get(0).taskId());
                }
                store.markRunning(a.id(), ours.get(0).taskId());
                log.info("{}: re-attached to vCenter task {}", a.describe(), ours.get(0).taskId());
                return;
            }
            Optional<String> missing = ResultVerifier.missing(inventory(), a);
            if (missing.isEmpty()) {
                succeeded(a, ActionState.ISSUING, null);
                log.info("{}: no task found but the inventory shows it done", a.describe());
            } else {
                store.requeue(a.id(), ActionState.ISSUING, null, a.faultType(), a.faultMessage());
                log.info("{}: never reached vCenter; queued again", a.describe());
            }
        } catch (VimFaultException e) {
            log.info("{}: recovery deferred: {}", a.describe(), e.getMessage());
        }
    }

    void track(MigrationAction a) {
        TaskStatus t;
        try {
            t = client.task(a.taskId());
        } catch (VimFaultException e) {
            if ("ManagedObjectNotFound".equals(e.faultType())) {
                // vCenter forgot the task (restarted): the inventory tells whether it happened
                store.markVerifying(a.id());
                verify(store.action(a.id()).orElse(a));
            } else {
                log.info("{}: task {} not readable now: {}", a.describe(), a.taskId(), e.getMessage());
            }
            return;
        }
        if (!t.done()) {
            if (t.progress() != null && !t.progress().equals(a.progress())) {
                store.progress(a.id(), t.progress());
            }
            return;
        }
        if (t.succeeded()) {
            store.markVerifying(a.id());
            verify(store.action(a.id()).orElse(a));
        } else if (FaultClassifier.isCancellation(t.faultType())) {
            // a cancel that came too late may still have moved the disks: say what happened
            try {
                inventory = null;
                if (ResultVerifier.missing(inventory(), a).isEmpty()) {
                    succeeded(a, ActionState.RUNNING, "cancelled in vCenter, but the move had completed");
                } else {
                    store.end(a.id(), ActionState.RUNNING, ActionState.CANCELLED, t.faultType(), "cancelled in vCenter");
                }
            } catch (VimFaultException e) {
                log.info("{}: cancellation seen, verification deferred: {}", a.describe(), e.getMessage());
            }
        } else {
            faulted(a, ActionState.RUNNING, t.faultType(), t.faultMessage());
        }
    }

    /**
     * Done: the stored inventory reads the move first ({@link StoredInventory}), so that nothing
     * that sees the action done plans on where the disks were. Should that read fail, the
     * scheduled sync brings it in later; the move is done either way.
     */
    private void succeeded(MigrationAction a, ActionState from, String note) {
        try {
            stored.refresh();
        } catch (RuntimeException e) {
            log.warn("{}: done, but reading it into the stored inventory failed (the next sync will): {}", a.describe(), e.toString());
        }
        store.end(a.id(), from, ActionState.SUCCEEDED, null, note);
    }

    void verify(MigrationAction a) {
        if (a.state() != ActionState.VERIFYING) {
            return;
        }
        try {
            inventory = null; // the task just ended: read what vCenter shows now
            Optional<String> missing = ResultVerifier.missing(inventory(), a);
            if (missing.isEmpty()) {
                succeeded(a, ActionState.VERIFYING, null);
                log.info("{}: done, verified in the inventory", a.describe());
            } else {
                store.end(a.id(), ActionState.VERIFYING, ActionState.FAILED, "VerificationFailed",
                        "vCenter reported the task done but " + missing.get());
            }
        } catch (VimFaultException e) {
            log.info("{}: verification deferred: {}", a.describe(), e.getMessage());
        }
    }

    /** QUEUED → ISSUING (committed) → RelocateVM_Task → RUNNING. True when it is now in flight. */
    private boolean issue(MigrationAction a) {
        Set<String> known = new LinkedHashSet<>();
        try {
            for (RecentTask t : client.recentTasks(a.vmId())) {
                if (t.isRelocation()) {
                    known.add(t.taskId());
                }
            }
        } catch (VimFaultException e) {
            faulted(a, ActionState.QUEUED, e.faultType(), e.getMessage());
            return false;
        }
        if (!store.markIssuing(a.id(), known)) {
            return false; // cancelled meanwhile
        }
        String taskId;
        try {
            // the relocation as planned, the spec vCenter is asked for
            taskId = switch (a.relocation().scope()) {
                case WHOLE_VM -> client.relocateVm(a.vmId(), a.destinationDatastore());
                case HOME -> client.relocateHome(a.vmId(), a.destinationDatastore(), disksWhereTheyAre(a));
                case DISKS -> client.relocateDisks(a.vmId(), diskMap(a));
            };
        } catch (VimFaultException e) {
            if (e.isTransport()) {
                // The request may have reached vCenter: leave it ISSUING; the next pass looks
                // for its task before anything is issued again.
                log.info("{}: no answer from vCenter ({}); checking for its task next pass", a.describe(), e.getMessage());
                return true;
            }
            faulted(a, ActionState.ISSUING, e.faultType(), e.getMessage());
            return false;
        }
        store.markRunning(a.id(), taskId);
        log.info("{}: issued, vCenter task {}", a.describe(), taskId);
        return true;
    }

    /** A fault: another attempt after a backoff when transient and attempts remain, else FAILED. */
    private void faulted(MigrationAction a, ActionState from, String faultType, String message) {
        // markIssuing counts an attempt after `a` was read, a RUNNING action's count is current
        int attempts = from == ActionState.RUNNING ? a.attempt() : a.attempt() + 1;
        if (FaultClassifier.isTransient(faultType) && attempts < properties.getMaxAttempts()) {
            long factor = 1L << Math.min(20, Math.max(0, attempts - 1));
            Duration backoff = properties.getInitialBackoff().multipliedBy(factor);
            if (backoff.compareTo(properties.getMaxBackoff()) > 0) {
                backoff = properties.getMaxBackoff();
            }
            store.requeue(a.id(), from, Instant.now().plus(backoff), faultType, message);
            log.info("{}: transient fault {} (attempt {}), retry in {}", a.describe(), faultType, attempts, backoff);
        } else {
            store.end(a.id(), from, ActionState.FAILED, faultType, message);
            log.info("{}: failed: {}: {}", a.describe(), faultType, message);
        }
    }

    /** Each disk of the VM on the datastore vCenter shows it on now (read in this pass's pre-conditions). */
    private Map<Integer, String> disksWhereTheyAre(MigrationAction a) throws VimFaultException {
        Map<Integer, String> m = new java.util.LinkedHashMap<>();
        inventory().vm(a.vmId()).ifPresent(vm -> vm.disks().forEach(d -> m.put(d.key(), d.datastoreId())));
        return m;
    }

    private static Map<Integer, String> diskMap(MigrationAction a) {
        Map<Integer, String> m = new java.util.LinkedHashMap<>();
        a.diskKeys().forEach(k -> m.put(k, a.destinationDatastore()));
        return m;
    }
}
