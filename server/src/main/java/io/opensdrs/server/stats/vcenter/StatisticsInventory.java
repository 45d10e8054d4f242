package io.opensdrs.server.stats.vcenter;

import org.springframework.jdbc.core.JdbcTemplate;
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

    private final JdbcTemplate jdbc;

    public StatisticsInventory(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Snapshot read() {
        Map<String, List<DiskRow>> disks = new LinkedHashMap<>();
        jdbc.query("SELECT v.moid, v.name, v.powered_on, v.host_moid, h.name, vd.disk_key, vd.file_name, vd.perf_instance,"
                + " d.moid, d.name, d.cluster_moid FROM virtual_disk vd JOIN vm v ON v.moid = vd.vm_moid"
                + " JOIN datastore d ON d.moid = vd.datastore_moid LEFT JOIN host h ON h.moid = v.host_moid"
                + " WHERE d.cluster_moid IS NOT NULL ORDER BY v.moid, vd.disk_key", rs -> {
            DiskRow r = new DiskRow(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getString(4), rs.getString(5),
                    rs.getInt(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11));
            disks.computeIfAbsent(r.vmId(), k -> new ArrayList<>()).add(r);
        });
        Map<String, List<Mount>> mounts = new LinkedHashMap<>();
        Map<String, String> clusterOf = new HashMap<>();
        jdbc.query("SELECT h.moid, h.name, d.moid, d.name, d.url, d.cluster_moid FROM host_datastore hd"
                + " JOIN host h ON h.moid = hd.host_moid JOIN datastore d ON d.moid = hd.datastore_moid"
                + " WHERE d.cluster_moid IS NOT NULL ORDER BY h.moid, d.moid", rs -> {
            Mount m = new Mount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                    datastoreInstance(rs.getString(5)), rs.getString(6));
            mounts.computeIfAbsent(m.hostId(), k -> new ArrayList<>()).add(m);
            clusterOf.put(m.datastoreId(), m.clusterId());
        });
        disks.values().forEach(list -> list.forEach(d -> clusterOf.put(d.datastoreId(), d.clusterId())));
        Map<String, Set<String>> agentHosts = new HashMap<>();
        jdbc.query("SELECT ad.datastore_name, a.host FROM agent_datastore ad JOIN agent a ON a.agent_id = ad.agent_id"
                + " WHERE a.revoked = FALSE AND a.host IS NOT NULL", rs -> {
            agentHosts.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
        });
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
