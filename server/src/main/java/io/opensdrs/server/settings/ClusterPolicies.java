package io.opensdrs.server.settings;

import io.opensdrs.balance.AutomationLevel;
import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.SpaceThresholdMode;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.sleds.ServiceClass;
import io.opensdrs.server.problems.InvalidFieldException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A cluster's balancing policy as stored: the settings row (SPEC §4 thresholds and automation
 * levels), per-VM overrides and SLEDS service classes (SPEC §3.5), and their translation into the
 * engine's {@link BalancingSettings}.
 */
@Component
public class ClusterPolicies {

    private final JdbcTemplate jdbc;
    private final ClusterSettingsRepository settings;

    public ClusterPolicies(JdbcTemplate jdbc, ClusterSettingsRepository settings) {
        this.jdbc = jdbc;
        this.settings = settings;
    }

    public ClusterSettings settings(String clusterId) {
        return settings.findById(clusterId).orElseGet(() -> ClusterSettings.defaults(clusterId));
    }

    /** Storage DRS on for the cluster: vCenter's podConfig.enabled, "Turn ON vSphere Storage DRS". */
    public boolean storageDrsOn(String clusterId) {
        return settings(clusterId).isStorageDrsEnabled();
    }

    /**
     * What vSphere refuses while Storage DRS is off for a pod — a load-balancing run, and
     * {@code RecommendDatastores} into it (vCenter answers InvalidArgument podSelectionSpec.storagePod)
     * — this server refuses too.
     *
     * @param refused what is not done, for the message ("no balancing run is made")
     * @throws IllegalStateException (409) when Storage DRS is turned off for the cluster
     */
    public void requireStorageDrsOn(String clusterId, String refused) {
        if (!storageDrsOn(clusterId)) {
            throw new IllegalStateException("Storage DRS is turned off for datastore cluster " + clusterId
                    + " (vCenter's podConfig.enabled = false): " + refused + "; turn it on with the setting storageDrsEnabled"
                    + " or \"Turn ON vSphere Storage DRS\" in the vSphere Client");
        }
    }

    /** The engine's settings: SDRS defaults overridden by what the administrator stored. */
    public BalancingSettings balancingSettings(String clusterId) {
        ClusterSettings s = settings(clusterId);
        return BalancingSettings.builder()
                .clusterAutomation(level(s.getAutomationLevel()))
                .spaceAutomation(s.getSpaceAutomationLevel() == null ? null : level(s.getSpaceAutomationLevel()))
                .ioAutomation(s.getIoAutomationLevel() == null ? null : level(s.getIoAutomationLevel()))
                .ruleEnforcementAutomation(s.getRuleAutomationLevel() == null ? null : level(s.getRuleAutomationLevel()))
                .evacuationAutomation(s.getEvacuationAutomationLevel() == null ? null : level(s.getEvacuationAutomationLevel()))
                .spaceThresholdMode("freeSpace".equals(s.getSpaceThresholdMode()) ? SpaceThresholdMode.FREE_SPACE : SpaceThresholdMode.UTILIZATION)
                .spaceUtilizationThreshold(s.getSpaceThresholdPct() / 100.0)
                .freeSpaceThresholdGb(s.getFreeSpaceThresholdGb())
                .minSpaceUtilizationDifference(s.getMinSpaceDifferencePct() / 100.0)
                .ioLoadBalanceEnabled(s.isIoLoadBalanceEnabled())
                .ioLatencyThresholdMs(s.getLatencyThresholdMs())
                // SDRS's IO imbalance threshold is a unitless 1–100 knob; the engine reads it as ms of p90 (model/README)
                .ioImbalanceThresholdMs(s.getIoImbalanceThreshold())
                .invocationPeriodHours(s.getLoadBalanceIntervalMinutes() / 60.0)
                .keepVmdksTogetherByDefault(s.isKeepVmdksTogether())
                .ignoreAffinityForMaintenance(s.isIgnoreAffinityForMaintenance())
                .build();
    }

    static AutomationLevel level(String stored) {
        return "automated".equals(stored) ? AutomationLevel.AUTOMATED : AutomationLevel.MANUAL;
    }

    /** vm id → override of the cluster's VMs. */
    public Map<String, VmOverride> vmOverrides(String clusterId) {
        Map<String, VmOverride> out = new LinkedHashMap<>();
        jdbc.query("SELECT vm_moid, behavior FROM vm_override WHERE cluster_moid = ? ORDER BY vm_moid",
                rs -> {
                    out.put(rs.getString(1), VmOverride.valueOf(rs.getString(2).toUpperCase(Locale.ROOT)));
                }, clusterId);
        return out;
    }

    /**
     * The VMs' automation as vCenter holds it ({@code held}: VM → its level, the VMs vCenter has
     * none for left out) becomes the cluster's overrides; a VM's service class stays. Returns the
     * changes made: VM → its level now.
     */
    public Map<String, VmOverride> adoptVmAutomation(String clusterId, Map<String, VmOverride> held) {
        Map<String, VmOverride> current = vmOverrides(clusterId);
        Map<String, VmOverride> changes = new LinkedHashMap<>();
        current.forEach((vm, o) -> {
            VmOverride h = held.getOrDefault(vm, VmOverride.DEFAULT);
            if (h == o) {
                return;
            }
            if (h == VmOverride.DEFAULT && jdbc.queryForObject("SELECT COUNT(*) FROM vm_service_class WHERE vm_moid = ?", Long.class, vm) == 0) {
                jdbc.update("DELETE FROM vm_override WHERE cluster_moid = ? AND vm_moid = ?", clusterId, vm);
            } else {
                jdbc.update("UPDATE vm_override SET behavior = ? WHERE cluster_moid = ? AND vm_moid = ?", stored(h), clusterId, vm);
            }
            changes.put(vm, h);
        });
        held.forEach((vm, h) -> {
            if (!current.containsKey(vm)) {
                jdbc.update("INSERT INTO vm_override (cluster_moid, vm_moid, behavior) VALUES (?, ?, ?)", clusterId, vm, stored(h));
                changes.put(vm, h);
            }
        });
        return changes;
    }

    private static String stored(VmOverride o) {
        return o.name().toLowerCase(Locale.ROOT);
    }

    public List<SettingsRequest.VmOverrideEntry> overrides(String clusterId) {
        return jdbc.query("SELECT o.vm_moid, o.behavior, c.class_id FROM vm_override o LEFT JOIN vm_service_class c ON c.vm_moid = o.vm_moid"
                        + " WHERE o.cluster_moid = ? ORDER BY o.vm_moid",
                (rs, i) -> new SettingsRequest.VmOverrideEntry(rs.getString(1), rs.getString(2), rs.getString(3)), clusterId);
    }

    public List<SettingsRequest.ServiceClassEntry> serviceClasses(String clusterId) {
        return jdbc.query("SELECT class_id, delivery_bound_ms, demand_bound_iops, demand_bound_bytes_per_s, allowed_miss_pct"
                        + " FROM service_class WHERE cluster_moid = ? ORDER BY class_id",
                (rs, i) -> new SettingsRequest.ServiceClassEntry(rs.getString(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4),
                        rs.getDouble(5)),
                clusterId);
    }

    /** The engine's SLEDS classes of a cluster. */
    public List<ServiceClass> sledsClasses(String clusterId) {
        return serviceClasses(clusterId).stream()
                .map(SettingsRequest.ServiceClassEntry::toServiceClass).toList();
    }

    /** vm id → service class id, over every cluster. */
    public Map<String, String> vmServiceClasses() {
        Map<String, String> out = new LinkedHashMap<>();
        jdbc.query("SELECT vm_moid, class_id FROM vm_service_class", rs -> {
            out.put(rs.getString(1), rs.getString(2));
        });
        return out;
    }

    /** What annotations cannot check: the VMs exist, no VM twice, classes named once and known. Throws before anything is written. */
    public void check(String clusterId, List<SettingsRequest.VmOverrideEntry> overrides, List<SettingsRequest.ServiceClassEntry> classes) {
        Set<String> classIds = new HashSet<>();
        if (classes != null) {
            for (int i = 0; i < classes.size(); i++) {
                if (!classIds.add(classes.get(i).id())) {
                    throw new InvalidFieldException("serviceClasses[" + i + "].id", "class " + classes.get(i).id() + " appears twice");
                }
            }
        } else {
            serviceClasses(clusterId).forEach(c -> classIds.add(c.id()));
        }
        if (overrides == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        // an entry the cluster holds already is taken back as it is: a client that sends the settings it read
        // (the plugin's Settings page) is not refused for a VM that has since left the cluster
        Set<SettingsRequest.VmOverrideEntry> held = new HashSet<>(overrides(clusterId));
        for (int i = 0; i < overrides.size(); i++) {
            SettingsRequest.VmOverrideEntry o = overrides.get(i);
            if (!seen.add(o.vmId())) {
                throw new InvalidFieldException("vmOverrides[" + i + "].vmId", "VM " + o.vmId() + " appears twice");
            }
            if (!held.contains(o)) {
                if (jdbc.queryForObject("SELECT COUNT(*) FROM vm WHERE moid = ?", Long.class, o.vmId()) == 0) {
                    throw new InvalidFieldException("vmOverrides[" + i + "].vmId", "no VM " + o.vmId() + " in the inventory");
                }
                // vCenter keeps a VM's override in the pod's configuration, which lists the pod's VMs
                if (jdbc.queryForObject("SELECT COUNT(*) FROM virtual_disk d JOIN datastore s ON s.moid = d.datastore_moid"
                        + " WHERE d.vm_moid = ? AND s.cluster_moid = ?", Long.class, o.vmId(), clusterId) == 0) {
                    throw new InvalidFieldException("vmOverrides[" + i + "].vmId", "VM " + o.vmId() + " has no disk in datastore cluster "
                            + clusterId);
                }
            }
            if (o.serviceClass() != null && !classIds.contains(o.serviceClass())) {
                throw new InvalidFieldException("vmOverrides[" + i + "].serviceClass", "no service class " + o.serviceClass()
                        + "; known: " + classIds);
            }
        }
    }

    /** Replaces the overrides and classes given (null: kept as they are). Call inside the settings transaction. */
    public void replace(String clusterId, List<SettingsRequest.VmOverrideEntry> overrides, List<SettingsRequest.ServiceClassEntry> classes) {
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
