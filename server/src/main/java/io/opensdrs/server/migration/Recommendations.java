package io.opensdrs.server.migration;

import io.opensdrs.balance.Relocation;
import io.opensdrs.server.problems.InvalidFieldException;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.history.ActionHistoryRepository;
import org.springframework.stereotype.Service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Recommendations as the balancing engine and administrators create them, and what can be done
 * with one: apply, dismiss, cancel. Each action is a {@link Relocation}: the engine's move as it
 * planned it, or a move it did not plan (an administrator's, a home the server moves) read against
 * the stored inventory by {@link #resolve}; what holds when an action is issued is checked by
 * {@link MigrationPreconditions} against vCenter itself.
 */
@Service
public class Recommendations {

    /** SPEC §4 reason codes. */
    public static final Set<String> REASON_CODES = Set.of("balanceDatastoreSpaceUsage", "balanceDatastoreIOLoad", "datastoreMaint",
            "datastoreSpaceOutage", "virtualDiskJointAffin", "virtualDiskAntiAffin", "storagePlacement");

    /** The fault type of the actions of a recommendation withdrawn because its placement is gone. */
    public static final String OUTDATED = "Outdated";

    private final MigrationRepository store;
    private final MigrationApplier applier;
    private final ActionHistoryRepository history;
    private final MoveDescriptions descriptions;

    public Recommendations(MigrationRepository store, MigrationApplier applier, ActionHistoryRepository history,
                           MoveDescriptions descriptions) {
        this.store = store;
        this.applier = applier;
        this.history = history;
        this.descriptions = descriptions;
    }

    /**
     * Creates a PENDING recommendation with an action per relocation, as planned: by the engine (its
     * moves' {@link Relocation}s, which it planned on its own snapshot of the inventory), or by
     * {@link #resolve} for a move the engine did not plan. Only what holds across relocations is checked
     * here: one per VM, as vCenter runs one relocation of a VM at a time. Whether a relocation still fits
     * the inventory when it is issued is its pre-condition's to say, against vCenter itself.
     */
    public Recommendation create(String clusterId, String reasonCode, List<Relocation> relocations) {
        checkTarget(clusterId, reasonCode);
        if (relocations == null || relocations.isEmpty()) {
            throw new InvalidFieldException("moves", "must not be empty");
        }
        Set<String> vmsSeen = new HashSet<>();
        for (int i = 0; i < relocations.size(); i++) {
            String vm = relocations.get(i).vmId();
            if (!vmsSeen.add(vm)) {
                // two relocations of one VM at once would fail with TaskInProgress in vCenter
                throw new InvalidFieldException("moves[" + i + "].vmId", "VM " + vm + " appears in two moves; put its disks in one move");
            }
        }
        return store.recommendation(store.createRecommendation(clusterId, reasonCode, relocations)).orElseThrow();
    }

    /** Refuses an unknown cluster or reason code, before any of a recommendation's moves is read. */
    public void checkTarget(String clusterId, String reasonCode) {
        if (!store.clusterExists(clusterId)) {
            throw new NotFoundException("no datastore cluster " + clusterId + " in the inventory");
        }
        if (reasonCode == null || !REASON_CODES.contains(reasonCode)) {
            throw new InvalidFieldException("reasonCode", "must be one of " + new TreeSet<>(REASON_CODES));
        }
    }

    /**
     * The relocation of a move the engine did not plan — an administrator's, or a home the server moves
     * on its own — read against the stored inventory: the VM, its disks and the destination must be
     * known there, each disk listed once and on one source datastore other than the destination, a home
     * moved alone somewhere it is not. No disk keys: the whole VM. Its source datastores, host and the
     * bytes it copies are the inventory's. As vSphere's Storage DRS moves only within a datastore cluster
     * (SPEC §4), the destination and every datastore the move takes something from must be in
     * {@code clusterId}, and the VM's host must mount the destination: a move made in one cluster can
     * never take a VM out of it. Each refusal names {@code field} ("moves[0]") and what in it.
     */
    public Relocation resolve(String clusterId, String field, String vmId, List<Integer> diskKeys, String destinationDatastoreId,
                              boolean homeOnly) {
        Relocation r = resolveInInventory(field, vmId, diskKeys, destinationDatastoreId, homeOnly);
        String destinationCluster = store.clusterOf(destinationDatastoreId).orElse(null);
        if (!clusterId.equals(destinationCluster)) {
            throw new InvalidFieldException(field + ".destinationDatastoreId", "datastore " + destinationDatastoreId + " is "
                    + (destinationCluster == null ? "in no datastore cluster" : "in datastore cluster " + destinationCluster)
                    + ", not in " + clusterId + "; a move stays within the cluster it is made in");
        }
        Set<String> taken = new LinkedHashSet<>(r.sourceDatastoreIds());
        if (r.scope() == Relocation.Scope.WHOLE_VM) {
            store.storedVm(vmId).map(MigrationRepository.StoredVm::home).ifPresent(taken::add);
        }
        taken.remove(destinationDatastoreId);
        for (String source : taken) {
            if (!clusterId.equals(store.clusterOf(source).orElse(null))) {
                throw new InvalidFieldException(field + (r.scope() == Relocation.Scope.DISKS ? ".diskKeys" : ".vmId"),
                        "the move would take " + (r.scope() == Relocation.Scope.HOME ? "the home" : "disks") + " of VM " + vmId
                                + " from datastore " + source + ", which is not in datastore cluster " + clusterId);
            }
        }
        if (r.hostId() != null && !store.hostMounts(r.hostId(), destinationDatastoreId)) {
            throw new InvalidFieldException(field + ".destinationDatastoreId", "host " + r.hostId() + " of VM " + vmId
                    + " does not mount datastore " + destinationDatastoreId);
        }
        return r;
    }

    private Relocation resolveInInventory(String field, String vmId, List<Integer> diskKeys, String destinationDatastoreId,
                                          boolean homeOnly) {
        List<Integer> keysAsked = diskKeys == null ? List.of() : diskKeys;
        if (vmId == null || vmId.isBlank()) {
            throw new InvalidFieldException(field + ".vmId", "must not be empty");
        }
        if (destinationDatastoreId == null || destinationDatastoreId.isBlank()) {
            throw new InvalidFieldException(field + ".destinationDatastoreId", "must not be empty");
        }
        MigrationRepository.StoredVm vm = store.storedVm(vmId)
                .orElseThrow(() -> new InvalidFieldException(field + ".vmId", "no VM " + vmId + " in the inventory"));
        if (!store.datastoreExists(destinationDatastoreId)) {
            throw new InvalidFieldException(field + ".destinationDatastoreId", "no datastore " + destinationDatastoreId + " in the inventory");
        }
        if (homeOnly) {
            if (!keysAsked.isEmpty()) {
                throw new InvalidFieldException(field + ".diskKeys", "a move of the VM's home alone carries no disks; its disks stay where they are");
            }
            if (vm.home() == null) {
                throw new InvalidFieldException(field + ".homeOnly", "the inventory does not say where the home of VM " + vmId + " is");
            }
            if (vm.home().equals(destinationDatastoreId)) {
                throw new InvalidFieldException(field + ".destinationDatastoreId", "the home of VM " + vmId + " is already on " + vm.home());
            }
            return new Relocation(vmId, Relocation.Scope.HOME, List.of(), List.of(vm.home()), destinationDatastoreId, vm.host(),
                    vm.homeBytes());
        }
        Map<Integer, MigrationRepository.StoredDisk> disks = store.storedDisks(vmId);
        if (keysAsked.isEmpty()) {
            Set<String> sources = new LinkedHashSet<>();
            long size = destinationDatastoreId.equals(vm.home()) ? 0 : vm.homeBytes();
            boolean moves = vm.home() != null && !vm.home().equals(destinationDatastoreId);
            for (MigrationRepository.StoredDisk d : disks.values()) {
                sources.add(d.datastore());
                if (!d.datastore().equals(destinationDatastoreId)) {
                    size += d.size();
                    moves = true;
                }
            }
            if (!moves) {
                throw new InvalidFieldException(field + ".destinationDatastoreId", "VM " + vmId + " is already entirely on "
                        + destinationDatastoreId);
            }
            return new Relocation(vmId, Relocation.Scope.WHOLE_VM, List.of(), List.copyOf(sources), destinationDatastoreId, vm.host(),
                    size);
        }
        Set<String> sources = new LinkedHashSet<>();
        Set<Integer> keys = new LinkedHashSet<>();
        long size = 0;
        for (int j = 0; j < keysAsked.size(); j++) {
            Integer key = keysAsked.get(j);
            MigrationRepository.StoredDisk d = key == null ? null : disks.get(key);
            if (d == null) {
                throw new InvalidFieldException(field + ".diskKeys[" + j + "]", "VM " + vmId + " has no disk " + key);
            }
            if (!keys.add(key)) {
                throw new InvalidFieldException(field + ".diskKeys[" + j + "]", "disk " + key + " appears twice");
            }
            if (d.datastore().equals(destinationDatastoreId)) {
                throw new InvalidFieldException(field + ".diskKeys[" + j + "]", "disk " + key + " is already on " + d.datastore());
            }
            sources.add(d.datastore());
            size += d.size();
        }
        if (sources.size() > 1) {
            throw new InvalidFieldException(field + ".diskKeys", "the disks are on " + sources
                    + "; one move takes disks from one source datastore (vCenter runs one relocation per VM at a time)");
        }
        return new Relocation(vmId, Relocation.Scope.DISKS, List.copyOf(keys), List.copyOf(sources), destinationDatastoreId, vm.host(),
                size);
    }

    /**
     * Makes {@code actionId} wait for each of {@code parentIds}: the applier starts it only once they
     * have ended (the balancing engine's plan, whose later moves count on the space earlier ones free).
     */
    public void addParents(long actionId, List<Long> parentIds) {
        store.addParents(actionId, parentIds);
    }

    public Recommendation get(long id) {
        return store.recommendation(id).orElseThrow(() -> new NotFoundException("no recommendation " + id));
    }

    public List<MigrationAction> actions(long id) {
        return store.actions(id);
    }

    /**
     * An administrator's apply, PENDING → APPLYING: its actions are queued for the applier, and so are
     * those of its prerequisites — the still-PENDING recommendations whose actions its actions wait for
     * (their parents, and theirs), as vCenter applies a recommendation's prerequisites
     * ({@code ClusterRecommendation.prerequisite}) before it: the plan counted on the space they free,
     * and a child applied alone would wait for them forever. The history says who applied each, as
     * vCenter's does: {@code by} is "by user admin".
     */
    public Recommendation apply(long id, String by) {
        return apply(id, by, true);
    }

    /**
     * An automated apply ({@code reason}: the recommendation's reason code): its prerequisites stay as
     * they are — one that awaits an administrator's approval (a VM set to manual) is not applied on its
     * behalf, and the child waits for it, its actions saying so.
     */
    public Recommendation applyAutomatically(long id, String reason) {
        return apply(id, "automatically (" + reason + ")", false);
    }

    private Recommendation apply(long id, String by, boolean withPrerequisites) {
        Recommendation r = get(id);
        if (!applier.hasVCenter()) {
            throw new IllegalStateException("cannot apply recommendation " + id + ": no vCenter is configured (sdrs.vcenter.url)");
        }
        List<Long> prerequisites = withPrerequisites ? pendingPrerequisites(id) : List.of();
        if (!store.transition(id, RecommendationState.PENDING, RecommendationState.APPLYING)) {
            throw new IllegalStateException("recommendation " + id + " is " + get(id).state() + ", only a PENDING one can be applied");
        }
        List<Long> applied = new ArrayList<>();
        for (long p : prerequisites) {
            // one applied or dismissed meanwhile is left as it is: the child waits for it, or not, as it ends
            if (store.transition(p, RecommendationState.PENDING, RecommendationState.APPLYING)) {
                applied.add(p);
            }
        }
        history.record(r.clusterId(), "applied", "applied " + by + ": " + descriptions.of(store.actions(id))
                + (applied.isEmpty() ? "" : " (with its prerequisite" + (applied.size() > 1 ? "s" : "") + ", recommendation"
                + (applied.size() > 1 ? "s " : " ") + applied.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + ")"), id);
        for (long p : applied) {
            history.record(r.clusterId(), "applied", "applied " + by + " as a prerequisite of recommendation " + id + ": "
                    + descriptions.of(store.actions(p)), p);
        }
        return get(r.id());
    }

    /**
     * The PENDING recommendations holding the unfinished ancestors of {@code id}'s actions (parents,
     * their parents, …), each once, nearest first.
     */
    private List<Long> pendingPrerequisites(long id) {
        LinkedHashSet<Long> found = new LinkedHashSet<>();
        ArrayDeque<Long> recommendationsToVisit = new ArrayDeque<>(List.of(id));
        Set<Long> visited = new HashSet<>(List.of(id));
        while (!recommendationsToVisit.isEmpty()) {
            long rec = recommendationsToVisit.poll();
            Set<Long> parents = new TreeSet<>();
            store.actions(rec).forEach(a -> parents.addAll(a.parentIds()));
            for (MigrationRepository.Unfinished p : store.unfinished(parents).values()) {
                if (visited.add(p.recommendationId())) {
                    recommendationsToVisit.add(p.recommendationId());
                    if (p.recommendationState() == RecommendationState.PENDING) {
                        found.add(p.recommendationId());
                    }
                }
            }
        }
        return List.copyOf(found);
    }

    /**
     * PENDING → DISMISSED, recorded in the history as {@code action} ("dismissed" by an
     * administrator, "superseded" by a newer run, "withdrawn" when Storage DRS is turned off)
     * with why.
     */
    public Recommendation dismiss(long id, String action, String why) {
        return dismiss(id, null, "dismissed", action, why);
    }

    /**
     * PENDING → DISMISSED because the placement it was made for is gone ({@code why}: "disk 203
     * of VM vm1 is now on ds3, no longer on its source [ds1]"): recorded as {@code outdated}, its actions with the
     * fault type {@link #OUTDATED}. False when it was no longer PENDING (applied or dismissed
     * meanwhile).
     */
    public boolean withdrawOutdated(long id, String why) {
        try {
            dismiss(id, OUTDATED, why, "outdated", "dismissed: made for a placement that is gone: " + why);
            return true;
        } catch (IllegalStateException raced) {
            return false;
        }
    }

    private Recommendation dismiss(long id, String faultType, String note, String action, String why) {
        Recommendation r = get(id);
        if (!store.dismiss(id, faultType, note)) {
            throw new IllegalStateException("recommendation " + id + " is " + get(id).state() + ", only a PENDING one can be dismissed");
        }
        history.record(r.clusterId(), action, why + " (" + descriptions.of(store.actions(id)) + ")", id);
        return get(id);
    }

    /**
     * Cancels: a PENDING recommendation directly; an APPLYING one asks the applier to drop its
     * queued actions and cancel its running vCenter tasks; it ends CANCELLED when vCenter confirms
     * (or FAILED / APPLIED as the tasks actually end). {@code by}: "by user admin".
     */
    public Recommendation cancel(long id, String by) {
        Recommendation r = get(id);
        if (r.state() == RecommendationState.PENDING) {
            if (store.transition(id, RecommendationState.PENDING, RecommendationState.CANCELLED)) {
                for (MigrationAction a : store.actions(id)) {
                    store.end(a.id(), ActionState.QUEUED, ActionState.CANCELLED, null, "cancelled before it was applied");
                }
                history.record(r.clusterId(), "cancelled", "cancelled " + by + " before it was applied ("
                        + descriptions.of(store.actions(id)) + ")", id);
                return get(id);
            }
            r = get(id);
        }
        if (r.state() != RecommendationState.APPLYING || !store.requestCancel(id)) {
            throw new IllegalStateException("recommendation " + id + " is " + r.state() + ", nothing to cancel");
        }
        for (MigrationAction a : store.actions(id)) {
            store.end(a.id(), ActionState.QUEUED, ActionState.CANCELLED, null, "cancelled");
        }
        history.record(r.clusterId(), "cancel-requested", "cancel requested " + by + ": moves not started are dropped, running"
                + " storage vMotions asked to stop (" + descriptions.of(store.actions(id)) + ")", id);
        return get(id);
    }

    public List<MigrationAction> inFlight() {
        return store.actionsIn(List.of(ActionState.QUEUED, ActionState.ISSUING, ActionState.RUNNING, ActionState.VERIFYING));
    }
}
