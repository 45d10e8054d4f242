package io.opensdrs.balance;

import java.util.List;

/**
 * A virtual machine: its host, its disks, its automation override and whether its disks
 * stay together.
 *
 * @param keepTogether intra-VM affinity ("keep VMDKs together"); null = the cluster default
 *     ({@link BalancingSettings#keepVmdksTogetherByDefault()}); a VMDK anti-affinity rule on
 *     the VM switches it off, as in vSphere
 */
public record VmState(String id, String hostId, VmOverride override, Boolean keepTogether, List<DiskState> disks) {

    public VmState {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("vm id must not be blank");
        }
        override = override == null ? VmOverride.DEFAULT : override;
        disks = List.copyOf(disks);
    }

    public static VmState of(String id, String hostId, List<DiskState> disks) {
        return new VmState(id, hostId, VmOverride.DEFAULT, null, disks);
    }

    public VmState withOverride(VmOverride o) {
        return new VmState(id, hostId, o, keepTogether, disks);
    }

    public VmState withDisks(List<DiskState> d) {
        return new VmState(id, hostId, override, keepTogether, d);
    }
}
