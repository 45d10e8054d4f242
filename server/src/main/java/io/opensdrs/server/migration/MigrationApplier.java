package io.opensdrs.server.migration;

import io.opensdrs.server.history.ActionHistory;
import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Applies recommendations, Watcher-style: each action's pre-conditions are checked against
 * vCenter's inventory as it is now, the storage vMotion is issued, its vCenter task tracked, and
 * the result verified in the inventory. One loop thread does all of it, so the in-flight limits
 * (per datastore, per host) are counted without races and an ISSUING action seen at the start of
 * a pass is never one being issued by this process: it is left over from a crash or a lost
 * answer, and is re-attached to its vCenter task or found never to have been issued.
 */
@Component
public class MigrationApplier {

    private static final Logger log = LoggerFactory.getLogger(MigrationApplier.class);

    private final ObjectProvider<VSphereClient> clients;
    private final MigrationStore store;
    private final MigrationProperties properties;
    private final MigrationPreconditions preconditions;
    private final StoredInventory stored;
    private final ActionHistory history;
    private final MoveDescriptions descriptions;
    private final Map<String, Integer> maxPerDatastore = new ConcurrentHashMap<>();
    private final Map<String, Integer> maxPerHost = new ConcurrentHashMap<>();
    private volatile int maxTotal;
    private ScheduledExecutorService loop;

    public MigrationApplier(ObjectProvider<VSphereClient> clients, MigrationStore store, MigrationProperties properties,
                            ObjectProvider<PlacementRules> rules, ObjectProvider<StoredInventory> stored, ActionHistory history,
                            MoveDescriptions descriptions) {
        this.clients = clients;
        this.history = history;
        this.descriptions = descriptions;
        this.stored = stored.getIfAvailable(() -> StoredInventory.NONE);
        this.store = store;
        this.properties = properties;
        this.preconditions = new MigrationPreconditions(rules.getIfAvailable(() -> PlacementRules.NONE), descriptions);
    }

    public boolean hasVCenter() {
        return clients.getIfAvailable() != null;
    }

    /** Starts the loop once the server is ready (and so after a restart resumes what was in flight). */
    @EventListener(ApplicationReadyEvent.class)
    public synchronized void start() {
        if (!hasVCenter() || loop != null) {
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "migration-applier");
            t.setDaemon(true);
            return t;
        });
        long period = properties.getPollInterval().toMillis();
        loop.scheduleWithFixedDelay(this::pass, 0, period, TimeUnit.MILLISECONDS);
        log.info("migration applier started: at most {} per datastore, {} per host", properties.getMaxPerDatastore(),
                properties.getMaxPerHost());
    }

    @PreDestroy
    public synchronized void stop() {
        if (loop != null) {
            loop.shutdownNow();
            try {
                loop.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loop = null;
        }
    }

    /** The largest numbers of migrations seen in flight at once, since the server started. */
    public record Observed(int total, Map<String, Integer> perDatastore, Map<String, Integer> perHost) {
    }

    public Observed observed() {
        return new Observed(maxTotal, new TreeMap<>(maxPerDatastore), new TreeMap<>(maxPerHost));
    }

    // ------------------------------------------------------------------ the loop

    /** One pass over every unfinished action. Never throws: the loop must outlive any fault. */
    void pass() {
        VSphereClient client = clients.getIfAvailable();
        if (client == null) {
            return;
        }
        Pass p = new Pass(client);
        try {
            p.cancellations();
            for (MigrationAction a : store.actionsIn(List.of(ActionState.ISSUING))) {
                p.recover(a);
            }
            for (MigrationAction a : store.actionsIn(List.of(ActionState.RUNNING))) {
                p.track(a);
            }
            for (MigrationAction a : store.actionsIn(List.of(ActionState.VERIFYING))) {
                p.verify(a);
            }
            p.issueQueued();
            p.finishRecommendations();
        } catch (RuntimeException | LinkageError e) {
            // a scheduled task that throws is never run again: the loop must survive any one pass
            log.warn("migration applier pass failed: {}", e.toString(), e);
        }
    }

    /** State of one pass: the live inventory is read at most once per pass, and only when needed. */
    private final class Pass {
        final VSphereClient client;
        InventorySnapshot inventory;

        Pass(VSphereClient client) {
            this.client = client;
        }

        InventorySnapshot inventory() throws VimFaultException {
            if (inventory == null) {
                inventory = client.inventory();
            }
            return inventory;
        }

        void cancellations() {
            for (Recommendation r : store.recommendationsIn(RecommendationState.APPLYING)) {
                if (!r.cancelRequested()) {
                    continue;
                }
                for (MigrationAction a : store.actions(r.id())) {
                    if (a.state() == ActionState.QUEUED) {
                        store.end(a.id(), ActionState.QUEUED, ActionState.CANCELLED, null, null);
                    } else if (a.state() == ActionState.RUNNING && !a.cancelSent()) {
                        String note = null;
                        try {
                            if (Boolean.FALSE.equals(client.task(a.taskId()).cancelable())) {
                                // CancelTask on a task vCenter calls not cancelable may mark it
                                // cancelled while the copy goes on: leave it to finish and record that
                                note = "cancel not sent: vCenter reports task " + a.taskId() + " not cancelable; it runs to its end";
                            } else {
                                client.cancelTask(a.taskId());
                            }
                        } catch (VimFaultException e) {
                            note = "cancel refused by vCenter: " + e.getMessage();
                        }
                        store.markCancelSent(a.id(), note);
                    }
                }
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
        void succeeded(MigrationAction a, ActionState from, String note) {
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

        void issueQueued() {
            List<MigrationAction> queued = store.runnableQueued();
            if (queued.isEmpty()) {
                return;
            }
            Map<String, Integer> perDatastore = new HashMap<>();
            Map<String, Integer> perHost = new HashMap<>();
            Map<String, Long> reserved = new HashMap<>();
            // vCenter runs one relocation per VM at a time (a second is TaskInProgress): an action
            // waits while another of its VM's — another recommendation's, e.g. its home's — is in flight
            Set<String> vmsInFlight = new java.util.HashSet<>();
            int total = 0;
            for (MigrationAction f : store.actionsIn(ActionState.IN_FLIGHT)) {
                total++;
                vmsInFlight.add(f.vmId());
                f.datastores().forEach(ds -> perDatastore.merge(ds, 1, Integer::sum));
                if (f.hostId() != null) {
                    perHost.merge(f.hostId(), 1, Integer::sum);
                }
                reserved.merge(f.destinationDatastore(), f.sizeBytes(), Long::sum);
            }
            Instant now = Instant.now();
            for (MigrationAction a : queued) {
                if (a.nextAttemptAt() != null && a.nextAttemptAt().isAfter(now)) {
                    continue;
                }
                boolean datastoreFull = a.datastores().stream()
                        .anyMatch(ds -> perDatastore.getOrDefault(ds, 0) >= properties.getMaxPerDatastore());
                boolean hostFull = a.hostId() != null && perHost.getOrDefault(a.hostId(), 0) >= properties.getMaxPerHost();
                if (datastoreFull || hostFull || vmsInFlight.contains(a.vmId())) {
                    continue;
                }
                MigrationPreconditions.Outcome o;
                try {
                    o = preconditions.check(inventory(), a, reserved.getOrDefault(a.destinationDatastore(), 0L));
                } catch (VimFaultException e) {
                    if (FaultClassifier.isTransient(e.faultType())) {
                        log.info("inventory not readable, issuing deferred: {}", e.getMessage());
                        return;
                    }
                    // e.g. the session expired and logging in again failed: nothing can be issued
                    faulted(a, ActionState.QUEUED, e.faultType(), e.getMessage());
                    continue;
                }
                switch (o.verdict()) {
                    case WAIT:
                        continue;
                    case FAIL:
                        store.end(a.id(), ActionState.QUEUED, ActionState.FAILED, o.faultType(), o.message());
                        log.info("{}: pre-condition failed: {}: {}", a.describe(), o.faultType(), o.message());
                        continue;
                    case ALREADY_DONE:
                        succeeded(a, ActionState.QUEUED, null);
                        continue;
                    default:
                        break;
                }
                if (issue(a)) {
                    total++;
                    vmsInFlight.add(a.vmId());
                    a.datastores().forEach(ds -> perDatastore.merge(ds, 1, Integer::sum));
                    if (a.hostId() != null) {
                        perHost.merge(a.hostId(), 1, Integer::sum);
                    }
                    reserved.merge(a.destinationDatastore(), a.sizeBytes(), Long::sum);
                    record(total, perDatastore, perHost);
                }
            }
        }

        /** QUEUED → ISSUING (committed) → RelocateVM_Task → RUNNING. True when it is now in flight. */
        boolean issue(MigrationAction a) {
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
                taskId = a.wholeVm() ? client.relocateVm(a.vmId(), a.destinationDatastore())
                        : a.homeOnly() ? client.relocateHome(a.vmId(), a.destinationDatastore(), disksWhereTheyAre(a))
                        : client.relocateDisks(a.vmId(), diskMap(a));
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
        void faulted(MigrationAction a, ActionState from, String faultType, String message) {
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

        void finishRecommendations() {
            for (Recommendation r : store.recommendationsIn(RecommendationState.APPLYING)) {
                List<MigrationAction> actions = store.actions(r.id());
                if (!actions.stream().allMatch(x -> x.state().terminal())) {
                    continue;
                }
                Optional<MigrationAction> failed = actions.stream().filter(x -> x.state() == ActionState.FAILED).findFirst();
                String moved = descriptions.of(actions);
                if (failed.isPresent()) {
                    MigrationAction f = failed.get();
                    String fault = descriptions.of(List.of(f)) + ": " + f.faultMessage();
                    if (store.finish(r.id(), RecommendationState.FAILED, f.faultType(), fault)) {
                        history.record(r.clusterId(), "failed", "failed: " + f.faultType() + ": " + fault
                                + (actions.size() > 1 ? " (recommendation: " + moved + ")" : ""), r.id());
                    }
                } else if (actions.stream().anyMatch(x -> x.state() == ActionState.CANCELLED)) {
                    if (store.finish(r.id(), RecommendationState.CANCELLED, null, null)) {
                        history.record(r.clusterId(), "cancelled", "cancelled: " + actions.stream().filter(x -> x.state() == ActionState.SUCCEEDED)
                                .count() + " of " + actions.size() + " moves done (" + moved + ")", r.id());
                    }
                } else {
                    // before it reads APPLIED: whoever sees it done sees no recommendation left for where the disks were
                    supersedeMovesOfTheSameDisks(r, actions);
                    if (store.finish(r.id(), RecommendationState.APPLIED, null, null)) {
                        history.record(r.clusterId(), "completed", "done: " + moved + took(actions), r.id());
                    }
                }
            }
        }

        /**
         * Still-PENDING recommendations that move a disk (or the home, or the whole VM) this one
         * has just moved were made for where it was: dismissed, as vCenter replaces its
         * recommendations after one is applied, rather than left for an administrator to apply
         * to a placement that is gone.
         */
        void supersedeMovesOfTheSameDisks(Recommendation applied, List<MigrationAction> done) {
            for (Recommendation p : store.recommendationsIn(RecommendationState.PENDING)) {
                if (!p.clusterId().equals(applied.clusterId())) {
                    continue;
                }
                List<MigrationAction> pending = store.actions(p.id());
                boolean overlaps = pending.stream().anyMatch(x -> done.stream().anyMatch(d -> sameFiles(x, d)));
                if (overlaps && store.dismiss(p.id(), "superseded by recommendation " + applied.id())) {
                    history.record(p.clusterId(), "superseded", "dismissed: recommendation " + applied.id() + " moved "
                            + descriptions.of(done) + " (" + descriptions.of(pending) + ")", p.id());
                }
            }
        }

        /** Each disk of the VM on the datastore vCenter shows it on now (read in this pass's pre-conditions). */
        Map<Integer, String> disksWhereTheyAre(MigrationAction a) throws VimFaultException {
            Map<Integer, String> m = new java.util.LinkedHashMap<>();
            inventory().vm(a.vmId()).ifPresent(vm -> vm.disks().forEach(d -> m.put(d.key(), d.datastoreId())));
            return m;
        }
    }

    /** Whether the two actions move a file in common: a disk of both, the home of both, or anything of a VM one moves whole. */
    static boolean sameFiles(MigrationAction a, MigrationAction b) {
        if (!a.vmId().equals(b.vmId())) {
            return false;
        }
        if (a.wholeVm() || b.wholeVm()) {
            return true;
        }
        if (a.homeOnly() || b.homeOnly()) {
            return a.homeOnly() && b.homeOnly();
        }
        return a.diskKeys().stream().anyMatch(b.diskKeys()::contains);
    }

    /** ", in 42 s": from the first issue to the last end, when both are known. */
    private static String took(List<MigrationAction> actions) {
        Optional<Instant> start = actions.stream().map(MigrationAction::issuingAt).filter(java.util.Objects::nonNull).min(Instant::compareTo);
        Optional<Instant> end = actions.stream().map(MigrationAction::finishedAt).filter(java.util.Objects::nonNull).max(Instant::compareTo);
        if (start.isEmpty() || end.isEmpty()) {
            return "";
        }
        return ", in " + Math.max(0, Duration.between(start.get(), end.get()).toSeconds()) + " s";
    }

    private static Map<Integer, String> diskMap(MigrationAction a) {
        Map<Integer, String> m = new java.util.LinkedHashMap<>();
        a.diskKeys().forEach(k -> m.put(k, a.destinationDatastore()));
        return m;
    }

    private void record(int total, Map<String, Integer> perDatastore, Map<String, Integer> perHost) {
        maxTotal = Math.max(maxTotal, total);
        perDatastore.forEach((ds, n) -> maxPerDatastore.merge(ds, n, Math::max));
        perHost.forEach((h, n) -> maxPerHost.merge(h, n, Math::max));
    }
}
