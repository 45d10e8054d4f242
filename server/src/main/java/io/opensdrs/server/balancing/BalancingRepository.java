package io.opensdrs.server.balancing;

import io.opensdrs.balance.EvacuationCoverage;
import io.opensdrs.balance.MaintenanceState;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Component;

import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What balancing stores — its runs with each recommendation's explanation and each fault, datastores'
 * maintenance requests and their evacuations, datastores' membership of a cluster and the injector runs
 * asked for them — and what it reads of the stored inventory to assemble a cluster's state.
 */
@Component
public class BalancingRepository {

    private final JdbcTemplate jdbc;

    public BalancingRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    // ------------------------------------------------------------------ the stored inventory

    boolean clusterExists(String clusterId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM datastore_cluster WHERE moid = ?", Long.class, clusterId) > 0;
    }

    List<String> clusterIds() {
        return jdbc.queryForList("SELECT moid FROM datastore_cluster ORDER BY moid", String.class);
    }

    /** The cluster's datastores, by id. */
    List<ClusterStateAssembler.DatastoreRow> datastores(String clusterId) {
        return jdbc.query("SELECT moid, name, capacity_bytes, free_bytes, accessible, maintenance_mode FROM datastore"
                        + " WHERE cluster_moid = ? ORDER BY moid",
                (rs, i) -> new ClusterStateAssembler.DatastoreRow(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                        rs.getBoolean(5), rs.getString(6)), clusterId);
    }

    /** A datastore of the cluster a host mounts; the host's name null when the host is not in the inventory. */
    record Mount(String hostId, String datastoreId, String hostName) {
    }

    /** Every mount of the cluster's datastores, by host id and datastore id. */
    List<Mount> mounts(String clusterId) {
        return jdbc.query("SELECT hd.host_moid, hd.datastore_moid, h.name FROM host_datastore hd JOIN datastore d ON d.moid = hd.datastore_moid"
                        + " LEFT JOIN host h ON h.moid = hd.host_moid"
                        + " WHERE d.cluster_moid = ? ORDER BY hd.host_moid, hd.datastore_moid",
                (rs, i) -> new Mount(rs.getString(1), rs.getString(2), rs.getString(3)), clusterId);
    }

    /** A virtual disk on a datastore of the cluster, with its VM's host, name, home and how many disks the VM has in all. */
    record ClusterDisk(String vmId, String hostId, int diskKey, long sizeBytes, String datastoreId, String vmName,
                       String homeDatastoreId, long homeBytes, int vmDiskCount) {
    }

    /** The virtual disks on the cluster's datastores, by VM id and disk key. */
    List<ClusterDisk> disks(String clusterId) {
        return jdbc.query("SELECT v.moid, v.host_moid, vd.disk_key, vd.size_bytes, vd.datastore_moid, v.name, v.home_datastore_moid, v.home_bytes,"
                        + " (SELECT COUNT(*) FROM virtual_disk a WHERE a.vm_moid = v.moid)"
                        + " FROM virtual_disk vd"
                        + " JOIN vm v ON v.moid = vd.vm_moid JOIN datastore d ON d.moid = vd.datastore_moid"
                        + " WHERE d.cluster_moid = ? ORDER BY v.moid, vd.disk_key",
                (rs, i) -> new ClusterDisk(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), rs.getLong(8), rs.getInt(9)), clusterId);
    }

    /** A VM whose home is on a datastore: its id, name, host and the bytes of its home. */
    record Home(String vmId, String vmName, String hostId, long homeBytes) {
    }

    /** The VMs whose home is on the datastore, by id. */
    List<Home> homesOn(String datastoreId) {
        return jdbc.query("SELECT moid, name, host_moid, home_bytes FROM vm WHERE home_datastore_moid = ? ORDER BY moid",
                (rs, i) -> new Home(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4)), datastoreId);
    }

    /** The virtual disks on the datastore, by VM id and disk key. */
    List<EvacuationCoverage.Item> disksOn(String datastoreId) {
        return jdbc.query("SELECT vd.vm_moid, v.name, vd.disk_key, vd.size_bytes FROM virtual_disk vd JOIN vm v"
                        + " ON v.moid = vd.vm_moid WHERE vd.datastore_moid = ? ORDER BY vd.vm_moid, vd.disk_key",
                (rs, i) -> new EvacuationCoverage.Item(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4)), datastoreId);
    }

    /** A VM's swap file a host keeps on a datastore: the VM, the file's bytes and the host's name (null: unknown). */
    record Swap(String vmId, String vmName, long swapBytes, String hostName) {
    }

    /** The swap files hosts keep on the datastore, by VM id. */
    List<Swap> swapsOn(String datastoreId) {
        return jdbc.query("SELECT v.moid, v.name, v.swap_bytes, h.name FROM vm v LEFT JOIN host h ON h.moid = v.host_moid"
                        + " WHERE v.swap_datastore_moid = ? ORDER BY v.moid",
                (rs, i) -> new Swap(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)), datastoreId);
    }

    int homeCountOn(String datastoreId) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM vm WHERE home_datastore_moid = ?", Long.class, datastoreId);
        return n == null ? 0 : n.intValue();
    }

    int diskCountOn(String datastoreId) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM virtual_disk WHERE datastore_moid = ?", Long.class, datastoreId);
        return n == null ? 0 : n.intValue();
    }

    /** Datastore id → name, of every datastore. */
    Map<String, String> datastoreNames() {
        Map<String, String> names = new HashMap<>();
        jdbc.query("SELECT moid, name FROM datastore", rs -> {
            names.put(rs.getString(1), rs.getString(2));
        });
        return names;
    }

    /** A datastore read from the first three columns: its moid, name and cluster moid. */
    private static final RowMapper<MaintenanceMode.Target> TARGET = (rs, i) -> new MaintenanceMode.Target(rs.getString(1),
            rs.getString(2), rs.getString(3));

    /** The first datastore of the name (by id): its id, name and cluster (null: none). */
    Optional<MaintenanceMode.Target> datastoreNamed(String datastoreName) {
        return jdbc.query("SELECT moid, name, cluster_moid FROM datastore WHERE name = ? ORDER BY moid",
                TARGET, datastoreName).stream().findFirst();
    }

    /** The pod's Storage DRS rules as the last inventory sync stored them, JSON; null when none were read. */
    String storageDrsRulesJson(String clusterId) {
        return jdbc.queryForObject("SELECT storage_drs_rules_json FROM datastore_cluster WHERE moid = ?", String.class, clusterId);
    }

    /** When the read of vCenter behind the stored inventory began; empty before the first sync. */
    Optional<Instant> inventoryReadAt() {
        return jdbc.query("SELECT last_read_at FROM inventory_sync_state WHERE id = 1",
                (rs, i) -> Optional.ofNullable(rs.getTimestamp(1)).map(Timestamp::toInstant)).stream().findFirst().flatMap(o -> o);
    }

    /** A virtual disk of the cluster as a SLEDS stream: its VM's host, the VM, the disk and its datastore. */
    record StreamRow(String hostName, String vmId, String vmName, int diskKey, String datastoreId, String datastoreName) {
    }

    /** The disks on the cluster's datastores whose VM is on a known host, by VM name and disk key. */
    List<StreamRow> streams(String clusterId) {
        return jdbc.query("SELECT h.name, v.moid, v.name, vd.disk_key, d.moid, d.name FROM virtual_disk vd JOIN vm v ON v.moid = vd.vm_moid"
                        + " JOIN host h ON h.moid = v.host_moid JOIN datastore d ON d.moid = vd.datastore_moid WHERE d.cluster_moid = ?"
                        + " ORDER BY v.name, vd.disk_key",
                (rs, i) -> new StreamRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                        rs.getString(6)), clusterId);
    }

    // ------------------------------------------------------------------ datastores' maintenance mode

    /** The datastore's maintenance mode as vCenter held it at the last inventory sync; empty when the datastore is unknown. */
    Optional<String> vcenterMaintenanceMode(String datastoreId) {
        return jdbc.queryForList("SELECT maintenance_mode FROM datastore WHERE moid = ?", String.class, datastoreId).stream().findFirst();
    }

    /** Records what vCenter holds after a call it completed, ahead of the sync that will read it back. */
    void setVCenterMaintenanceMode(String datastoreId, String mode) {
        jdbc.update("UPDATE datastore SET maintenance_mode = ? WHERE moid = ?", mode, datastoreId);
    }

    /** A datastore's maintenance request. */
    record MaintenanceRequest(String state, boolean ignoreAffinity, boolean planned, Long runId) {
    }

    Optional<MaintenanceRequest> maintenanceRequest(String datastoreId) {
        return jdbc.query("SELECT state, ignore_affinity, evacuation_planned, evacuation_run_id FROM datastore_maintenance"
                        + " WHERE datastore_moid = ?", (rs, i) -> new MaintenanceRequest(rs.getString(1), rs.getBoolean(2), rs.getBoolean(3),
                        rs.getObject(4) == null ? null : rs.getLong(4)), datastoreId).stream().findFirst();
    }

    Optional<MaintenanceState> maintenanceState(String datastoreId) {
        return jdbc.queryForList("SELECT state FROM datastore_maintenance WHERE datastore_moid = ?", String.class, datastoreId)
                .stream().findFirst().map(MaintenanceState::valueOf);
    }

    /** Datastore id → the state of its maintenance request, of the cluster's datastores that have one. */
    Map<String, MaintenanceState> maintenanceStates(String clusterId) {
        Map<String, MaintenanceState> requested = new LinkedHashMap<>();
        jdbc.query("SELECT datastore_moid, state FROM datastore_maintenance WHERE cluster_moid = ?",
                rs -> {
                    requested.put(rs.getString(1), MaintenanceState.valueOf(rs.getString(2)));
                }, clusterId);
        return requested;
    }

    /** Sets "ignore affinity rules" of the datastore's request; false when it has none. */
    boolean updateIgnoreAffinity(String datastoreId, boolean ignoreAffinity, Timestamp at) {
        return jdbc.update("UPDATE datastore_maintenance SET ignore_affinity = ?, updated_at = ? WHERE datastore_moid = ?",
                ignoreAffinity, at, datastoreId) > 0;
    }

    /** A new request, ENTERING, its evacuation not planned yet. */
    void insertMaintenanceRequest(String datastoreId, String clusterId, boolean ignoreAffinity, Timestamp at) {
        jdbc.update("INSERT INTO datastore_maintenance (datastore_moid, cluster_moid, state, ignore_affinity, requested_at, updated_at,"
                + " evacuation_planned) VALUES (?, ?, ?, ?, ?, ?, FALSE)", datastoreId, clusterId, MaintenanceState.ENTERING.name(),
                ignoreAffinity, at, at);
    }

    void markEvacuationUnplanned(String datastoreId) {
        jdbc.update("UPDATE datastore_maintenance SET evacuation_planned = FALSE WHERE datastore_moid = ?", datastoreId);
    }

    void markEvacuationPlanned(String datastoreId, long runId) {
        jdbc.update("UPDATE datastore_maintenance SET evacuation_planned = TRUE, evacuation_run_id = ? WHERE datastore_moid = ?", runId,
                datastoreId);
    }

    /** Every ENTERING evacuation of the cluster is to be planned again. */
    void markEvacuationsUnplanned(String clusterId) {
        jdbc.update("UPDATE datastore_maintenance SET evacuation_planned = FALSE WHERE cluster_moid = ? AND state = ?", clusterId,
                MaintenanceState.ENTERING.name());
    }

    /** Drops the datastore's request; false when it had none. */
    boolean deleteMaintenanceRequest(String datastoreId) {
        return jdbc.update("DELETE FROM datastore_maintenance WHERE datastore_moid = ?", datastoreId) > 0;
    }

    /** ENTERING → IN_MAINTENANCE; false when it was not ENTERING. */
    boolean markInMaintenance(String datastoreId, Timestamp at) {
        return jdbc.update("UPDATE datastore_maintenance SET state = ?, updated_at = ? WHERE datastore_moid = ? AND state = ?",
                MaintenanceState.IN_MAINTENANCE.name(), at, datastoreId, MaintenanceState.ENTERING.name()) > 0;
    }

    /** The datastores of a cluster that vCenter holds in one of the modes and this server has no request for. */
    List<MaintenanceMode.Target> inVCenterModeWithoutRequest(String mode, String otherMode) {
        return jdbc.query("SELECT d.moid, d.name, d.cluster_moid FROM datastore d LEFT JOIN datastore_maintenance m"
                        + " ON m.datastore_moid = d.moid WHERE d.cluster_moid IS NOT NULL AND d.maintenance_mode IN (?, ?)"
                        + " AND m.datastore_moid IS NULL",
                TARGET, mode, otherMode);
    }

    /** The datastores with a request that vCenter holds in the mode. */
    List<MaintenanceMode.Target> requestedInVCenterMode(String mode) {
        return jdbc.query("SELECT d.moid, d.name, d.cluster_moid FROM datastore_maintenance m JOIN datastore d ON d.moid = m.datastore_moid"
                        + " WHERE d.maintenance_mode = ?",
                TARGET, mode);
    }

    /** The ENTERING requests, with their datastores. */
    List<MaintenanceMode.Entering> entering() {
        return jdbc.query("SELECT m.datastore_moid, d.name, m.cluster_moid, m.ignore_affinity, m.evacuation_planned,"
                        + " m.evacuation_run_id"
                        + " FROM datastore_maintenance m JOIN datastore d ON d.moid = m.datastore_moid WHERE m.state = ?",
                (rs, i) -> new MaintenanceMode.Entering(TARGET.mapRow(rs, i), rs.getBoolean(4), rs.getBoolean(5),
                        rs.getObject(6) == null ? null : rs.getLong(6)),
                MaintenanceState.ENTERING.name());
    }

    // ------------------------------------------------------------------ datastores joining a cluster

    /** A datastore in a cluster: its id, name and cluster. */
    record Member(String datastoreId, String datastoreName, String clusterId) {
        static final RowMapper<Member> COLUMNS = (rs, i) -> new Member(rs.getString(1), rs.getString(2), rs.getString(3));
    }

    /** The datastores of a cluster whose membership of it is not recorded yet. */
    List<Member> unrecordedMembers() {
        return jdbc.query("SELECT d.moid, d.name, d.cluster_moid FROM datastore d WHERE d.cluster_moid IS NOT NULL"
                + " AND NOT EXISTS (SELECT 1 FROM datastore_membership m WHERE m.datastore_moid = d.moid AND m.cluster_moid = d.cluster_moid)",
                Member.COLUMNS);
    }

    /** The datastore's membership, replacing one of another cluster. */
    void recordMembership(Member m, Timestamp firstSeen) {
        jdbc.update("DELETE FROM datastore_membership WHERE datastore_moid = ?", m.datastoreId());
        jdbc.update("INSERT INTO datastore_membership (datastore_moid, datastore_name, cluster_moid, first_seen_at) VALUES (?, ?, ?, ?)",
                m.datastoreId(), m.datastoreName(), m.clusterId(), firstSeen);
    }

    /** The members no injector run was asked for yet. */
    List<Member> membersWithoutInjectorRequest() {
        return jdbc.query("SELECT datastore_moid, datastore_name, cluster_moid FROM datastore_membership"
                + " WHERE injector_requested_at IS NULL", Member.COLUMNS);
    }

    /** @param to the agents asked, or why none was */
    void markInjectorRequested(String datastoreId, Timestamp at, String to) {
        jdbc.update("UPDATE datastore_membership SET injector_requested_at = ?, injector_requested_to = ? WHERE datastore_moid = ?",
                at, to, datastoreId);
    }

    // ------------------------------------------------------------------ runs, explanations, faults

    /** A run's row; its id. */
    long insertRun(String clusterId, String trigger, String strategy, int moves, int faults, String notes, Instant started,
                   Instant finished) {
        GeneratedKeyHolder key = new GeneratedKeyHolder();
        jdbc.update(c -> {
            PreparedStatement ps = c.prepareStatement("INSERT INTO balancing_run (cluster_moid, run_trigger, strategy, moves, faults, notes,"
                    + " started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", new String[] {"id"});
            ps.setString(1, clusterId);
            ps.setString(2, trigger);
            ps.setString(3, strategy);
            ps.setInt(4, moves);
            ps.setInt(5, faults);
            ps.setString(6, notes);
            ps.setTimestamp(7, Timestamp.from(started));
            ps.setTimestamp(8, Timestamp.from(finished));
            return ps;
        }, key);
        return key.getKey().longValue();
    }

    /** When the cluster's newest scheduled run started; empty when it had none. */
    Optional<Instant> lastScheduledRun(String clusterId) {
        Timestamp t = jdbc.queryForObject("SELECT MAX(started_at) FROM balancing_run WHERE cluster_moid = ? AND run_trigger = 'scheduled'",
                Timestamp.class, clusterId);
        return Optional.ofNullable(t).map(Timestamp::toInstant);
    }

    /** @param diskIds and {@code summary} cut to their columns by the caller */
    void insertExplanation(BalancingViews.ExplanationView v, String diskIds, String summary, String body) {
        jdbc.update("INSERT INTO recommendation_explanation (recommendation_id, run_id, strategy, reason_code, vm_moid, disk_ids,"
                        + " source_datastore, destination_datastore, size_gb, auto_applicable, wave, summary, explanation_json, created_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", v.recommendationId(), v.runId(), v.strategy(), v.reasonCode(),
                v.vmId(), diskIds, v.sourceDatastoreId(), v.destinationDatastoreId(),
                v.sizeGb(), v.autoApplicable(), v.wave(), summary, body, Timestamp.from(Instant.parse(v.createdAt())));
    }

    Optional<String> explanationJson(long recommendationId) {
        return jdbc.queryForList("SELECT explanation_json FROM recommendation_explanation WHERE recommendation_id = ?", String.class,
                recommendationId).stream().findFirst();
    }

    /** The recommendations explained as made by the run, by id. */
    List<Long> recommendationsOfRun(long runId) {
        return jdbc.queryForList("SELECT recommendation_id FROM recommendation_explanation WHERE run_id = ? ORDER BY"
                + " recommendation_id", Long.class, runId);
    }

    /**
     * The cluster's still-PENDING recommendations this engine made (those with an explanation).
     *
     * @param reasonCodes null: any
     * @param datastoreId null: any source
     */
    List<Long> pendingEngineRecommendations(String clusterId, List<String> reasonCodes, String datastoreId) {
        StringBuilder sql = new StringBuilder("SELECT r.id FROM recommendation r JOIN recommendation_explanation e ON e.recommendation_id = r.id"
                + " WHERE r.cluster_moid = ? AND r.state = 'PENDING'");
        List<Object> args = new ArrayList<>(List.of(clusterId));
        if (reasonCodes != null) {
            sql.append(" AND e.reason_code IN (");
            for (int i = 0; i < reasonCodes.size(); i++) {
                sql.append(i == 0 ? "?" : ", ?");
                args.add(reasonCodes.get(i));
            }
            sql.append(')');
        }
        if (datastoreId != null) {
            sql.append(" AND e.source_datastore = ?");
            args.add(datastoreId);
        }
        return jdbc.queryForList(sql.toString(), Long.class, args.toArray());
    }

    /** Values cut to their columns by the caller. */
    void insertFault(String clusterId, String subject, String reason, Timestamp at, String reasonCode, String vmId, String diskId,
                     String datastoreId, long runId) {
        jdbc.update("INSERT INTO fault (cluster_moid, subject, reason, created_at, reason_code, vm_moid, disk_id, datastore_moid, run_id)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", clusterId, subject, reason, at, reasonCode, vmId, diskId, datastoreId, runId);
    }

    /** The run's faults, by id: each its VM, disk ids and reason. */
    List<String[]> faultsOfRun(long runId) {
        return jdbc.query("SELECT vm_moid, disk_id, reason FROM fault WHERE run_id = ? ORDER BY id",
                (rs, i) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)}, runId);
    }

    /** A stored fault as the REST API lists it. */
    public record FaultRow(long id, String subject, String reason, Instant createdAt) {
    }

    /** The cluster's newest run, of any trigger: when it started and what started it; empty before the first. */
    public Optional<Map.Entry<Instant, String>> lastRun(String clusterId) {
        return jdbc.query("SELECT started_at, run_trigger FROM balancing_run WHERE cluster_moid = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                (rs, i) -> Map.entry(rs.getTimestamp(1).toInstant(), rs.getString(2)), clusterId).stream().findFirst();
    }

    /** How many faults the cluster recorded since {@code since}. */
    public long faultsSince(String clusterId, Instant since) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM fault WHERE cluster_moid = ? AND created_at >= ?", Long.class, clusterId,
                Timestamp.from(since));
    }

    /** The cluster's newest {@code limit} faults, newest first. */
    public List<FaultRow> faults(String clusterId, int limit) {
        return jdbc.query("SELECT id, subject, reason, created_at FROM fault WHERE cluster_moid = ? ORDER BY id DESC FETCH FIRST "
                        + limit + " ROWS ONLY",
                (rs, i) -> new FaultRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getTimestamp(4).toInstant()), clusterId);
    }
}
