package io.opensdrs.server.balancing;

import io.opensdrs.server.migration.ActionState;
import io.opensdrs.server.migration.MigrationAction;
import io.opensdrs.server.migration.MigrationRepository;
import io.opensdrs.server.migration.RecommendationState;
import io.opensdrs.server.migration.Recommendations;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a datastore's evacuation accounts for. An evacuation plan names each disk and VM home it
 * found on the datastore: in a recommendation (whole VM, some disks, or the home alone) or in a
 * fault. The datastore stays entering maintenance until nothing is left on it, so what the plan
 * does not account for would keep it entering for ever, silently:
 * <ul>
 *   <li>a VM created on the datastore after the plan, or a disk moved onto it by hand;</li>
 *   <li>a disk or home whose move was verified done, shown on the datastore again by an inventory
 *       read that began after the move ended: put back (a read that began before may lag, and is
 *       no evidence);</li>
 *   <li>a disk or home whose recommended move was withdrawn as outdated (its destination removed,
 *       say) and which is still on the datastore.</li>
 * </ul>
 * A VM whose relocation off the datastore is running (any recommendation's) is accounted for until
 * it ends, and whatever the plan left to an administrator — a fault, a recommendation still pending,
 * one that failed or was dismissed or cancelled — is accounted for: the plan is not made again for
 * those, which would only repeat it.
 */
@Component
public class EvacuationCoverage {

    private final BalancingRepository balancing;
    private final MigrationRepository store;

    public EvacuationCoverage(BalancingRepository balancing, MigrationRepository store) {
        this.balancing = balancing;
        this.store = store;
    }

    /**
     * A disk ({@code diskKey}) or, with none, the home of a VM; {@code sizeBytes} what its move copies (the disk's
     * size, or the home's files: configuration, logs and, for a running VM, its swap file). Or a running VM's
     * swap file ({@code swapFile}), which its host keeps on the datastore outside the VM's home directory
     * (host-local swap placement): no relocation moves it.
     */
    public record Item(String vmId, String vmName, Integer diskKey, long sizeBytes, boolean swapFile) {
        public Item(String vmId, String vmName, Integer diskKey, long sizeBytes) {
            this(vmId, vmName, diskKey, sizeBytes, false);
        }

        /** The engine's disk id ({@code vm-42/2000}); null for a home or a swap file. */
        public String diskId() {
            return diskKey == null ? null : vmId + "/" + diskKey;
        }

        public String describe() {
            return swapFile ? "the swap file of VM " + vmName : diskKey == null ? "the home of VM " + vmName : "disk " + diskKey + " of VM " + vmName;
        }
    }

    /** Where a disk or home left on the datastore stands in its evacuation. */
    public enum Status {
        /** a relocation off the datastore is running (or queued to run) for its VM */
        MOVING,
        /** the evacuation recommends its move, awaiting approval */
        RECOMMENDED,
        /** its move was verified done; the inventory has not caught up yet */
        MOVED,
        /** the evacuation could not move it: the fault says why */
        FAULT,
        /** its recommended move failed */
        FAILED,
        /** its recommended move was dismissed or cancelled */
        DISMISSED,
        /**
         * its recommended move was withdrawn because the placement it was made for is gone (its
         * destination removed, say) while it is still here: planned at the next check
         */
        OUTDATED,
        /** the evacuation names it nowhere (it arrived after the plan, or no plan was made): planned at the next check */
        UNPLANNED,
        /** its move was verified done, and an inventory read begun after shows it back: planned at the next check */
        BACK,
        /**
         * a running VM's swap file that its host keeps on the datastore (host-local swap placement): no
         * relocation moves it, and the datastore stays entering maintenance until the VM stops or runs on a
         * host whose swap datastore is another
         */
        HOST_SWAP;

        /** Whether the evacuation is planned again for it. */
        public boolean unaccounted() {
            return this == UNPLANNED || this == BACK || this == OUTDATED;
        }
    }

    /** One thing on the datastore and where it stands. */
    public record Left(Item item, Status status, Long recommendationId, String detail) {
    }

    /** What is on the datastore that the plan of balancing run {@code runId} does not account for; empty when everything is. */
    public List<Item> unaccounted(String datastoreId, long runId) {
        return left(datastoreId, runId).stream().filter(l -> l.status().unaccounted()).map(Left::item).toList();
    }

    /**
     * Every disk and VM home on the datastore, in the stored inventory, with where it stands in the
     * evacuation of balancing run {@code runId} (null: none planned); then the swap files hosts keep there
     * outside the VMs' homes, which no evacuation moves.
     */
    public List<Left> left(String datastoreId, Long runId) {
        List<Item> items = new ArrayList<>(balancing.disksOn(datastoreId));
        balancing.homesOn(datastoreId).forEach(h -> items.add(new Item(h.vmId(), h.vmName(), null, h.homeBytes())));
        List<Left> swaps = balancing.swapsOn(datastoreId).stream().map(w ->
                new Left(new Item(w.vmId(), w.vmName(), null, w.swapBytes(), true), Status.HOST_SWAP, null,
                        "host " + (w.hostName() == null ? "(unknown)" : w.hostName()) + " keeps the VM's swap file here (host-local"
                                + " swap placement), and no relocation moves it: it goes when the VM powers off, or runs on a host"
                                + " whose swap datastore is another")).toList();
        if (items.isEmpty()) {
            return swaps;
        }
        List<MigrationAction> leaving = leaving(datastoreId);
        List<MigrationAction> planned = new ArrayList<>();
        List<String[]> faults = new ArrayList<>();
        if (runId != null) {
            for (Long rec : balancing.recommendationsOfRun(runId)) {
                planned.addAll(store.actions(rec));
            }
            faults.addAll(balancing.faultsOfRun(runId));
        }
        Optional<Instant> readAt = balancing.inventoryReadAt();

        java.util.Map<String, String> names = balancing.datastoreNames();
        List<Left> out = new ArrayList<>();
        for (Item item : items) {
            Predicate<MigrationAction> moves = item.diskKey() == null
                    ? a -> a.vmId().equals(item.vmId()) && a.diskKeys().isEmpty()
                    : a -> a.vmId().equals(item.vmId()) && !a.homeOnly() && (a.diskKeys().isEmpty() || a.diskKeys().contains(item.diskKey()));
            out.add(standing(item, moves, leaving, planned, faults, readAt, id -> names.getOrDefault(id, id)));
        }
        out.addAll(swaps);
        return out;
    }

    private Left standing(Item item, Predicate<MigrationAction> moves, List<MigrationAction> leaving, List<MigrationAction> planned,
                          List<String[]> faults, Optional<Instant> readAt, java.util.function.UnaryOperator<String> name) {
        // the whole VM is left to a running relocation off the datastore, as the plan leaves it (MaintenanceMode)
        Optional<MigrationAction> running = leaving.stream().filter(a -> a.vmId().equals(item.vmId())).findFirst();
        if (running.isPresent()) {
            MigrationAction a = running.get();
            return new Left(item, Status.MOVING, a.recommendationId(), "relocation to " + name.apply(a.destinationDatastore()) + " " + a.state()
                    .name().toLowerCase(java.util.Locale.ROOT) + (a.progress() == null ? "" : ", " + a.progress() + " %"));
        }
        for (String[] f : faults) {
            if (item.vmId().equals(f[0]) && (item.diskKey() == null || f[1] == null || List.of(f[1].split(",")).contains(item.diskId()))) {
                return new Left(item, Status.FAULT, null, f[2]);
            }
        }
        for (MigrationAction a : planned) {
            if (!moves.test(a)) {
                continue;
            }
            return switch (a.state()) {
                case QUEUED -> store.recommendation(a.recommendationId()).filter(r -> r.state() == RecommendationState.PENDING).isPresent()
                        ? new Left(item, Status.RECOMMENDED, a.recommendationId(), "to " + name.apply(a.destinationDatastore()) + ", awaiting approval")
                        : new Left(item, Status.DISMISSED, a.recommendationId(), "not applied");
                case ISSUING, RUNNING, VERIFYING -> new Left(item, Status.MOVING, a.recommendationId(), "to " + name.apply(a.destinationDatastore()));
                case FAILED -> new Left(item, Status.FAILED, a.recommendationId(), a.faultMessage());
                case CANCELLED -> Recommendations.OUTDATED.equals(a.faultType())
                        ? new Left(item, Status.OUTDATED, a.recommendationId(), "its move was withdrawn: " + a.faultMessage())
                        : new Left(item, Status.DISMISSED, a.recommendationId(), a.faultMessage());
                case SUCCEEDED -> a.finishedAt() != null && readAt.isPresent() && a.finishedAt().isBefore(readAt.get())
                        ? new Left(item, Status.BACK, a.recommendationId(), "moved to " + name.apply(a.destinationDatastore())
                                + ", and back on the datastore in the inventory read after")
                        : new Left(item, Status.MOVED, a.recommendationId(), "moved to " + name.apply(a.destinationDatastore()));
            };
        }
        return new Left(item, Status.UNPLANNED, null, null);
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
