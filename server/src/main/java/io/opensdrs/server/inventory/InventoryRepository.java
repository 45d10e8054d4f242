package io.opensdrs.server.inventory;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads of the stored inventory (the tables {@link InventorySync} keeps: datastore clusters,
 * datastores, hosts, VMs and their virtual disks) for the REST API.
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

    private static ClusterRow cluster(ResultSet rs) throws SQLException {
        return new ClusterRow(rs.getString(1), rs.getString(2), rs.getString(3));
    }

    private static DatastoreRow datastore(ResultSet rs) throws SQLException {
        return new DatastoreRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getBoolean(6),
                rs.getString(7));
    }
}
