package io.opensdrs.server.vsphere;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The part of vCenter's inventory Storage DRS works on: datacenters, datastore clusters
 * (StoragePods) and their datastores, hosts and the datastores each mounts, VMs and their
 * virtual disks, with capacity and free space. {@code version} is the PropertyCollector
 * version it was read at (empty for a full read).
 */
public record InventorySnapshot(String version, List<Datacenter> datacenters, List<StoragePod> storagePods,
                                List<Datastore> datastores, List<Host> hosts, List<Vm> vms) {

    public InventorySnapshot {
        datacenters = List.copyOf(datacenters);
        storagePods = List.copyOf(storagePods);
        datastores = List.copyOf(datastores);
        hosts = List.copyOf(hosts);
        vms = List.copyOf(vms);
    }

    public Optional<Datastore> datastore(String id) {
        return datastores.stream().filter(d -> d.id().equals(id)).findFirst();
    }

    /** The datastore's name as the vSphere Client shows it, for messages; its id when it is not in this snapshot. */
    public String datastoreName(String id) {
        return datastore(id).map(Datastore::name).orElse(id);
    }

    public Optional<Datastore> datastoreNamed(String name) {
        return datastores.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    public Optional<Vm> vm(String id) {
        return vms.stream().filter(v -> v.id().equals(id)).findFirst();
    }

    public Optional<Vm> vmNamed(String name) {
        return vms.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    public Optional<Host> host(String id) {
        return hosts.stream().filter(h -> h.id().equals(id)).findFirst();
    }

    public record Datacenter(String id, String name, List<String> datastoreIds) {
        public Datacenter {
            datastoreIds = List.copyOf(datastoreIds);
        }
    }

    /** A datastore cluster; its datastores are the StoragePod's children. */
    public record StoragePod(String id, String name, List<String> datastoreIds, long capacityBytes, long freeBytes,
                             StorageDrsRules rules) {
        public StoragePod {
            datastoreIds = List.copyOf(datastoreIds);
            rules = rules == null ? StorageDrsRules.NONE : rules;
        }

        public StoragePod(String id, String name, List<String> datastoreIds, long capacityBytes, long freeBytes) {
            this(id, name, datastoreIds, capacityBytes, freeBytes, StorageDrsRules.NONE);
        }
    }

    /**
     * @param storagePodId the datastore cluster it belongs to, or null
     * @param maintenanceMode {@code normal}, {@code enteringMaintenance} or {@code inMaintenance}
     */
    public record Datastore(String id, String name, String url, String type, long capacityBytes, long freeBytes,
                            boolean accessible, String maintenanceMode, String storagePodId) {
    }

    public record Host(String id, String name, List<String> datastoreIds) {
        public Host {
            datastoreIds = List.copyOf(datastoreIds);
        }

        public boolean sees(String datastoreId) {
            return datastoreIds.contains(datastoreId);
        }
    }

    /**
     * @param datastoreIds the datastores holding any of the VM's files (vm.datastore): besides its home's
     *     and its disks', a swap file kept on the host's swap datastore, an ISO image the CD drive reads
     * @param homeDatastoreId the datastore of the VM's home — its configuration file and the files
     *     kept beside it ({@code summary.config.vmPathName}, {@code [datastore] vm/vm.vmx}); null when unknown
     * @param homeBytes the size of the home's files on that datastore, VMDKs not counted (vm.layoutEx): what a
     *     move of the home alone copies and lands on its destination
     * @param swapDatastoreId the datastore of the VM's swap file when it is not in the home directory — the
     *     host's swap datastore, with host-local swap placement — which no relocation moves; null otherwise
     * @param swapBytes that swap file's size; 0 with none
     * @param poweredOn whether it runs ({@code runtime.powerState} poweredOn): only a running VM's disks have IO
     *     and realtime performance data
     */
    public record Vm(String id, String name, String hostId, List<String> datastoreIds, List<VirtualDisk> disks,
                     String homeDatastoreId, long homeBytes, String swapDatastoreId, long swapBytes, boolean poweredOn) {
        public Vm {
            datastoreIds = List.copyOf(datastoreIds);
            disks = List.copyOf(disks);
        }

        /** A running VM. */
        public Vm(String id, String name, String hostId, List<String> datastoreIds, List<VirtualDisk> disks,
                  String homeDatastoreId, long homeBytes, String swapDatastoreId, long swapBytes) {
            this(id, name, hostId, datastoreIds, disks, homeDatastoreId, homeBytes, swapDatastoreId, swapBytes, true);
        }

        /** A VM whose swap file, if any, is in its home. */
        public Vm(String id, String name, String hostId, List<String> datastoreIds, List<VirtualDisk> disks,
                  String homeDatastoreId, long homeBytes) {
            this(id, name, hostId, datastoreIds, disks, homeDatastoreId, homeBytes, null, 0);
        }

        public Optional<VirtualDisk> disk(int key) {
            return disks.stream().filter(d -> d.key() == key).findFirst();
        }

        /**
         * Whether the whole VM is on the datastore: vm.datastore names it alone (every file of the VM is
         * there), or the VM's home and every disk are there — vm.datastore may also name datastores a
         * relocation leaves alone (the host's swap datastore, an ISO's).
         */
        public boolean wholeOn(String datastoreId) {
            return datastoreIds.equals(List.of(datastoreId)) || homeAndDiskDatastoreIds().equals(List.of(datastoreId));
        }

        /** The datastores of the VM's home and of its disks, without repeats: what a relocation of the whole VM moves. */
        public List<String> homeAndDiskDatastoreIds() {
            LinkedHashSet<String> ids = new LinkedHashSet<>();
            if (homeDatastoreId != null) {
                ids.add(homeDatastoreId);
            }
            disks.forEach(d -> ids.add(d.datastoreId()));
            return List.copyOf(ids);
        }
    }

    /**
     * @param fileName backing file, {@code [datastore] vm/vm.vmdk}
     * @param perfInstance the instance that names this disk in vCenter's {@code virtualDisk} performance
     *     counters: its controller's kind and bus, and its unit ({@code scsi0:1}); null when unknown
     */
    public record VirtualDisk(int key, String label, String fileName, String datastoreId, long capacityBytes,
                              boolean thinProvisioned, String perfInstance) {
        public VirtualDisk(int key, String label, String fileName, String datastoreId, long capacityBytes,
                           boolean thinProvisioned) {
            this(key, label, fileName, datastoreId, capacityBytes, thinProvisioned, null);
        }
    }
}
