package io.opensdrs.scenario;

import java.util.List;
import java.util.Optional;

/**
 * A virtual machine running on a host, with its virtual disks.
 *
 * @param automation per-VM override of the cluster's automation level (SPEC §4):
 *                   {@code default}, {@code manual}, {@code automated} or {@code disabled}
 * @param keepTogether intra-VM affinity; null means the cluster default (on)
 * @param memoryMB the VM's memory; its swap file in its home, once it runs, is that size. Null: not given
 *                 (the simulated vCenter's default, 32 MB)
 */
public record VmSpec(String name, String host, String automation, Boolean keepTogether, List<DiskSpec> disks, Integer memoryMB) {
    public VmSpec {
        automation = automation == null ? "default" : automation;
        disks = List.copyOf(disks);
    }

    /** A VM whose memory the scenario does not give. */
    public VmSpec(String name, String host, String automation, Boolean keepTogether, List<DiskSpec> disks) {
        this(name, host, automation, keepTogether, disks, null);
    }

    public Optional<DiskSpec> disk(String diskName) {
        return disks.stream().filter(d -> d.name().equals(diskName)).findFirst();
    }
}
