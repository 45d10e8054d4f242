package io.opensdrs.server.migration;

import io.opensdrs.server.vsphere.InventorySnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pending recommendations a change outside Storage DRS has overtaken: a disk or a VM moved in the
 * vSphere Client or with govc, a disk or a VM removed, the destination datastore removed. Each is
 * withdrawn once the stored inventory has read the change, rather than left for an administrator
 * to apply and see fail: the test is the applier's own ({@link MigrationPreconditions#placementGone}),
 * asked of the stored inventory instead of vCenter. A recommendation of a VM that a recommendation
 * being applied moves, or with a relocation in flight, is left alone: its placement is changing
 * under Storage DRS's own hands, and the applier supersedes it when that move ends, naming it.
 */
@Component
public class OutdatedRecommendations {

    private static final Logger log = LoggerFactory.getLogger(OutdatedRecommendations.class);

    private final MigrationRepository store;
    private final Recommendations recommendations;
    private final MoveDescriptions names;

    public OutdatedRecommendations(MigrationRepository store, Recommendations recommendations, MoveDescriptions names) {
        this.store = store;
        this.recommendations = recommendations;
        this.names = names;
    }

    /** Withdraws every pending recommendation whose placement is gone from the stored inventory; how many. */
    public int withdraw() {
        List<Recommendation> pending = store.recommendationsIn(RecommendationState.PENDING);
        if (pending.isEmpty()) {
            return 0;
        }
        Set<String> beingMoved = new HashSet<>();
        store.recommendationsIn(RecommendationState.APPLYING).forEach(r -> store.actions(r.id()).forEach(a -> beingMoved.add(a.vmId())));
        store.actionsIn(ActionState.IN_FLIGHT).forEach(a -> beingMoved.add(a.vmId()));
        Map<Long, List<MigrationAction>> actions = new LinkedHashMap<>();
        Set<String> vms = new LinkedHashSet<>();
        for (Recommendation r : pending) {
            List<MigrationAction> as = store.actions(r.id());
            // an action past QUEUED under a PENDING recommendation is the applier's to resume (a crash between its steps)
            if (as.stream().allMatch(a -> a.state() == ActionState.QUEUED) && as.stream().noneMatch(a -> beingMoved.contains(a.vmId()))) {
                actions.put(r.id(), as);
                as.forEach(a -> vms.add(a.vmId()));
            }
        }
        InventorySnapshot stored = store.storedPlacement(vms);
        int withdrawn = 0;
        for (Map.Entry<Long, List<MigrationAction>> e : actions.entrySet()) {
            Optional<String> why = e.getValue().stream().map(a -> MigrationPreconditions.placementGone(stored, a, names))
                    .flatMap(Optional::stream).map(MigrationPreconditions.Outcome::message).findFirst();
            if (why.isPresent() && recommendations.withdrawOutdated(e.getKey(), why.get())) {
                log.info("recommendation {} withdrawn: {}", e.getKey(), why.get());
                withdrawn++;
            }
        }
        return withdrawn;
    }
}
