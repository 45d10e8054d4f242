package io.opensdrs.balance;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The space of a cluster's datastores once a plan has landed, for the homes moved after it
 * ({@link KeptTogetherHomes}, {@link VmHomeEvacuation}). The disk planners count disks; a home — the
 * configuration files, logs, swap, snapshot and suspend state — is bytes too (a powered-on VM's swap
 * file is its memory less its reservation), and a home moved onto a datastore must leave it under its
 * space threshold as a disk moved there must (SPEC §4: 80 % by default, or a free-space floor). The
 * plan's disk moves are counted first, and a VM the plan moves whole takes its home with it.
 */
final class HomeSpace {

    private static final double GB = 1024.0 * 1024 * 1024;

    private final ClusterState state;
    private final Map<String, Double> usedGb = new HashMap<>();

    /** @param plan the plan, counted as landed */
    HomeSpace(ClusterState state, MovePlan plan) {
        this.state = state;
        state.datastores().forEach(d -> usedGb.put(d.id(), d.usedGb()));
        for (Move m : plan.moves()) {
            VmState vm = vm(m.vmId());
            boolean homeAlong = vm != null && m.wholeVm() && !m.destinationDatastoreId().equals(vm.homeDatastoreId());
            double homeGb = homeAlong ? vm.homeGb() : 0;
            // Move.sizeGb is what copies, the home included when the VM moves whole; a home outside the cluster
            // (homeDatastoreId null) leaves no datastore of the cluster but lands on the destination
            land(m.sourceDatastoreId(), m.destinationDatastoreId(), m.sizeGb() - homeGb);
            if (homeAlong) {
                land(vm.homeDatastoreId(), m.destinationDatastoreId(), homeGb);
            }
        }
    }

    private VmState vm(String vmId) {
        return state.vms().stream().filter(v -> v.id().equals(vmId)).findFirst().orElse(null);
    }

    /** The home's size in GB, 0 when unknown. */
    double homeGb(String vmId) {
        VmState vm = vm(vmId);
        return vm == null ? 0 : vm.homeGb();
    }

    /** GB the datastore can still take before its space threshold. */
    double roomGb(String datastoreId) {
        return state.settings().spaceLimitGb(state.datastore(datastoreId).capacityGb()) - usedGb.getOrDefault(datastoreId, 0.0);
    }

    /** Why the VM's home may not land on the datastore, or null when it fits under the space threshold. */
    String refusal(String vmId, String datastoreId) {
        double limit = state.settings().spaceLimitGb(state.datastore(datastoreId).capacityGb());
        double after = usedGb.getOrDefault(datastoreId, 0.0) + homeGb(vmId);
        if (after <= limit + 1e-9) {
            return null;
        }
        return String.format(Locale.ROOT, "its home%s would take datastore %s to %.1f GB, over its space threshold of %.1f GB",
                sizeOfHome(vmId), state.names().datastore(datastoreId), after, limit);
    }

    /** Counts a home as moved. */
    void moveHome(String vmId, String from, String to) {
        land(from, to, homeGb(vmId));
    }

    private void land(String from, String to, double gb) {
        usedGb.computeIfPresent(from, (k, v) -> v - gb);
        usedGb.computeIfPresent(to, (k, v) -> v + gb);
    }

    /** " (its size)" to follow the word home in a summary; nothing while the size is unknown. */
    String sizeOfHome(String vmId) {
        double gb = homeGb(vmId);
        return gb > 0 ? " (" + size(gb) + ")" : "";
    }

    /** A home's size the way the vSphere Client prints a file's. */
    private static String size(double gb) {
        double bytes = gb * GB;
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GB", gb);
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / (1L << 20));
        }
        return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }

    /** The bytes a home's relocation writes to its destination. */
    long homeBytes(String vmId) {
        return Math.round(homeGb(vmId) * GB);
    }

    /** A move of the home alone: the few bytes of its files, every disk staying where it is. */
    Move homeMove(int sequence, VmState vm, String from, String to, ReasonCode reason, String summary, boolean autoApplicable) {
        Relocation r = new Relocation(vm.id(), Relocation.Scope.HOME, java.util.List.of(), java.util.List.of(from), to, vm.hostId(),
                homeBytes(vm.id()));
        return new Move(sequence, 1, r, java.util.List.of(), from, vm.homeGb(), reason, new Explanation(summary, java.util.List.of()),
                null, null, autoApplicable);
    }
}
