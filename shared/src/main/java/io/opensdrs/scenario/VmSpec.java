package io.opensdrs.scenario;

import java.util.List;
import java.util.Optional;

/**
 * A virtual machine running on a host, with its virtual disks.
 *
 * @param automation per-VM override of the cluster's automation level (SPEC §4):
 *                   {@code default}, {@code manual}, {@code automated} or {@code disabled}
 * @param keepTogether intra-VM affinity; null means the cluster default (on)
 */
public record VmSpec(String name, String host, String automation, Boolean keepTogether, List<DiskSpec> disks) {
    public VmSpec {
        automation = automation == null ? "default" : automation;
        disks = List.copyOf(disks);
    }

    public Optional<DiskSpec> disk(String diskName) {
        return disks.stream().filter(d -> d.name().equals(diskName)).findFirst();
    }
}
