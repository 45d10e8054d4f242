package io.opensdrs.server.migration;

import io.opensdrs.server.history.ActionHistoryRepository;
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
import java.util.HashSet;
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
 * Applies the stored action plan, Watcher-style: a scheduler ({@link ActionScheduler}: parents
 * first, the limits) and an executor ({@link ActionExecutor}: pre-condition, RelocateVM_Task,
 * the task tracked, post-condition verified in the inventory). One loop thread does all of it, so
 * the in-flight limits are counted without races and an ISSUING action seen at the start of a pass
 * is never one being issued by this process: it is left over from a crash or a lost answer, and is
 * re-attached to its vCenter task or found never to have been issued. The loop also carries out
 * cancellations and ends each recommendation once its actions have ended.
 */
@Component
public class MigrationApplier {

    private static final Logger log = LoggerFactory.getLogger(MigrationApplier.class);

    private final ObjectProvider<VSphereClient> clients;
    private final MigrationRepository store;
    private final MigrationProperties properties;
    private final MigrationPreconditions preconditions;
    private final ActionScheduler scheduler;
    private final StoredInventory stored;
    private final ActionHistoryRepository history;
    private final MoveDescriptions descriptions;
    private final Map<String, Integer> maxPerDatastore = new ConcurrentHashMap<>();
    private final Map<String, Integer> maxPerHost = new ConcurrentHashMap<>();
    private volatile int maxTotal;
    private ScheduledExecutorService loop;

    public MigrationApplier(ObjectProvider<VSphereClient> clients, MigrationRepository store, MigrationProperties properties,
                            ObjectProvider<PlacementRules> rules, ObjectProvider<StoredInventory> stored, ActionHistoryRepository history,
                            MoveDescriptions descriptions) {
        this.clients = clients;
        this.history = history;
        this.descriptions = descriptions;
        this.stored = stored.getIfAvailable(() -> StoredInventory.NONE);
        this.store = store;
        this.properties = properties;
        this.scheduler = new ActionScheduler(properties);
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
                p.executor.recover(a);
            }
            for (MigrationAction a : store.actionsIn(List.of(ActionState.RUNNING))) {
                p.executor.track(a);
            }
            for (MigrationAction a : store.actionsIn(List.of(ActionState.VERIFYING))) {
                p.executor.verify(a);
            }
            p.startQueued();
            p.finishRecommendations();
        } catch (RuntimeException | LinkageError e) {
            // a scheduled task that throws is never run again: the loop must survive any one pass
            log.warn("migration applier pass failed: {}", e.toString(), e);
        }
    }

    /** One pass, with its executor (which reads the live inventory once for the pass, again after a task has ended). */
    private final class Pass {
        final VSphereClient client;
        final ActionExecutor executor;

        Pass(VSphereClient client) {
            this.client = client;
            this.executor = new ActionExecutor(client, store, properties, preconditions, stored);
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

        /**
         * The scheduler picks, oldest first, the queued actions whose parents have ended and that fit
         * the limits; the executor checks each one's pre-condition and issues it. An action that
         * waits keeps why with it, for whoever looks at it.
         */
        void startQueued() {
            List<MigrationAction> queued = store.runnableQueued();
            if (queued.isEmpty()) {
                return;
            }
            Set<Long> parents = new HashSet<>();
            queued.forEach(a -> parents.addAll(a.parentIds()));
            ActionScheduler.Slots slots = scheduler.slots(store.actionsIn(ActionState.IN_FLIGHT), store.unfinished(parents));
            Instant now = Instant.now();
            for (MigrationAction a : queued) {
                Optional<String> waits = slots.waits(a, now);
                if (waits.isPresent()) {
                    store.noteWait(a, waits.get());
                    continue;
                }
                ActionExecutor.Start started = executor.start(a, slots.reservedOn(a.destinationDatastore()));
                if (started == ActionExecutor.Start.DEFERRED) {
                    return;
                }
                if (started == ActionExecutor.Start.STARTED) {
                    slots.started(a);
                    record(slots.total(), slots.perDatastore(), slots.perHost());
                }
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

    private void record(int total, Map<String, Integer> perDatastore, Map<String, Integer> perHost) {
        maxTotal = Math.max(maxTotal, total);
        perDatastore.forEach((ds, n) -> maxPerDatastore.merge(ds, n, Math::max));
        perHost.forEach((h, n) -> maxPerHost.merge(h, n, Math::max));
    }
}
