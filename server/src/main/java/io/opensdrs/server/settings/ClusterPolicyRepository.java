package io.opensdrs.server.settings;

import io.opensdrs.balance.VmOverride;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parts of a cluster's policy beside its settings row ({@link ClusterSettingsRepository}): per-VM
 * overrides and SLEDS service classes (SPEC §3.5), and what of the stored inventory a VM's override is
 * checked against.
 */
@Component
public class ClusterPolicyRepository {

    private final JdbcTemplate jdbc;

    public ClusterPolicyRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Locks the cluster's inventory row until the transaction ends, so that changes to one cluster's
     * settings — read from vCenter's pod, changed, written back and read back — run one after another,
     * on this server and on any other on the same database.
     */
    void lockForChange(String clusterId) {
        jdbc.queryForList("SELECT moid FROM datastore_cluster WHERE moid = ? FOR UPDATE", String.class, clusterId);
    }

    /** vm id → override of the cluster's VMs. */
    Map<String, VmOverride> vmOverrides(String clusterId) {
        Map<String, VmOverride> out = new LinkedHashMap<>();
        jdbc.query("SELECT vm_moid, behavior FROM vm_override WHERE cluster_moid = ? ORDER BY vm_moid",
                rs -> {
                    out.put(rs.getString(1), VmOverride.valueOf(rs.getString(2).toUpperCase(Locale.ROOT)));
                }, clusterId);
        return out;
    }

    boolean hasServiceClass(String vmId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM vm_service_class WHERE vm_moid = ?", Long.class, vmId) != 0;
    }

    void deleteVmOverride(String clusterId, String vmId) {
        jdbc.update("DELETE FROM vm_override WHERE cluster_moid = ? AND vm_moid = ?", clusterId, vmId);
    }

    void updateVmOverride(String clusterId, String vmId, String behavior) {
        jdbc.update("UPDATE vm_override SET behavior = ? WHERE cluster_moid = ? AND vm_moid = ?", behavior, clusterId, vmId);
    }

    void insertVmOverride(String clusterId, String vmId, String behavior) {
        jdbc.update("INSERT INTO vm_override (cluster_moid, vm_moid, behavior) VALUES (?, ?, ?)", clusterId, vmId, behavior);
    }

    List<SettingsRequest.VmOverrideEntry> overrides(String clusterId) {
        return jdbc.query("SELECT o.vm_moid, o.behavior, c.class_id FROM vm_override o LEFT JOIN vm_service_class c ON c.vm_moid = o.vm_moid"
                        + " WHERE o.cluster_moid = ? ORDER BY o.vm_moid",
                (rs, i) -> new SettingsRequest.VmOverrideEntry(rs.getString(1), rs.getString(2), rs.getString(3)), clusterId);
    }

    List<SettingsRequest.ServiceClassEntry> serviceClasses(String clusterId) {
        return jdbc.query("SELECT class_id, delivery_bound_ms, demand_bound_iops, demand_bound_bytes_per_s, allowed_miss_pct"
                        + " FROM service_class WHERE cluster_moid = ? ORDER BY class_id",
                (rs, i) -> new SettingsRequest.ServiceClassEntry(rs.getString(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4),
                        rs.getDouble(5)),
                clusterId);
    }

    /** vm id → service class id, over every cluster. */
    Map<String, String> vmServiceClasses() {
        Map<String, String> out = new LinkedHashMap<>();
        jdbc.query("SELECT vm_moid, class_id FROM vm_service_class", rs -> {
            out.put(rs.getString(1), rs.getString(2));
        });
        return out;
    }

    boolean vmExists(String vmId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM vm WHERE moid = ?", Long.class, vmId) != 0;
    }

    /** Whether the VM has a disk on a datastore of the cluster. */
    boolean vmHasDiskIn(String vmId, String clusterId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM virtual_disk d JOIN datastore s ON s.moid = d.datastore_moid"
                + " WHERE d.vm_moid = ? AND s.cluster_moid = ?", Long.class, vmId, clusterId) != 0;
    }

    /** Replaces the overrides and classes given (null: kept as they are). */
    void replace(String clusterId, List<SettingsRequest.VmOverrideEntry> overrides, List<SettingsRequest.ServiceClassEntry> classes) {
        if (classes != null) {
            jdbc.update("DELETE FROM service_class WHERE cluster_moid = ?", clusterId);
            for (SettingsRequest.ServiceClassEntry c : classes) {
                jdbc.update("INSERT INTO service_class (cluster_moid, class_id, delivery_bound_ms, demand_bound_iops, demand_bound_bytes_per_s,"
                        + " allowed_miss_pct) VALUES (?, ?, ?, ?, ?, ?)", clusterId, c.id(), c.deliveryBoundMs(), c.demandBoundIops(),
                        c.demandBoundBytesPerSecond(), c.toServiceClass().allowedMissPct());
            }
        }
        if (overrides != null) {
            jdbc.update("DELETE FROM vm_service_class WHERE vm_moid IN (SELECT vm_moid FROM vm_override WHERE cluster_moid = ?)", clusterId);
            jdbc.update("DELETE FROM vm_override WHERE cluster_moid = ?", clusterId);
            for (SettingsRequest.VmOverrideEntry o : overrides) {
                jdbc.update("DELETE FROM vm_service_class WHERE vm_moid = ?", o.vmId());
                jdbc.update("INSERT INTO vm_override (cluster_moid, vm_moid, behavior) VALUES (?, ?, ?)", clusterId, o.vmId(), o.behavior());
                if (o.serviceClass() != null) {
                    jdbc.update("INSERT INTO vm_service_class (vm_moid, class_id) VALUES (?, ?)", o.vmId(), o.serviceClass());
                }
            }
        }
    }
}
