package io.opensdrs.server.vsphere;

import java.util.List;

/**
 * A datastore cluster's Storage DRS rules as vCenter keeps them
 * ({@code StoragePod.podStorageDrsEntry.storageDrsConfig}, set with ConfigureStorageDrsForPod_Task or
 * the vSphere Client's "VM/Host Rules" and "VM Overrides"): VM anti-affinity rules of the pod, and
 * per VM whether its VMDKs are kept together and its VMDK anti-affinity rule (SPEC §4).
 *
 * @param defaultKeepTogether podConfig.defaultIntraVmAffinity: null when vCenter leaves it unset
 */
public record StorageDrsRules(Boolean defaultKeepTogether, List<VmAntiAffinity> vmAntiAffinity, List<VmRules> vms) {

    public static final StorageDrsRules NONE = new StorageDrsRules(null, List.of(), List.of());

    public StorageDrsRules {
        vmAntiAffinity = List.copyOf(vmAntiAffinity);
        vms = List.copyOf(vms);
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
    }

    /** The VM's listed disks must each be on a different datastore (VirtualDiskAntiAffinityRuleSpec). */
    public record VmdkAntiAffinity(String name, boolean enabled, List<Integer> diskKeys) {
        public VmdkAntiAffinity {
            diskKeys = List.copyOf(diskKeys);
        }
    }
}
