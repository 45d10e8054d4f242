package io.opensdrs.balance;

import java.util.Set;

/**
 * A Storage DRS placement rule (SPEC §4). Intra-VM affinity ("keep VMDKs together") is a
 * property of the VM ({@link VmState#keepTogether()}); the two anti-affinity rules are these.
 */
public sealed interface Rule permits Rule.VmdkAntiAffinity, Rule.VmAntiAffinity {

    String name();

    /** The listed disks of one VM must each be on a different datastore. */
    record VmdkAntiAffinity(String name, String vmId, Set<String> diskIds) implements Rule {
        public VmdkAntiAffinity {
            if (diskIds == null || diskIds.size() < 2) {
                throw new IllegalArgumentException("VMDK anti-affinity rule " + name + " needs at least 2 disks");
            }
            diskIds = Set.copyOf(diskIds);
        }
    }

    /** No two of the listed VMs may share a datastore. */
    record VmAntiAffinity(String name, Set<String> vmIds) implements Rule {
        public VmAntiAffinity {
            if (vmIds == null || vmIds.size() < 2) {
                throw new IllegalArgumentException("VM anti-affinity rule " + name + " needs at least 2 VMs");
            }
            vmIds = Set.copyOf(vmIds);
        }
    }
}
