package io.opensdrs.server.balancing;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.server.settings.ClusterPolicies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When Storage DRS runs by itself (SPEC §4), for each cluster it is turned on for: its invocation interval
 * (loadBalanceIntervalMinutes, 16 h by default — Pesto's benefit period too) after its previous
 * scheduled run, and at once when the stored inventory shows one of its datastores crossing the
 * space threshold (below → above). Time comes from the injected {@link Clock}, so tests advance
 * it instead of waiting. The tick itself is frequent and cheap: it only compares times and space.
 * For a cluster Storage DRS is off for, it makes no run and enforces {@link StorageDrsOff}.
 */
@Component
public class BalancingScheduler {

    private static final Logger log = LoggerFactory.getLogger(BalancingScheduler.class);

    private final BalancingService balancing;
    private final ClusterStateAssembler assembler;
    private final ClusterPolicies policies;
    private final StorageDrsOff storageDrsOff;
    private final BalancingRepository store;
    private final Clock clock;
    /** When the scheduler first saw a cluster without any scheduled run: the first period counts from there. */
    private final Map<String, Instant> firstSeen = new ConcurrentHashMap<>();
    /** Whether each datastore was above its cluster's space threshold at the previous look. */
    private final Map<String, Boolean> aboveThreshold = new ConcurrentHashMap<>();

    public BalancingScheduler(BalancingService balancing, ClusterStateAssembler assembler, ClusterPolicies policies,
                              StorageDrsOff storageDrsOff, BalancingRepository store, Clock clock) {
        this.balancing = balancing;
        this.assembler = assembler;
        this.policies = policies;
        this.storageDrsOff = storageDrsOff;
        this.store = store;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${sdrs.balancing.scheduler-tick:PT30S}", initialDelayString = "${sdrs.balancing.scheduler-tick:PT30S}")
    public void tick() {
        for (String cluster : assembler.clusterIds()) {
            try {
                if (!policies.storageDrsOn(cluster)) {
                    // turned off (vCenter's podConfig.enabled): no run, nothing proposed left pending; forgetting the space
                    // states makes a datastore still above the threshold when it is turned on again count as crossing
                    assembler.datastores(cluster).forEach(d -> aboveThreshold.remove(d.id()));
                    storageDrsOff.enforce(cluster);
                    continue;
                }
                if (spaceThresholdCrossed(cluster)) {
                    balancing.run(cluster, "space-threshold");
                }
                if (due(cluster)) {
                    balancing.run(cluster, "scheduled");
                }
            } catch (RuntimeException e) {
                log.warn("scheduled balancing of cluster {} failed: {}", cluster, e.toString());
            }
        }
    }

    /** The next scheduled run of a cluster. */
    public Instant nextRun(String cluster) {
        Duration interval = Duration.ofMinutes(policies.settings(cluster).getLoadBalanceIntervalMinutes());
        Instant last = lastScheduledRun(cluster).orElseGet(() -> firstSeen.computeIfAbsent(cluster, c -> clock.instant()));
        return last.plus(interval);
    }

    /**
     * The next scheduled run as a reader sees it (the REST status): like {@link #nextRun}, but a cluster the
     * scheduler has not looked at yet is not marked seen, so reading never moves the schedule.
     */
    public Instant expectedNextRun(String cluster) {
        Duration interval = Duration.ofMinutes(policies.settings(cluster).getLoadBalanceIntervalMinutes());
        Instant last = lastScheduledRun(cluster).orElseGet(() -> firstSeen.getOrDefault(cluster, clock.instant()));
        return last.plus(interval);
    }

    boolean due(String cluster) {
        return !clock.instant().isBefore(nextRun(cluster));
    }

    Optional<Instant> lastScheduledRun(String cluster) {
        return store.lastScheduledRun(cluster);
    }

    /**
     * True when some datastore of the cluster is above the space threshold now and was not at the
     * previous look (a datastore seen for the first time above it counts as crossing: it needs a run).
     */
    boolean spaceThresholdCrossed(String cluster) {
        BalancingSettings s = policies.balancingSettings(cluster);
        boolean crossed = false;
        Map<String, Boolean> now = new HashMap<>();
        for (ClusterStateAssembler.DatastoreRow d : assembler.datastores(cluster)) {
            double capacityGb = d.capacityBytes() / (1024.0 * 1024 * 1024);
            boolean above = capacityGb > 0 && d.usedGb() > s.spaceLimitGb(capacityGb);
            Boolean before = aboveThreshold.put(d.id(), above);
            if (above && !Boolean.TRUE.equals(before)) {
                crossed = true;
                log.info("datastore {} of cluster {} crossed the space threshold: running Storage DRS now", d.name(), cluster);
            }
            now.put(d.id(), above);
        }
        return crossed;
    }
}
