package io.opensdrs.balance;

import java.util.List;

/**
 * A virtual machine: its host, its disks, its automation override and whether its disks
 * stay together.
 *
 * @param keepTogether intra-VM affinity ("keep VMDKs together"); null = the cluster default
 *     ({@link BalancingSettings#keepVmdksTogetherByDefault()}); a VMDK anti-affinity rule on
 *     the VM switches it off, as in vSphere
 * @param homeDatastoreId the datastore of the VM's home — its configuration files, logs, swap; null
 *     when unknown or outside the cluster
 * @param homeGb the home's size: a move of the whole VM copies it with the VMDKs and lands it on the
 *     destination, whose space threshold counts it
 * @param disksOutsideCluster how many of the VM's disks are on datastores outside the cluster, which
 *     {@code disks} does not list: a move of every disk listed then leaves those and the home where they
 *     are, it is no move of the whole VM
 */
public record VmState(String id, String hostId, VmOverride override, Boolean keepTogether, List<DiskState> disks,
                      String homeDatastoreId, double homeGb, int disksOutsideCluster) {

    public VmState {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("vm id must not be blank");
        }
        if (!(homeGb >= 0) || Double.isInfinite(homeGb)) {
            throw new IllegalArgumentException("vm " + id + ": homeGb must be >= 0, got " + homeGb);
        }
        if (disksOutsideCluster < 0) {
            throw new IllegalArgumentException("vm " + id + ": disksOutsideCluster must be >= 0, got " + disksOutsideCluster);
        }
        override = override == null ? VmOverride.DEFAULT : override;
        disks = List.copyOf(disks);
    }

    /** A VM with every disk in the cluster. */
    public VmState(String id, String hostId, VmOverride override, Boolean keepTogether, List<DiskState> disks,
                   String homeDatastoreId, double homeGb) {
        this(id, hostId, override, keepTogether, disks, homeDatastoreId, homeGb, 0);
    }

    /** A VM whose home the engine does not know: a whole-VM move is counted by its VMDKs alone. */
    public VmState(String id, String hostId, VmOverride override, Boolean keepTogether, List<DiskState> disks) {
        this(id, hostId, override, keepTogether, disks, null, 0);
    }

    public static VmState of(String id, String hostId, List<DiskState> disks) {
        return new VmState(id, hostId, VmOverride.DEFAULT, null, disks);
    }

    public VmState withOverride(VmOverride o) {
        return new VmState(id, hostId, o, keepTogether, disks, homeDatastoreId, homeGb, disksOutsideCluster);
    }

    public VmState withDisks(List<DiskState> d) {
        return new VmState(id, hostId, override, keepTogether, d, homeDatastoreId, homeGb, disksOutsideCluster);
    }

    public VmState withHome(String datastoreId, double gb) {
        return new VmState(id, hostId, override, keepTogether, disks, datastoreId, gb, disksOutsideCluster);
    }
}
