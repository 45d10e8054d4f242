package io.opensdrs.server.stats.vcenter;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the reader of vCenter's counters stores and reads: its faults per datastore cluster
 * (V72__statistics_fault.sql, {@link StatisticsFaults}) and the part of the stored inventory it reads
 * ({@link StatisticsInventory}).
 */
@Component
public class VCenterStatisticsRepository {

    private final JdbcTemplate jdbc;

    public VCenterStatisticsRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    // ------------------------------------------------------------------ faults

    /** Counts the fault seen again, active again; false when the cluster has no such fault yet. */
    boolean seeFaultAgain(String cluster, String kind, String subject, String detail, Timestamp at) {
        return jdbc.update("UPDATE statistics_fault SET detail = ?, last_seen = ?, occurrences = occurrences + 1,"
                + " resolved_at = NULL WHERE cluster_moid = ? AND kind = ? AND subject = ?", detail, at, cluster, kind, subject) > 0;
    }

    void insertFault(String cluster, String kind, String subject, String detail, Timestamp at) {
        jdbc.update("INSERT INTO statistics_fault (cluster_moid, kind, subject, detail, first_seen, last_seen,"
                + " occurrences) VALUES (?, ?, ?, ?, ?, ?, 1)", cluster, kind, subject, detail, at, at);
    }

    /** Resolves at {@code now} the active faults of the kind last seen before {@code seenBefore}. */
    void resolveFaults(String kind, Instant seenBefore, Instant now) {
        jdbc.update("UPDATE statistics_fault SET resolved_at = ? WHERE kind = ? AND resolved_at IS NULL AND last_seen < ?",
                Timestamp.from(now), kind, Timestamp.from(seenBefore));
    }

    /** The cluster's active faults and those resolved since {@code resolvedSince}, newest first. */
    List<StatisticsFaults.Fault> faults(String cluster, Instant resolvedSince) {
        return jdbc.query("SELECT kind, subject, detail, first_seen, last_seen, occurrences, resolved_at FROM statistics_fault"
                + " WHERE cluster_moid = ? AND (resolved_at IS NULL OR resolved_at >= ?) ORDER BY last_seen DESC, id DESC",
                (rs, i) -> new StatisticsFaults.Fault(rs.getString(1), rs.getString(2), rs.getString(3), rs.getTimestamp(4).toInstant(),
                        rs.getTimestamp(5).toInstant(), rs.getLong(6),
                        rs.getTimestamp(7) == null ? null : rs.getTimestamp(7).toInstant()),
                cluster, Timestamp.from(resolvedSince));
    }

    // ------------------------------------------------------------------ the stored inventory

    /** Every virtual disk on a datastore of a datastore cluster, by VM and disk key. */
    List<StatisticsInventory.DiskRow> disksInClusters() {
        return jdbc.query("SELECT v.moid, v.name, v.powered_on, v.host_moid, h.name, vd.disk_key, vd.file_name, vd.perf_instance,"
                + " d.moid, d.name, d.cluster_moid FROM virtual_disk vd JOIN vm v ON v.moid = vd.vm_moid"
                + " JOIN datastore d ON d.moid = vd.datastore_moid LEFT JOIN host h ON h.moid = v.host_moid"
                + " WHERE d.cluster_moid IS NOT NULL ORDER BY v.moid, vd.disk_key",
                (rs, i) -> new StatisticsInventory.DiskRow(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getString(4),
                        rs.getString(5), rs.getInt(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10),
                        rs.getString(11)));
    }

    /** Every mount of a datastore of a datastore cluster, by host and datastore. */
    List<StatisticsInventory.Mount> mountsInClusters() {
        return jdbc.query("SELECT h.moid, h.name, d.moid, d.name, d.url, d.cluster_moid FROM host_datastore hd"
                + " JOIN host h ON h.moid = hd.host_moid JOIN datastore d ON d.moid = hd.datastore_moid"
                + " WHERE d.cluster_moid IS NOT NULL ORDER BY h.moid, d.moid",
                (rs, i) -> new StatisticsInventory.Mount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        StatisticsInventory.datastoreInstance(rs.getString(5)), rs.getString(6)));
    }

    /** Datastore name → the hosts of the agents, not revoked, that saw it at registration. */
    Map<String, Set<String>> agentHosts() {
        Map<String, Set<String>> agentHosts = new HashMap<>();
        jdbc.query("SELECT ad.datastore_name, a.host FROM agent_datastore ad JOIN agent a ON a.agent_id = ad.agent_id"
                + " WHERE a.revoked = FALSE AND a.host IS NOT NULL", rs -> {
            agentHosts.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
        });
        return agentHosts;
    }
}
