package io.opensdrs.server.inventory;

import io.opensdrs.server.vsphere.StorageDrsRules;

import java.util.List;

/** The vCenter inventory the server needs, at one version (see {@link VCenterInventorySource}). */
public record InventorySnapshot(String version, List<DatacenterInfo> datacenters, List<StoragePodInfo> clusters,
                                List<DatastoreInfo> datastores, List<HostInfo> hosts, List<VmInfo> vms) {

    public InventorySnapshot {
        datacenters = List.copyOf(datacenters);
        clusters = List.copyOf(clusters);
        datastores = List.copyOf(datastores);
        hosts = List.copyOf(hosts);
        vms = List.copyOf(vms);
    }

    public record DatacenterInfo(String moid, String name) {
    }

    /** A datastore cluster: a StoragePod in vim25, with its Storage DRS rules. */
    public record StoragePodInfo(String moid, String name, String datacenterMoid, StorageDrsRules rules) {
        public StoragePodInfo {
            rules = rules == null ? StorageDrsRules.NONE : rules;
        }

        public StoragePodInfo(String moid, String name, String datacenterMoid) {
            this(moid, name, datacenterMoid, StorageDrsRules.NONE);
        }
    }

    /**
     * @param clusterMoid the StoragePod holding the datastore, null when it is in none
     * @param maintenanceMode vim25 DatastoreSummary.maintenanceMode: normal, enteringMaintenance, inMaintenance
     */
    public record DatastoreInfo(String moid, String name, String url, String datacenterMoid, String clusterMoid,
                                long capacityBytes, long freeBytes, boolean accessible, String maintenanceMode) {
    }

    /** A host and the datastores it mounts (HostSystem.datastore). */
    public record HostInfo(String moid, String name, String datacenterMoid, List<String> datastoreMoids) {
        public HostInfo {
            datastoreMoids = List.copyOf(datastoreMoids);
        }
    }

    /**
     * @param homeDatastoreMoid the datastore of the VM's home (its configuration file and the files
     *     beside it); null when unknown
     * @param homeBytes the size of the home's files there, VMDKs not counted (vm.layoutEx)
     * @param swapDatastoreMoid the datastore of the VM's swap file when not in the home directory (host-local
     *     swap placement); null otherwise
     * @param swapBytes that swap file's size; 0 with none
     * @param poweredOn whether it runs: only a running VM's disks have realtime performance data
     */
    public record VmInfo(String moid, String name, String hostMoid, List<VirtualDiskInfo> disks, String homeDatastoreMoid,
                         long homeBytes, String swapDatastoreMoid, long swapBytes, boolean poweredOn) {
        public VmInfo {
            disks = List.copyOf(disks);
        }

        /** A running VM. */
        public VmInfo(String moid, String name, String hostMoid, List<VirtualDiskInfo> disks, String homeDatastoreMoid,
                      long homeBytes, String swapDatastoreMoid, long swapBytes) {
            this(moid, name, hostMoid, disks, homeDatastoreMoid, homeBytes, swapDatastoreMoid, swapBytes, true);
        }

        /** A VM whose swap file, if any, is in its home. */
        public VmInfo(String moid, String name, String hostMoid, List<VirtualDiskInfo> disks, String homeDatastoreMoid,
                      long homeBytes) {
            this(moid, name, hostMoid, disks, homeDatastoreMoid, homeBytes, null, 0);
        }
    }

    /**
     * A VirtualDisk device: its key, backing file, capacity and datastore, and the instance naming it in
     * vCenter's {@code virtualDisk} performance counters ({@code scsi0:1}; null when unknown).
     */
    public record VirtualDiskInfo(int key, String fileName, long sizeBytes, String datastoreMoid, String perfInstance) {
        public VirtualDiskInfo(int key, String fileName, long sizeBytes, String datastoreMoid) {
            this(key, fileName, sizeBytes, datastoreMoid, null);
        }
    }
}
