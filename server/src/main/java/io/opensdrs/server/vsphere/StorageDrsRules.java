package io.opensdrs.server.vsphere;

import io.opensdrs.balance.VmOverride;

import java.util.List;

/**
 * A datastore cluster's Storage DRS configuration as vCenter keeps it
 * ({@code StoragePod.podStorageDrsEntry.storageDrsConfig}, set with ConfigureStorageDrsForPod_Task or
 * the vSphere Client's "Edit Storage DRS", "VM/Host Rules" and "VM Overrides"): the pod's settings,
 * its VM anti-affinity rules, and per VM whether its VMDKs are kept together, its VMDK anti-affinity
 * rule and its automation (SPEC §4).
 *
 * @param pod the pod-wide settings this server shares with vCenter
 */
public record StorageDrsRules(PodSettings pod, List<VmAntiAffinity> vmAntiAffinity, List<VmRules> vms) {

    public static final StorageDrsRules NONE = new StorageDrsRules(PodSettings.UNSET, List.of(), List.of());

    public StorageDrsRules {
        pod = pod == null ? PodSettings.UNSET : pod;
        vmAntiAffinity = List.copyOf(vmAntiAffinity);
        vms = List.copyOf(vms);
    }

    /**
     * The pod-wide settings of SPEC §4 as vCenter holds them, each named after the server's own
     * setting it is ({@code ClusterSettings}); null where vCenter holds no value (the stock
     * simulator's new pod has none).
     *
     * @param storageDrsEnabled     podConfig.enabled: Storage DRS on or off for the pod
     * @param automationLevel       podConfig.defaultVmBehavior: manual or automated
     * @param ioLoadBalanceEnabled  podConfig.ioLoadBalanceEnabled, counted as held only beside an
     *                              ioLoadBalanceConfig (the WSDL makes it a plain boolean, so a pod
     *                              never configured reads false)
     * @param keepVmdksTogether     podConfig.defaultIntraVmAffinity
     * @param spaceThresholdMode    spaceLoadBalanceConfig.spaceThresholdMode: utilization or freeSpace
     * @param spaceThresholdPct     spaceLoadBalanceConfig.spaceUtilizationThreshold (%)
     * @param freeSpaceThresholdGb  spaceLoadBalanceConfig.freeSpaceThresholdGB
     * @param minSpaceDifferencePct spaceLoadBalanceConfig.minSpaceUtilizationDifference (%)
     * @param latencyThresholdMs    ioLoadBalanceConfig.ioLatencyThreshold (ms)
     * @param ioImbalanceThreshold  ioLoadBalanceConfig.ioLoadImbalanceThreshold
     * @param spaceAutomationLevel  automationOverrides.spaceLoadBalanceAutomationMode: manual, automated,
     *                              or inherit when blank (the pod's level)
     * @param ioAutomationLevel     automationOverrides.ioLoadBalanceAutomationMode, the same way
     * @param ruleAutomationLevel   automationOverrides.ruleEnforcementAutomationMode (moves that fix a
     *                              broken rule), the same way
     * @param evacuationAutomationLevel automationOverrides.vmEvacuationAutomationMode (maintenance-mode
     *                              evacuations), the same way
     * @param ignoreAffinityForMaintenance the advanced option {@value #IGNORE_AFFINITY_FOR_MAINTENANCE}
     *                              ({@code podConfig.option}): 1 lets maintenance-mode evacuations break
     *                              affinity rules, 0 keeps them; null when the pod holds no such option
     */
    public record PodSettings(Boolean storageDrsEnabled, String automationLevel, Boolean ioLoadBalanceEnabled, Boolean keepVmdksTogether,
                              String spaceThresholdMode, Integer spaceThresholdPct, Integer freeSpaceThresholdGb,
                              Integer minSpaceDifferencePct, Integer latencyThresholdMs, Integer ioImbalanceThreshold,
                              String spaceAutomationLevel, String ioAutomationLevel, String ruleAutomationLevel,
                              String evacuationAutomationLevel, Boolean ignoreAffinityForMaintenance) {

        public static final PodSettings UNSET = new PodSettings(null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null);

        /** The Storage DRS advanced option of the vSphere Client's "Ignore affinity rules for maintenance". */
        public static final String IGNORE_AFFINITY_FOR_MAINTENANCE = "IgnoreAffinityRulesForMaintenance";
    }

    /** No two of the VMs may share a datastore (ClusterAntiAffinityRuleSpec). */
    public record VmAntiAffinity(String name, boolean enabled, List<String> vmIds) {
        public VmAntiAffinity {
            vmIds = List.copyOf(vmIds);
        }
    }

    /**
     * One VM's settings (StorageDrsVmConfigInfo), what the vSphere Client's Storage DRS "VM
     * Overrides" edit.
     *
     * @param keepTogether intraVmAffinity; null: the pod's default
     * @param vmdkAntiAffinity intraVmAntiAffinity, or null
     * @param enabled false: Storage DRS leaves the VM alone (the client's "Disabled"); null: true
     * @param behavior {@code manual} or {@code automated}; null: the pod's default
     */
    public record VmRules(String vmId, Boolean keepTogether, VmdkAntiAffinity vmdkAntiAffinity, Boolean enabled, String behavior) {

        public VmRules(String vmId, Boolean keepTogether, VmdkAntiAffinity vmdkAntiAffinity) {
            this(vmId, keepTogether, vmdkAntiAffinity, null, null);
        }

        /**
         * The VM's Storage DRS automation as the vSphere Client's "VM Overrides" show it:
         * {@code enabled = false} is "Disabled" (excluded), else its {@code behavior}, else the
         * cluster's (DEFAULT).
         */
        public VmOverride automation() {
            if (Boolean.FALSE.equals(enabled)) {
                return VmOverride.EXCLUDED;
            }
            if ("manual".equals(behavior)) {
                return VmOverride.MANUAL;
            }
            return "automated".equals(behavior) ? VmOverride.AUTOMATED : VmOverride.DEFAULT;
        }
    }

    /** The VM's listed disks must each be on a different datastore (VirtualDiskAntiAffinityRuleSpec). */
    public record VmdkAntiAffinity(String name, boolean enabled, List<Integer> diskKeys) {
        public VmdkAntiAffinity {
            diskKeys = List.copyOf(diskKeys);
        }
    }
}
