package io.opensdrs.server.balancing;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The space of a cluster's datastores once a run's plan has landed, for the homes moved after it
 * ({@link KeptTogetherHomes}, {@link VmHomeEvacuation}). The engine counts disks; a home — the
 * configuration files, logs, swap, snapshot and suspend state — is bytes too (a powered-on VM's
 * swap file is its memory less its reservation), and a home moved onto a datastore must leave it
 * under its space threshold as a disk moved there must (SPEC §4: 80 % by default, or a free-space
 * floor). The plan's disk moves are counted first, and a VM the plan moves whole takes its home with it.
 */
final class HomeSpace {

    private record Home(String datastoreId, long bytes) {
    }

    private final BalancingSettings settings;
    private final ClusterStateAssembler.Assembled cluster;
    private final Map<String, Double> usedGb = new HashMap<>();
    private final Map<String, Home> homes = new HashMap<>();

    /**
     * @param plan the run's plan, already counted as landed
     * @param a the cluster as the plan saw it
     */
    HomeSpace(JdbcTemplate jdbc, MovePlan plan, ClusterStateAssembler.Assembled a) {
        ClusterState state = a.state();
        this.settings = state.settings();
        this.cluster = a;
        state.datastores().forEach(d -> usedGb.put(d.id(), d.usedGb()));
        // the VMs with their home or a disk in the cluster (a home outside it counts on no datastore of the cluster)
        jdbc.query("SELECT v.moid, v.home_datastore_moid, v.home_bytes FROM vm v WHERE v.home_datastore_moid IN"
                + " (SELECT moid FROM datastore WHERE cluster_moid = ?) OR v.moid IN (SELECT vd.vm_moid FROM virtual_disk vd"
                + " JOIN datastore d ON d.moid = vd.datastore_moid WHERE d.cluster_moid = ?)", rs -> {
                    homes.put(rs.getString(1), new Home(rs.getString(2), rs.getLong(3)));
                }, state.clusterId(), state.clusterId());
        for (Move m : plan.moves()) {
            Home h = homes.get(m.vmId());
            boolean homeAlong = h != null && m.wholeVm() && !m.destinationDatastoreId().equals(h.datastoreId());
            double homeGb = homeAlong ? h.bytes() / ClusterStateAssembler.GB : 0;
            // Move.sizeGb is what copies, the home included when the VM moves whole (Move.wholeVm)
            land(m.sourceDatastoreId(), m.destinationDatastoreId(), m.sizeGb() - homeGb);
            if (homeAlong) {
                land(h.datastoreId(), m.destinationDatastoreId(), homeGb);
            }
        }
    }

    /** The size of the VM's home as the last sync read it, 0 when unknown. */
    long homeBytes(String vmId) {
        Home h = homes.get(vmId);
        return h == null ? 0 : h.bytes();
    }

    /** GB the datastore can still take before its space threshold. */
    double roomGb(String datastoreId) {
        DatastoreState d = cluster.state().datastore(datastoreId);
        return settings.spaceLimitGb(d.capacityGb()) - usedGb.getOrDefault(datastoreId, 0.0);
    }

    /** Why the VM's home may not land on the datastore, or null when it fits under the space threshold. */
    String refusal(String vmId, String datastoreId) {
        double home = homeBytes(vmId) / ClusterStateAssembler.GB;
        DatastoreState d = cluster.state().datastore(datastoreId);
        double limit = settings.spaceLimitGb(d.capacityGb());
        double after = usedGb.getOrDefault(datastoreId, 0.0) + home;
        if (after <= limit + 1e-9) {
            return null;
        }
        return String.format(Locale.ROOT, "its home%s would take datastore %s to %.1f GB, over its space threshold of %.1f GB",
                sizeOfHome(vmId), cluster.datastoreName(datastoreId), after, limit);
    }

    /** Counts a home as moved. */
    void moveHome(String vmId, String from, String to) {
        land(from, to, homeBytes(vmId) / ClusterStateAssembler.GB);
    }

    private void land(String from, String to, double gb) {
        usedGb.computeIfPresent(from, (k, v) -> v - gb);
        usedGb.computeIfPresent(to, (k, v) -> v + gb);
    }

    /** " (its size)" to follow the word home in a summary; nothing while the size is unknown. */
    String sizeOfHome(String vmId) {
        long bytes = homeBytes(vmId);
        return bytes > 0 ? " (" + size(bytes) + ")" : "";
    }

    /** A home's size the way the vSphere Client prints a file's. */
    private static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GB", bytes / ClusterStateAssembler.GB);
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
}
