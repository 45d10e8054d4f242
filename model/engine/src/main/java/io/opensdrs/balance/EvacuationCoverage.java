package io.opensdrs.balance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What a datastore's evacuation accounts for. An evacuation plan ({@link MaintenanceEvacuation},
 * {@link VmHomeEvacuation}) names each disk and VM home it found on the datastore: in a move (whole VM,
 * some disks, or the home alone) or in a fault. The datastore stays entering maintenance until nothing
 * is left on it, so what the plan does not account for would keep it entering for ever, silently:
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
 * <p>
 * Pure: what is on the datastore, the relocations under way and the plan's actions and faults, each
 * as the server has stored them, go in; where each thing stands comes out.
 */
public final class EvacuationCoverage {

    private EvacuationCoverage() {
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

    /**
     * A relocation off the datastore being carried out: issued and not ended, or queued in a recommendation
     * being applied.
     *
     * @param state the applier's state of it, as the detail names it ("running")
     * @param progress vCenter's per cent done; null when not known
     */
    public record Leaving(long recommendationId, String vmId, String destinationDatastoreId, String state, Integer progress) {
    }

    /** Where an action of the evacuation's plan stands. */
    public enum Outcome {
        /** not started, its recommendation awaiting approval */
        AWAITING_APPROVAL,
        /** not started, and its recommendation is no longer awaiting approval */
        NOT_APPLIED,
        /** issued to vCenter and not ended */
        UNDER_WAY,
        /** ended in a fault */
        FAILED,
        /** cancelled because the placement it was made for is gone */
        WITHDRAWN,
        /** dismissed or cancelled otherwise */
        DISMISSED,
        /** verified done */
        SUCCEEDED
    }

    /**
     * An action of the evacuation's plan.
     *
     * @param faultMessage why it failed, was dismissed or withdrawn; null when nothing says
     * @param finishedAt when it ended; null while it has not
     */
    public record Planned(long recommendationId, Relocation relocation, Outcome outcome, String faultMessage, Instant finishedAt) {
    }

    /**
     * A fault of the evacuation's plan.
     *
     * @param diskIds the disks it is about, comma-separated engine disk ids; null when it is about the VM
     */
    public record PlanFault(String vmId, String diskIds, String reason) {
    }

    /**
     * Where each of {@code items} stands, in their order.
     *
     * @param items the disks and VM homes on the datastore, as the inventory holds them
     * @param leaving the relocations off the datastore being carried out
     * @param planned the actions of the evacuation's plan (none: no plan)
     * @param faults the faults of the evacuation's plan
     * @param inventoryReadAt when the read of vCenter behind {@code items} began; empty when unknown
     * @param datastoreName a datastore's name, by id
     */
    public static List<Left> standing(List<Item> items, List<Leaving> leaving, List<Planned> planned, List<PlanFault> faults,
                                      Optional<Instant> inventoryReadAt, UnaryOperator<String> datastoreName) {
        List<Left> out = new ArrayList<>();
        for (Item item : items) {
            Predicate<Relocation> moves = item.diskKey() == null
                    ? r -> r.vmId().equals(item.vmId()) && r.diskKeys().isEmpty()
                    : r -> r.vmId().equals(item.vmId()) && !r.homeOnly() && (r.diskKeys().isEmpty() || r.diskKeys().contains(item.diskKey()));
            out.add(standing(item, moves, leaving, planned, faults, inventoryReadAt, datastoreName));
        }
        return out;
    }

    private static Left standing(Item item, Predicate<Relocation> moves, List<Leaving> leaving, List<Planned> planned,
                                 List<PlanFault> faults, Optional<Instant> readAt, UnaryOperator<String> name) {
        // the whole VM is left to a running relocation off the datastore, as the plan leaves it (MaintenanceEvacuation)
        Optional<Leaving> running = leaving.stream().filter(a -> a.vmId().equals(item.vmId())).findFirst();
        if (running.isPresent()) {
            Leaving a = running.get();
            return new Left(item, Status.MOVING, a.recommendationId(), "relocation to " + name.apply(a.destinationDatastoreId()) + " "
                    + a.state().toLowerCase(Locale.ROOT) + (a.progress() == null ? "" : ", " + a.progress() + " %"));
        }
        for (PlanFault f : faults) {
            if (item.vmId().equals(f.vmId()) && (item.diskKey() == null || f.diskIds() == null
                    || List.of(f.diskIds().split(",")).contains(item.diskId()))) {
                return new Left(item, Status.FAULT, null, f.reason());
            }
        }
        for (Planned a : planned) {
            if (!moves.test(a.relocation())) {
                continue;
            }
            String to = name.apply(a.relocation().destinationDatastoreId());
            return switch (a.outcome()) {
                case AWAITING_APPROVAL -> new Left(item, Status.RECOMMENDED, a.recommendationId(), "to " + to + ", awaiting approval");
                case NOT_APPLIED -> new Left(item, Status.DISMISSED, a.recommendationId(), "not applied");
                case UNDER_WAY -> new Left(item, Status.MOVING, a.recommendationId(), "to " + to);
                case FAILED -> new Left(item, Status.FAILED, a.recommendationId(), a.faultMessage());
                case WITHDRAWN -> new Left(item, Status.OUTDATED, a.recommendationId(), "its move was withdrawn: " + a.faultMessage());
                case DISMISSED -> new Left(item, Status.DISMISSED, a.recommendationId(), a.faultMessage());
                case SUCCEEDED -> a.finishedAt() != null && readAt.isPresent() && a.finishedAt().isBefore(readAt.get())
                        ? new Left(item, Status.BACK, a.recommendationId(), "moved to " + to + ", and back on the datastore in the inventory read after")
                        : new Left(item, Status.MOVED, a.recommendationId(), "moved to " + to);
            };
        }
        return new Left(item, Status.UNPLANNED, null, null);
    }

    /**
     * A running VM's swap file that its host keeps on the datastore outside the VM's home (host-local swap
     * placement): no relocation moves it, so no evacuation plans it.
     *
     * @param hostName the VM's host; null when not known
     */
    public static Left hostSwap(Item swapFile, String hostName) {
        return new Left(swapFile, Status.HOST_SWAP, null, "host " + (hostName == null ? "(unknown)" : hostName)
                + " keeps the VM's swap file here (host-local swap placement), and no relocation moves it: it goes when the VM"
                + " powers off, or runs on a host whose swap datastore is another");
    }

    /** The items the evacuation is to be planned again for. */
    public static List<Item> unaccounted(List<Left> left) {
        return left.stream().filter(l -> l.status().unaccounted()).map(Left::item).toList();
    }
}
