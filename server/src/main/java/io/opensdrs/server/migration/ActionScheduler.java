package io.opensdrs.server.migration;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which queued actions may start, the applier's scheduler (OpenStack Watcher's applier walks its
 * action plan's graph the same way): an action starts only once each of its parents has ended,
 * and within the limits, all counted here:
 * <ul>
 *   <li>{@code sdrs.migration.max-per-datastore} storage vMotions reading or writing a datastore,
 *       and {@code max-per-host} per host (SPEC §4);</li>
 *   <li>one relocation per VM at a time: vCenter answers a second with {@code TaskInProgress};</li>
 *   <li>a transient fault's backoff;</li>
 *   <li>the space of the copies in flight to a datastore, set aside for the pre-condition.</li>
 * </ul>
 * A parent holds its children until it has ended. An administrator's apply queues the child's
 * pending parents with it ({@link Recommendations#apply}); an automated apply leaves a parent that
 * awaits approval as it is, and the child waits for it, its action saying so ({@link Slots#waits}). Once the
 * parent has ended — done, failed, or cancelled (its recommendation dismissed too) — the child's own
 * pre-condition, read from vCenter, says whether it can still run.
 */
final class ActionScheduler {

    private final MigrationProperties limits;

    ActionScheduler(MigrationProperties limits) {
        this.limits = limits;
    }

    /**
     * The slots of one pass.
     *
     * @param inFlight the actions issuing, running or being verified
     * @param unfinishedParents those of the queued actions' parents that have not ended, by id
     */
    Slots slots(List<MigrationAction> inFlight, Map<Long, MigrationRepository.Unfinished> unfinishedParents) {
        Slots s = new Slots();
        inFlight.forEach(s::take);
        s.unfinished.putAll(unfinishedParents);
        return s;
    }

    /** What is taken in one pass; {@link #started} as actions start. */
    final class Slots {
        private final Map<String, Integer> perDatastore = new HashMap<>();
        private final Map<String, Integer> perHost = new HashMap<>();
        private final Map<String, Long> reserved = new HashMap<>();
        private final Set<String> vms = new HashSet<>();
        private final Map<Long, MigrationRepository.Unfinished> unfinished = new HashMap<>();
        private int total;

        /** Why {@code a} may not start now; empty when it may. */
        Optional<String> waits(MigrationAction a, Instant now) {
            if (a.nextAttemptAt() != null && a.nextAttemptAt().isAfter(now)) {
                return Optional.of("backing off until " + a.nextAttemptAt());
            }
            for (long parent : a.parentIds()) {
                MigrationRepository.Unfinished p = unfinished.get(parent);
                if (p == null) {
                    continue;
                }
                if (p.recommendationState() == RecommendationState.PENDING) {
                    return Optional.of("waiting for its parent, action " + parent + " of recommendation " + p.recommendationId()
                            + ", which has not been applied: the plan counted on it (apply it, or dismiss it to let this one go on)");
                }
                return Optional.of("waiting for its parent, action " + parent + " of recommendation " + p.recommendationId()
                        + ", to end (it is " + p.state() + ")");
            }
            for (String ds : a.datastores()) {
                if (perDatastore.getOrDefault(ds, 0) >= limits.getMaxPerDatastore()) {
                    return Optional.of(limits.getMaxPerDatastore() + " migrations in flight on " + ds);
                }
            }
            if (a.hostId() != null && perHost.getOrDefault(a.hostId(), 0) >= limits.getMaxPerHost()) {
                return Optional.of(limits.getMaxPerHost() + " migrations in flight on host " + a.hostId());
            }
            if (vms.contains(a.vmId())) {
                return Optional.of("another relocation of VM " + a.vmId() + " in flight");
            }
            return Optional.empty();
        }

        /** Bytes the copies in flight will still write to {@code datastoreId}. */
        long reservedOn(String datastoreId) {
            return reserved.getOrDefault(datastoreId, 0L);
        }

        void started(MigrationAction a) {
            take(a);
        }

        private void take(MigrationAction a) {
            total++;
            vms.add(a.vmId());
            a.datastores().forEach(ds -> perDatastore.merge(ds, 1, Integer::sum));
            if (a.hostId() != null) {
                perHost.merge(a.hostId(), 1, Integer::sum);
            }
            reserved.merge(a.destinationDatastore(), a.sizeBytes(), Long::sum);
        }

        int total() {
            return total;
        }

        Map<String, Integer> perDatastore() {
            return perDatastore;
        }

        Map<String, Integer> perHost() {
            return perHost;
        }
    }
}
