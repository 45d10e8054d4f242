package io.opensdrs.server.balancing;

import io.opensdrs.balance.EvacuationCoverage;
import io.opensdrs.balance.EvacuationCoverage.Item;
import io.opensdrs.balance.EvacuationCoverage.Leaving;
import io.opensdrs.balance.EvacuationCoverage.Left;
import io.opensdrs.balance.EvacuationCoverage.Outcome;
import io.opensdrs.balance.EvacuationCoverage.PlanFault;
import io.opensdrs.balance.EvacuationCoverage.Planned;
import io.opensdrs.server.migration.ActionState;
import io.opensdrs.server.migration.MigrationAction;
import io.opensdrs.server.migration.MigrationRepository;
import io.opensdrs.server.migration.RecommendationState;
import io.opensdrs.server.migration.Recommendations;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A datastore's evacuation as the server has stored it — what the inventory holds on the datastore,
 * the relocations under way, the actions and faults of the evacuation's run — judged by the engine's
 * {@link EvacuationCoverage}: where each disk, home and swap file stands, and what the evacuation does
 * not account for.
 */
@Component
public class EvacuationProgress {

    private final BalancingRepository balancing;
    private final MigrationRepository store;

    public EvacuationProgress(BalancingRepository balancing, MigrationRepository store) {
        this.balancing = balancing;
        this.store = store;
    }

    /** What is on the datastore that the plan of balancing run {@code runId} does not account for; empty when everything is. */
    public List<Item> unaccounted(String datastoreId, long runId) {
        return EvacuationCoverage.unaccounted(left(datastoreId, runId));
    }

    /**
     * Every disk and VM home on the datastore, in the stored inventory, with where it stands in the
     * evacuation of balancing run {@code runId} (null: none planned); then the swap files hosts keep there
     * outside the VMs' homes, which no evacuation moves.
     */
    public List<Left> left(String datastoreId, Long runId) {
        List<Item> items = new ArrayList<>(balancing.disksOn(datastoreId));
        balancing.homesOn(datastoreId).forEach(h -> items.add(new Item(h.vmId(), h.vmName(), null, h.homeBytes())));
        List<Left> swaps = balancing.swapsOn(datastoreId).stream()
                .map(w -> EvacuationCoverage.hostSwap(new Item(w.vmId(), w.vmName(), null, w.swapBytes(), true), w.hostName()))
                .toList();
        if (items.isEmpty()) {
            return swaps;
        }
        List<Leaving> leaving = leaving(datastoreId).stream().map(a -> new Leaving(a.recommendationId(), a.vmId(),
                a.destinationDatastore(), a.state().name(), a.progress())).toList();
        List<Planned> planned = new ArrayList<>();
        List<PlanFault> faults = new ArrayList<>();
        if (runId != null) {
            Map<Long, Boolean> pending = new HashMap<>();
            for (Long rec : balancing.recommendationsOfRun(runId)) {
                store.actions(rec).forEach(a -> planned.add(planned(a, pending)));
            }
            balancing.faultsOfRun(runId).forEach(f -> faults.add(new PlanFault(f[0], f[1], f[2])));
        }
        Optional<Instant> readAt = balancing.inventoryReadAt();
        Map<String, String> names = balancing.datastoreNames();
        List<Left> out = new ArrayList<>(EvacuationCoverage.standing(items, leaving, planned, faults, readAt,
                id -> names.getOrDefault(id, id)));
        out.addAll(swaps);
        return out;
    }

    /** @param pending recommendation id → whether it awaits approval, filled as read */
    private Planned planned(MigrationAction a, Map<Long, Boolean> pending) {
        Outcome outcome = switch (a.state()) {
            case QUEUED -> pending.computeIfAbsent(a.recommendationId(), id -> store.recommendation(id)
                    .filter(r -> r.state() == RecommendationState.PENDING).isPresent()) ? Outcome.AWAITING_APPROVAL : Outcome.NOT_APPLIED;
            case ISSUING, RUNNING, VERIFYING -> Outcome.UNDER_WAY;
            case FAILED -> Outcome.FAILED;
            case CANCELLED -> Recommendations.OUTDATED.equals(a.faultType()) ? Outcome.WITHDRAWN : Outcome.DISMISSED;
            case SUCCEEDED -> Outcome.SUCCEEDED;
        };
        return new Planned(a.recommendationId(), a.relocation(), outcome, a.faultMessage(), a.finishedAt());
    }

    /** Actions being carried out: issued and not ended, or queued in a recommendation being applied. */
    private List<MigrationAction> inFlight() {
        List<MigrationAction> out = new ArrayList<>(store.actionsIn(ActionState.IN_FLIGHT));
        out.addAll(store.runnableQueued());
        return out;
    }

    /**
     * VMs a relocation off the datastore is being carried out for: an evacuation planned now leaves
     * them to it. A second relocation would fail its pre-conditions once the first has moved the
     * disks; a relocation of the VM elsewhere is no reason to wait, as the applier runs one per VM at
     * a time anyway.
     */
    public Set<String> vmsLeaving(String datastoreId) {
        Set<String> out = new HashSet<>();
        leaving(datastoreId).forEach(a -> out.add(a.vmId()));
        return out;
    }

    private List<MigrationAction> leaving(String datastoreId) {
        return inFlight().stream().filter(a -> a.sourceDatastores().contains(datastoreId)).toList();
    }
}
