package io.opensdrs.server.inventory;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The stored inventory (datastore clusters, datastores, hosts, VMs and their virtual disks, and the
 * sync's own state): the writes {@link InventorySync} makes and the reads other features make of it.
 */
@Component
public class InventoryRepository {

    public record ClusterRow(String moid, String name, String datacenter) {
    }

    public record DatastoreRow(String moid, String name, String cluster, long capacity, long free, boolean accessible,
                               String maintenance) {
    }

    /** A virtual disk with its VM's name and the name of the datastore it is on (null: not in the inventory). */
    public record DiskRow(String vm, String vmName, int diskKey, String file, long sizeBytes, String datastore) {
    }

    /** A datastore a host mounts, by the host's id and name and the datastore's name. */
    public record MountRow(String hostMoid, String hostName, String datastoreName) {
    }

    /** A virtual disk with its VM, the VM's host (null: none known) and the name of the datastore it is on. */
    public record VmDiskRow(String vmMoid, String vmName, String hostName, boolean poweredOn, int key, String file, long size,
                            String datastore) {
    }

    private static final String CLUSTER = "SELECT moid, name, datacenter_moid FROM datastore_cluster";
    private static final String DATASTORE = "SELECT moid, name, cluster_moid, capacity_bytes, free_bytes, accessible, maintenance_mode"
            + " FROM datastore";

    private final JdbcTemplate jdbc;

    public InventoryRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public List<ClusterRow> clusters() {
        return jdbc.query(CLUSTER + " ORDER BY name", (rs, i) -> cluster(rs));
    }

    public Optional<ClusterRow> cluster(String moid) {
        return jdbc.query(CLUSTER + " WHERE moid = ?", (rs, i) -> cluster(rs), moid).stream().findFirst();
    }

    /** The names of the cluster's datastores, sorted. */
    public List<String> datastoreNamesOf(String clusterMoid) {
        return jdbc.queryForList("SELECT name FROM datastore WHERE cluster_moid = ? ORDER BY name", String.class, clusterMoid);
    }

    /** The names of every datastore in the inventory. */
    public List<String> datastoreNames() {
        return jdbc.queryForList("SELECT name FROM datastore", String.class);
    }

    public Optional<DatastoreRow> datastore(String name) {
        return jdbc.query(DATASTORE + " WHERE name = ?", (rs, i) -> datastore(rs), name).stream().findFirst();
    }

    /** The cluster's datastores, by name. */
    public List<DatastoreRow> datastoresIn(String clusterMoid) {
        return jdbc.query(DATASTORE + " WHERE cluster_moid = ? ORDER BY name", (rs, i) -> datastore(rs), clusterMoid);
    }

    /** Which host mounts which of the cluster's datastores, by host name and datastore name. */
    public List<MountRow> mountsIn(String clusterMoid) {
        return jdbc.query("SELECT h.moid, h.name, d.name FROM host h JOIN host_datastore hd ON hd.host_moid = h.moid"
                        + " JOIN datastore d ON d.moid = hd.datastore_moid WHERE d.cluster_moid = ? ORDER BY h.name, d.name",
                (rs, i) -> new MountRow(rs.getString(1), rs.getString(2), rs.getString(3)), clusterMoid);
    }

    /** The virtual disks on the cluster's datastores, by VM name, VM id and disk key. */
    public List<VmDiskRow> disksIn(String clusterMoid) {
        return jdbc.query("SELECT v.moid, v.name, h.name, v.powered_on, vd.disk_key, vd.file_name, vd.size_bytes, d.name"
                        + " FROM virtual_disk vd JOIN vm v ON v.moid = vd.vm_moid JOIN datastore d ON d.moid = vd.datastore_moid"
                        + " LEFT JOIN host h ON h.moid = v.host_moid WHERE d.cluster_moid = ? ORDER BY v.name, v.moid, vd.disk_key",
                (rs, i) -> new VmDiskRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4), rs.getInt(5),
                        rs.getString(6), rs.getLong(7), rs.getString(8)), clusterMoid);
    }

    /** The names of the hosts that mount the datastore, sorted. */
    public List<String> hostNamesOf(String datastoreName) {
        return jdbc.queryForList("SELECT h.name FROM host h JOIN host_datastore hd ON hd.host_moid = h.moid"
                + " JOIN datastore d ON d.moid = hd.datastore_moid WHERE d.name = ? ORDER BY h.name", String.class, datastoreName);
    }

    /** How many virtual disks are on the datastore. */
    public int diskCountOn(String datastoreName) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM virtual_disk vd JOIN datastore d ON d.moid = vd.datastore_moid"
                + " WHERE d.name = ?", Integer.class, datastoreName);
        return n == null ? 0 : n;
    }

    /** Virtual disks by VM name and disk key, at most {@code limit}; only those on {@code datastoreName} unless it is null. */
    public List<DiskRow> disks(String datastoreName, int limit) {
        String sql = "SELECT vd.vm_moid, v.name, vd.disk_key, vd.file_name, vd.size_bytes, d.name FROM virtual_disk vd"
                + " JOIN vm v ON v.moid = vd.vm_moid LEFT JOIN datastore d ON d.moid = vd.datastore_moid"
                + (datastoreName != null ? " WHERE d.name = ?" : "") + " ORDER BY v.name, vd.disk_key FETCH FIRST " + limit + " ROWS ONLY";
        Object[] args = datastoreName != null ? new Object[]{datastoreName} : new Object[0];
        return jdbc.query(sql, (rs, i) -> new DiskRow(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4),
                rs.getLong(5), rs.getString(6)), args);
    }

    /** The keys of the VM's virtual disks on datastores of the cluster. */
    public Set<Integer> diskKeysIn(String vmId, String clusterId) {
        return new HashSet<>(jdbc.queryForList("SELECT d.disk_key FROM virtual_disk d JOIN datastore s ON s.moid = d.datastore_moid"
                + " WHERE d.vm_moid = ? AND s.cluster_moid = ?", Integer.class, vmId, clusterId));
    }

    /** VM id → name, of every VM. */
    public Map<String, String> vmNames() {
        Map<String, String> names = new LinkedHashMap<>();
        jdbc.query("SELECT moid, name FROM vm", rs -> {
            names.put(rs.getString(1), rs.getString(2));
        });
        return names;
    }

    /** Disk key → file, of the VM's virtual disks. */
    public Map<Integer, String> diskFiles(String vmId) {
        Map<Integer, String> files = new LinkedHashMap<>();
        jdbc.query("SELECT disk_key, file_name FROM virtual_disk WHERE vm_moid = ?", rs -> {
            files.put(rs.getInt(1), rs.getString(2));
        }, vmId);
        return files;
    }

    // What InventorySync writes, each inside the transaction of its sync.

    /** Every inventory table emptied, children first, before a full sync writes vCenter's. */
    void clear() {
        for (String table : List.of("virtual_disk", "vm", "host_datastore", "host", "datastore", "datastore_cluster", "datacenter")) {
            jdbc.update("DELETE FROM " + table);
        }
    }

    void saveDatacenter(InventorySnapshot.DatacenterInfo d) {
        jdbc.update("DELETE FROM datacenter WHERE moid = ?", d.moid());
        jdbc.update("INSERT INTO datacenter (moid, name) VALUES (?, ?)", d.moid(), d.name());
    }

    void saveCluster(InventorySnapshot.StoragePodInfo p, String rulesJson) {
        jdbc.update("DELETE FROM datastore_cluster WHERE moid = ?", p.moid());
        jdbc.update("INSERT INTO datastore_cluster (moid, name, datacenter_moid, storage_drs_rules_json) VALUES (?, ?, ?, ?)",
                p.moid(), p.name(), p.datacenterMoid(), rulesJson);
    }

    void saveStorageDrsRules(String podId, String rulesJson) {
        jdbc.update("UPDATE datastore_cluster SET storage_drs_rules_json = ? WHERE moid = ?", rulesJson, podId);
    }

    void saveDatastore(InventorySnapshot.DatastoreInfo d) {
        jdbc.update("DELETE FROM datastore WHERE moid = ?", d.moid());
        jdbc.update("INSERT INTO datastore (moid, name, url, datacenter_moid, cluster_moid, capacity_bytes, free_bytes, accessible,"
                        + " maintenance_mode) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", d.moid(), d.name(), d.url(), d.datacenterMoid(),
                d.clusterMoid(), d.capacityBytes(), d.freeBytes(), d.accessible(), d.maintenanceMode());
        rememberName(d.moid(), d.name());
    }

    void saveHost(InventorySnapshot.HostInfo h) {
        jdbc.update("DELETE FROM host_datastore WHERE host_moid = ?", h.moid());
        jdbc.update("DELETE FROM host WHERE moid = ?", h.moid());
        jdbc.update("INSERT INTO host (moid, name, datacenter_moid) VALUES (?, ?, ?)", h.moid(), h.name(), h.datacenterMoid());
        for (String ds : new HashSet<>(h.datastoreMoids())) {
            jdbc.update("INSERT INTO host_datastore (host_moid, datastore_moid) VALUES (?, ?)", h.moid(), ds);
        }
    }

    void saveVm(InventorySnapshot.VmInfo v) {
        jdbc.update("DELETE FROM virtual_disk WHERE vm_moid = ?", v.moid());
        jdbc.update("DELETE FROM vm WHERE moid = ?", v.moid());
        jdbc.update("INSERT INTO vm (moid, name, host_moid, home_datastore_moid, home_bytes, swap_datastore_moid, swap_bytes,"
                + " powered_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", v.moid(), v.name(), v.hostMoid(), v.homeDatastoreMoid(),
                v.homeBytes(), v.swapDatastoreMoid(), v.swapBytes(), v.poweredOn());
        rememberName(v.moid(), v.name());
        for (InventorySnapshot.VirtualDiskInfo d : v.disks()) {
            jdbc.update("INSERT INTO virtual_disk (vm_moid, disk_key, file_name, size_bytes, datastore_moid, perf_instance)"
                            + " VALUES (?, ?, ?, ?, ?, ?)", v.moid(), d.key(), d.fileName(), d.sizeBytes(), d.datastoreMoid(),
                    d.perfInstance());
        }
    }

    /** Kept when the object leaves the inventory (V67__known_name.sql): what it was called is still said after. */
    private void rememberName(String moid, String name) {
        jdbc.update("DELETE FROM known_name WHERE moid = ?", moid);
        jdbc.update("INSERT INTO known_name (moid, name) VALUES (?, ?)", moid, name);
    }

    /**
     * A VM that left vCenter takes its Storage DRS override and its service class with it: vCenter drops a destroyed
     * VM's entry in the pod's vmConfig, and a VM id is never used again, so the rows would only be listed, stale,
     * among the cluster's VM overrides.
     */
    void forgetSettingsOfRemovedVms() {
        jdbc.update("DELETE FROM vm_override WHERE vm_moid NOT IN (SELECT moid FROM vm)");
        jdbc.update("DELETE FROM vm_service_class WHERE vm_moid NOT IN (SELECT moid FROM vm)");
    }

    void remove(InventoryChanges.Removed r) {
        switch (r.kind()) {
            case DATACENTER:
                jdbc.update("DELETE FROM datacenter WHERE moid = ?", r.moid());
                break;
            case STORAGE_POD:
                jdbc.update("UPDATE datastore SET cluster_moid = NULL WHERE cluster_moid = ?", r.moid());
                jdbc.update("DELETE FROM datastore_cluster WHERE moid = ?", r.moid());
                break;
            case DATASTORE:
                jdbc.update("DELETE FROM host_datastore WHERE datastore_moid = ?", r.moid());
                jdbc.update("DELETE FROM datastore WHERE moid = ?", r.moid());
                break;
            case HOST:
                jdbc.update("DELETE FROM host_datastore WHERE host_moid = ?", r.moid());
                jdbc.update("DELETE FROM host WHERE moid = ?", r.moid());
                break;
            default:
                jdbc.update("DELETE FROM virtual_disk WHERE vm_moid = ?", r.moid());
                jdbc.update("DELETE FROM vm WHERE moid = ?", r.moid());
        }
    }

    /** The version the stored inventory is at and when it was last read in full. */
    record SyncState(String version, Instant lastFull) {
    }

    Optional<SyncState> syncState() {
        return jdbc.query("SELECT version, last_full_sync_at FROM inventory_sync_state WHERE id = 1",
                (rs, i) -> new SyncState(rs.getString(1), rs.getTimestamp(2) == null ? null : rs.getTimestamp(2).toInstant()))
                .stream().filter(s -> s.version != null).findFirst();
    }

    /** @param readAt when the read of vCenter behind this state began (balancing/EvacuationProgress) */
    void saveSyncState(String version, boolean full, Instant readAt) {
        Timestamp now = Timestamp.from(Instant.now());
        Timestamp lastFull = full ? now : syncState().map(s -> Timestamp.from(s.lastFull)).orElse(now);
        jdbc.update("DELETE FROM inventory_sync_state WHERE id = 1");
        jdbc.update("INSERT INTO inventory_sync_state (id, version, last_full_sync_at, last_change_at, last_read_at) VALUES (1, ?, ?, ?, ?)",
                version, lastFull, now, Timestamp.from(readAt));
    }

    private static ClusterRow cluster(ResultSet rs) throws SQLException {
        return new ClusterRow(rs.getString(1), rs.getString(2), rs.getString(3));
    }

    private static DatastoreRow datastore(ResultSet rs) throws SQLException {
        return new DatastoreRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getBoolean(6),
                rs.getString(7));
    }
}
