package io.opensdrs.server.settings;

import io.opensdrs.balance.AutomationLevel;
import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.SpaceThresholdMode;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.sleds.ServiceClass;
import io.opensdrs.server.problems.InvalidFieldException;
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

    private final ClusterPolicyRepository policies;
    private final ClusterSettingsRepository settings;

    public ClusterPolicies(ClusterPolicyRepository policies, ClusterSettingsRepository settings) {
        this.policies = policies;
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
        return policies.vmOverrides(clusterId);
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
            if (h == VmOverride.DEFAULT && !policies.hasServiceClass(vm)) {
                policies.deleteVmOverride(clusterId, vm);
            } else {
                policies.updateVmOverride(clusterId, vm, stored(h));
            }
            changes.put(vm, h);
        });
        held.forEach((vm, h) -> {
            if (!current.containsKey(vm)) {
                policies.insertVmOverride(clusterId, vm, stored(h));
                changes.put(vm, h);
            }
        });
        return changes;
    }

    private static String stored(VmOverride o) {
        return o.name().toLowerCase(Locale.ROOT);
    }

    public List<SettingsRequest.VmOverrideEntry> overrides(String clusterId) {
        return policies.overrides(clusterId);
    }

    public List<SettingsRequest.ServiceClassEntry> serviceClasses(String clusterId) {
        return policies.serviceClasses(clusterId);
    }

    /** The engine's SLEDS classes of a cluster. */
    public List<ServiceClass> sledsClasses(String clusterId) {
        return serviceClasses(clusterId).stream()
                .map(SettingsRequest.ServiceClassEntry::toServiceClass).toList();
    }

    /** vm id → service class id, over every cluster. */
    public Map<String, String> vmServiceClasses() {
        return policies.vmServiceClasses();
    }

    /**
     * Makes a change to the cluster's settings wait for any other in flight, until the caller's
     * transaction ends: two administrators saving at once each read back vCenter's pod as the other
     * left it, and the one whose write landed first would be told vCenter refused it.
     */
    public void lockForChange(String clusterId) {
        policies.lockForChange(clusterId);
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
                if (!policies.vmExists(o.vmId())) {
                    throw new InvalidFieldException("vmOverrides[" + i + "].vmId", "no VM " + o.vmId() + " in the inventory");
                }
                // vCenter keeps a VM's override in the pod's configuration, which lists the pod's VMs
                if (!policies.vmHasDiskIn(o.vmId(), clusterId)) {
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
        policies.replace(clusterId, overrides, classes);
    }
}
