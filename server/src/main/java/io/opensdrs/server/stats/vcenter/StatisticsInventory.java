package io.opensdrs.server.stats.vcenter;

import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What reading vCenter's counters needs of the stored inventory: the VMs whose disks are on a
 * datastore cluster's datastores (their counters' instances mapped to disks), the hosts that mount
 * those datastores (their {@code datastore} counters' instances mapped to datastores), and which
 * hosts have an agent seeing each datastore.
 */
@Component
public class StatisticsInventory {

    /** A VM's disk, with the instance naming it in the virtualDisk counters. */
    public record DiskRow(String vmId, String vmName, boolean poweredOn, String hostId, String hostName, int diskKey,
                          String fileName, String perfInstance, String datastoreId, String datastoreName, String clusterId) {
        public String diskId() {
            return vmId + "/" + diskKey;
        }
    }

    /** A datastore a host mounts, with the instance naming it in the host's datastore counters. */
    public record Mount(String hostId, String hostName, String datastoreId, String datastoreName, String perfInstance,
                        String clusterId) {
    }

    /** One read of the inventory. */
    public record Snapshot(Map<String, List<DiskRow>> disksByVm, Map<String, List<Mount>> mountsByHost,
                           Map<String, Set<String>> agentHostsByDatastore, Map<String, String> clusterOfDatastore) {
        public List<String> clusters() {
            return List.copyOf(new TreeSet<>(clusterOfDatastore.values()));
        }
    }

    private final VCenterStatisticsRepository store;

    public StatisticsInventory(VCenterStatisticsRepository store) {
        this.store = store;
    }

    public Snapshot read() {
        Map<String, List<DiskRow>> disks = new LinkedHashMap<>();
        for (DiskRow r : store.disksInClusters()) {
            disks.computeIfAbsent(r.vmId(), k -> new ArrayList<>()).add(r);
        }
        Map<String, List<Mount>> mounts = new LinkedHashMap<>();
        Map<String, String> clusterOf = new HashMap<>();
        for (Mount m : store.mountsInClusters()) {
            mounts.computeIfAbsent(m.hostId(), k -> new ArrayList<>()).add(m);
            clusterOf.put(m.datastoreId(), m.clusterId());
        }
        disks.values().forEach(list -> list.forEach(d -> clusterOf.put(d.datastoreId(), d.clusterId())));
        Map<String, Set<String>> agentHosts = store.agentHosts();
        return new Snapshot(disks, mounts, agentHosts, clusterOf);
    }

    /**
     * The instance naming a datastore in a host's {@code datastore.*} counters: its UUID, the last
     * element of its URL ({@code ds:///vmfs/volumes/5f3c...-.../}); null without a URL.
     */
    static String datastoreInstance(String url) {
        if (url == null) {
            return null;
        }
        String u = url;
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        int slash = u.lastIndexOf('/');
        String last = slash < 0 ? u : u.substring(slash + 1);
        return last.isEmpty() ? null : last;
    }
}
