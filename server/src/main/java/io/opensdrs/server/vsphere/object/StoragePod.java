package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectContent;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ClusterAntiAffinityRuleSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ClusterRuleInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsAutomationConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsIoLoadBalanceConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsPodConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsSpaceLoadBalanceConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsVmConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.VirtualDiskAntiAffinityRuleSpec;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.util.ArrayList;
import java.util.List;

/**
 * A datastore cluster (StoragePod): its Storage DRS configuration
 * ({@code podStorageDrsEntry.storageDrsConfig}) read as vCenter holds it now, and read into
 * {@link StorageDrsRules}, here and in the inventory alike.
 */
final class StoragePod {
    /** The pod's Storage DRS settings and rules (PodStorageDrsEntry.storageDrsConfig). */
    static final String STORAGE_DRS_CONFIG = "podStorageDrsEntry.storageDrsConfig";

    private final Session session;
    private final ManagedObjectReference self;

    StoragePod(Session session, String podId) {
        this.session = session;
        this.self = new ManagedObjectReference("StoragePod", podId);
    }

    /**
     * The pod's storageDrsConfig, or null when it holds none; fails with
     * {@code ManagedObjectNotFound} when vCenter no longer has the pod.
     */
    StorageDrsConfigInfo storageDrsConfig() throws VimFaultException {
        ObjectContent oc = session.call(() -> PropertyCollector.of(session.vim()).retrieveOne(self, STORAGE_DRS_CONFIG));
        if (oc == null) {
            throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "datastore cluster " + self.value() + " is gone");
        }
        return oc.get(STORAGE_DRS_CONFIG) instanceof StorageDrsConfigInfo c ? c : null;
    }

    StorageDrsRules storageDrsRules() throws VimFaultException {
        return rules(storageDrsConfig());
    }

    /** vCenter's rules as Storage DRS applies them; a rule without a name is named after its key. */
    static StorageDrsRules rules(Object val) {
        if (!(val instanceof StorageDrsConfigInfo config)) {
            return StorageDrsRules.NONE;
        }
        List<StorageDrsRules.VmAntiAffinity> vmRules = new ArrayList<>();
        StorageDrsRules.PodSettings pod = StorageDrsRules.PodSettings.UNSET;
        if (config.podConfig != null) {
            pod = podSettings(config.podConfig);
            for (ClusterRuleInfo r : config.podConfig.rule) {
                if (r instanceof ClusterAntiAffinityRuleSpec anti) {
                    vmRules.add(new StorageDrsRules.VmAntiAffinity(ruleName(anti), !Boolean.FALSE.equals(anti.enabled),
                            anti.vm.stream().map(ManagedObjectReference::value).toList()));
                }
            }
        }
        List<StorageDrsRules.VmRules> vms = new ArrayList<>();
        for (StorageDrsVmConfigInfo v : config.vmConfig) {
            if (v.vm == null) {
                continue;
            }
            VirtualDiskAntiAffinityRuleSpec a = v.intraVmAntiAffinity;
            vms.add(new StorageDrsRules.VmRules(v.vm.value(), v.intraVmAffinity, a == null ? null
                    : new StorageDrsRules.VmdkAntiAffinity(ruleName(a), !Boolean.FALSE.equals(a.enabled), a.diskId),
                    v.enabled, v.behavior == null || v.behavior.isBlank() ? null : v.behavior));
        }
        return new StorageDrsRules(pod, vmRules, vms);
    }

    /** What the pod holds; a blank string or zero is a value vCenter does not hold (the WSDL's omitted element). */
    static StorageDrsRules.PodSettings podSettings(StorageDrsPodConfigInfo c) {
        StorageDrsSpaceLoadBalanceConfig space = c.spaceLoadBalanceConfig;
        StorageDrsIoLoadBalanceConfig io = c.ioLoadBalanceConfig;
        StorageDrsAutomationConfig auto = c.automationOverrides;
        // enabled is a plain boolean in the WSDL, always sent with the podConfig
        return new StorageDrsRules.PodSettings(c.enabled, blankAsNull(c.defaultVmBehavior), io == null ? null : c.ioLoadBalanceEnabled,
                c.defaultIntraVmAffinity,
                space == null ? null : blankAsNull(space.spaceThresholdMode),
                space == null ? null : zeroAsNull(space.spaceUtilizationThreshold),
                space == null ? null : zeroAsNull(space.freeSpaceThresholdGB),
                space == null ? null : zeroAsNull(space.minSpaceUtilizationDifference),
                io == null ? null : zeroAsNull(io.ioLatencyThreshold),
                io == null ? null : zeroAsNull(io.ioLoadImbalanceThreshold),
                auto == null ? null : automationMode(auto.spaceLoadBalanceAutomationMode),
                auto == null ? null : automationMode(auto.ioLoadBalanceAutomationMode),
                auto == null ? null : automationMode(auto.ruleEnforcementAutomationMode),
                auto == null ? null : automationMode(auto.vmEvacuationAutomationMode),
                flag(option(c, StorageDrsRules.PodSettings.IGNORE_AFFINITY_FOR_MAINTENANCE)));
    }

    /** The value of the pod's advanced option, or null when it holds none. */
    static Object option(StorageDrsPodConfigInfo c, String key) {
        return c.option.stream().filter(o -> key.equals(o.key)).map(o -> o.value).findFirst().orElse(null);
    }

    /** An advanced option's switch: 1 or true, 0 or false (as the vSphere Client's advanced options take them); else none. */
    private static Boolean flag(Object value) {
        String v = value == null ? "" : value.toString().strip();
        return v.equals("1") || v.equalsIgnoreCase("true") ? Boolean.TRUE : v.equals("0") || v.equalsIgnoreCase("false") ? Boolean.FALSE : null;
    }

    private static String automationMode(String mode) {
        return mode == null || mode.isBlank() ? "inherit" : mode;
    }

    private static String blankAsNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static Integer zeroAsNull(Integer i) {
        return i == null || i == 0 ? null : i;
    }

    private static String ruleName(ClusterRuleInfo r) {
        return r.name != null && !r.name.isBlank() ? r.name : "rule-" + r.key;
    }
}
