package io.opensdrs.server.inventory;

import java.util.List;

/**
 * An incremental update: objects created or changed (complete), and objects removed.
 *
 * @param version the version to ask for changes after next time
 * @param fullResyncRequired the source cannot give changes after the version asked for
 */
public record InventoryChanges(String version, boolean fullResyncRequired,
                               List<InventorySnapshot.DatacenterInfo> datacenters,
                               List<InventorySnapshot.StoragePodInfo> clusters,
                               List<InventorySnapshot.DatastoreInfo> datastores,
                               List<InventorySnapshot.HostInfo> hosts,
                               List<InventorySnapshot.VmInfo> vms,
                               List<Removed> removed) {

    public InventoryChanges {
        datacenters = List.copyOf(datacenters);
        clusters = List.copyOf(clusters);
        datastores = List.copyOf(datastores);
        hosts = List.copyOf(hosts);
        vms = List.copyOf(vms);
        removed = List.copyOf(removed);
    }

    public enum Kind { DATACENTER, STORAGE_POD, DATASTORE, HOST, VM }

    public record Removed(Kind kind, String moid) {
    }

    public static InventoryChanges resyncRequired(String version) {
        return new InventoryChanges(version, true, List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    }

    public boolean isEmpty() {
        return datacenters.isEmpty() && clusters.isEmpty() && datastores.isEmpty() && hosts.isEmpty() && vms.isEmpty()
                && removed.isEmpty();
    }
}
