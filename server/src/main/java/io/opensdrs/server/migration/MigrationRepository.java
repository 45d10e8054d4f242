package io.opensdrs.server.migration;

import io.opensdrs.balance.Relocation;
import io.opensdrs.server.vsphere.InventorySnapshot;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Recommendations and their actions in the database, and what of the stored inventory the migration
 * feature reads (whether a move's VM, disks and destination exist; names for the history). Every state change is a conditional UPDATE
 * on the state it leaves (compare-and-set), each in its own transaction, so that what the
 * database says is what happened even when the server dies between two steps.
 */
@Component
public class MigrationRepository {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public MigrationRepository(JdbcTemplate jdbc, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /** A PENDING recommendation with an action per relocation. */
    public long createRecommendation(String clusterId, String reasonCode, List<Relocation> actions) {
        Long id = tx.execute(t -> {
            Timestamp now = Timestamp.from(Instant.now());
            Relocation single = actions.size() == 1 ? actions.get(0) : null;
            GeneratedKeyHolder keys = new GeneratedKeyHolder();
            jdbc.update(c -> {
                PreparedStatement ps = c.prepareStatement("INSERT INTO recommendation (cluster_moid, vm_moid, disk_key, source_datastore,"
                        + " destination_datastore, reason_code, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        new String[] {"id"});
                ps.setString(1, clusterId);
                ps.setString(2, single == null ? null : single.vmId());
                ps.setObject(3, single != null && single.diskKeys().size() == 1 ? single.diskKeys().get(0) : null);
                ps.setString(4, single == null || single.sourceDatastoreIds().size() != 1 ? null : single.sourceDatastoreIds().get(0));
                ps.setString(5, single == null ? null : single.destinationDatastoreId());
                ps.setString(6, reasonCode);
                ps.setString(7, RecommendationState.PENDING.name());
                ps.setTimestamp(8, now);
                ps.setTimestamp(9, now);
                return ps;
            }, keys);
            long recId = keys.getKey().longValue();
            for (Relocation a : actions) {
                jdbc.update("INSERT INTO migration_action (recommendation_id, vm_moid, disk_keys, source_datastores,"
                                + " destination_datastore, host_moid, size_bytes, state, attempt, created_at, updated_at, home_only)"
                                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                        recId, a.vmId(), join(a.diskKeys()), join(a.sourceDatastoreIds()), a.destinationDatastoreId(), a.hostId(),
                        a.sizeBytes(), ActionState.QUEUED.name(), now, now, a.homeOnly());
            }
            return recId;
        });
        return id;
    }

    // ------------------------------------------------------------------ reads

    public Optional<Recommendation> recommendation(long id) {
        return jdbc.query("SELECT id, cluster_moid, reason_code, state, cancel_requested, fault_type, fault_message, created_at,"
                + " updated_at FROM recommendation WHERE id = ?", RECOMMENDATION, id).stream().findFirst();
    }

    public List<Recommendation> recommendationsIn(RecommendationState state) {
        return jdbc.query("SELECT id, cluster_moid, reason_code, state, cancel_requested, fault_type, fault_message, created_at,"
                + " updated_at FROM recommendation WHERE state = ? ORDER BY id", RECOMMENDATION, state.name());
    }

    /** A recommendation as the REST API lists it: its single move's fields (null for several), state and whether it moves a home. */
    public record RecommendationRow(long id, String vmId, Integer diskKey, String sourceDatastore, String destinationDatastore,
                                    String reasonCode, Double benefit, Double cost, Double confidence, String state, Instant createdAt,
                                    boolean movesHome, boolean explained) {
    }

    /** How many of the cluster's recommendations await an administrator (PENDING). */
    public long pendingOf(String clusterId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM recommendation WHERE cluster_moid = ? AND state = ?", Long.class, clusterId,
                RecommendationState.PENDING.name());
    }

    /** The cluster's newest {@code limit} recommendations, newest first. */
    public List<RecommendationRow> recommendationsOf(String clusterId, int limit) {
        return jdbc.query("SELECT r.id, r.vm_moid, r.disk_key, r.source_datastore, r.destination_datastore, r.reason_code, r.benefit, r.cost,"
                        + " r.confidence, r.state, r.created_at, EXISTS (SELECT 1 FROM migration_action a WHERE a.recommendation_id = r.id"
                        + " AND a.home_only), EXISTS (SELECT 1 FROM recommendation_explanation e WHERE e.recommendation_id = r.id)"
                        + " FROM recommendation r WHERE r.cluster_moid = ? ORDER BY r.id DESC FETCH FIRST " + limit + " ROWS ONLY",
                (rs, i) -> new RecommendationRow(rs.getLong(1), rs.getString(2), (Integer) rs.getObject(3, Integer.class),
                        rs.getString(4), rs.getString(5), rs.getString(6), (Double) rs.getObject(7, Double.class),
                        (Double) rs.getObject(8, Double.class), (Double) rs.getObject(9, Double.class), rs.getString(10),
                        rs.getTimestamp(11).toInstant(), rs.getBoolean(12), rs.getBoolean(13)), clusterId);
    }

    public List<MigrationAction> actions(long recommendationId) {
        return actionsWhere("recommendation_id = ?", recommendationId);
    }

    public Optional<MigrationAction> action(long id) {
        return actionsWhere("id = ?", id).stream().findFirst();
    }

    public List<MigrationAction> actionsIn(List<ActionState> states) {
        String in = states.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(","));
        return actionsWhere("state IN (" + in + ")");
    }

    /** How many actions are in one of the states. */
    public long countActionsIn(Collection<ActionState> states) {
        String in = states.stream().map(st -> "'" + st.name() + "'").collect(Collectors.joining(","));
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM migration_action WHERE state IN (" + in + ")", Long.class);
        return n == null ? 0 : n;
    }

    /** QUEUED actions of recommendations being applied, oldest first. */
    public List<MigrationAction> runnableQueued() {
        return actionsWhere("state = 'QUEUED' AND recommendation_id IN (SELECT id FROM recommendation"
                + " WHERE state = 'APPLYING' AND cancel_requested = FALSE)");
    }

    /** The action plan's edges: {@code actionId} starts only once each of {@code parentIds} has ended. */
    public void addParents(long actionId, Collection<Long> parentIds) {
        for (long parent : parentIds) {
            jdbc.update("INSERT INTO migration_action_parent (action_id, parent_action_id) VALUES (?, ?)", actionId, parent);
        }
    }

    /** An action that has not ended, and where its recommendation is: what a child of it waits for. */
    public record Unfinished(long actionId, ActionState state, long recommendationId, RecommendationState recommendationState) {
    }

    /** Those of {@code actionIds} that have not ended (not SUCCEEDED, FAILED or CANCELLED), by id. */
    public Map<Long, Unfinished> unfinished(Collection<Long> actionIds) {
        if (actionIds.isEmpty()) {
            return Map.of();
        }
        String in = actionIds.stream().map(String::valueOf).collect(Collectors.joining(","));
        Map<Long, Unfinished> out = new HashMap<>();
        jdbc.query("SELECT a.id, a.state, r.id, r.state FROM migration_action a JOIN recommendation r ON r.id = a.recommendation_id"
                + " WHERE a.id IN (" + in + ") AND a.state NOT IN ('SUCCEEDED', 'FAILED', 'CANCELLED')", (RowCallbackHandler) rs ->
                out.put(rs.getLong(1), new Unfinished(rs.getLong(1), ActionState.valueOf(rs.getString(2)), rs.getLong(3),
                        RecommendationState.valueOf(rs.getString(4)))));
        return out;
    }

    /** Records why a queued action waits, when it is not what was recorded already. */
    public void noteWait(MigrationAction a, String reason) {
        String cut = cut(reason);
        if (!java.util.Objects.equals(cut, a.waitReason())) {
            jdbc.update("UPDATE migration_action SET wait_reason = ? WHERE id = ? AND state = 'QUEUED'", cut, a.id());
        }
    }

    /** The actions matching {@code where}, oldest first, each with its parents. */
    private List<MigrationAction> actionsWhere(String where, Object... args) {
        List<MigrationAction> found = jdbc.query(SELECT_ACTION + " WHERE " + where + " ORDER BY id", ACTION, args);
        if (found.isEmpty()) {
            return found;
        }
        Map<Long, List<Long>> parents = new HashMap<>();
        jdbc.query("SELECT action_id, parent_action_id FROM migration_action_parent WHERE action_id IN (SELECT id FROM migration_action"
                + " WHERE " + where + ") ORDER BY parent_action_id", (RowCallbackHandler) rs -> parents.computeIfAbsent(rs.getLong(1),
                k -> new ArrayList<>()).add(rs.getLong(2)), args);
        return parents.isEmpty() ? found
                : found.stream().map(a -> parents.containsKey(a.id()) ? a.withParents(parents.get(a.id())) : a).toList();
    }

    // ------------------------------------------------------------------ recommendation transitions

    public boolean transition(long id, RecommendationState from, RecommendationState to) {
        return jdbc.update("UPDATE recommendation SET state = ?, updated_at = ? WHERE id = ? AND state = ?",
                to.name(), now(), id, from.name()) == 1;
    }

    /** PENDING → DISMISSED, its queued actions cancelled with the note; false when it was not PENDING. */
    public boolean dismiss(long id, String note) {
        return dismiss(id, null, note);
    }

    /**
     * The same, the actions' fault type set to {@code faultType} (null: none): what a
     * datastore's evacuation reads to tell a move dismissed by an administrator from one
     * withdrawn because its placement is gone ({@link Recommendations#OUTDATED}).
     */
    public boolean dismiss(long id, String faultType, String note) {
        return Boolean.TRUE.equals(tx.execute(t -> {
            if (!transition(id, RecommendationState.PENDING, RecommendationState.DISMISSED)) {
                return false;
            }
            for (MigrationAction a : actions(id)) {
                end(a.id(), ActionState.QUEUED, ActionState.CANCELLED, faultType, note);
            }
            return true;
        }));
    }

    public boolean finish(long id, RecommendationState to, String faultType, String faultMessage) {
        return jdbc.update("UPDATE recommendation SET state = ?, fault_type = ?, fault_message = ?, updated_at = ?"
                + " WHERE id = ? AND state = 'APPLYING'", to.name(), faultType, cut(faultMessage), now(), id) == 1;
    }

    public boolean requestCancel(long id) {
        return jdbc.update("UPDATE recommendation SET cancel_requested = TRUE, updated_at = ? WHERE id = ? AND state = 'APPLYING'",
                now(), id) == 1;
    }

    // ------------------------------------------------------------------ action transitions

    /** QUEUED → ISSUING, committed before the call to vCenter. */
    public boolean markIssuing(long id, Set<String> knownTaskIds) {
        return jdbc.update("UPDATE migration_action SET state = 'ISSUING', known_task_ids = ?, issuing_at = ?, attempt = attempt + 1,"
                + " wait_reason = NULL, updated_at = ? WHERE id = ? AND state = 'QUEUED'", cut(String.join(",", knownTaskIds)), now(), now(), id) == 1;
    }

    /** ISSUING → RUNNING with vCenter's task id (right after the call, or found again after a crash). */
    public boolean markRunning(long id, String taskId) {
        return jdbc.update("UPDATE migration_action SET state = 'RUNNING', task_moid = ?, started_at = ?, updated_at = ?"
                + " WHERE id = ? AND state = 'ISSUING'", taskId, now(), now(), id) == 1;
    }

    public void progress(long id, Integer progress) {
        jdbc.update("UPDATE migration_action SET progress = ?, updated_at = ? WHERE id = ? AND state = 'RUNNING'", progress, now(), id);
    }

    public boolean markVerifying(long id) {
        return jdbc.update("UPDATE migration_action SET state = 'VERIFYING', progress = 100, updated_at = ? WHERE id = ? AND state = 'RUNNING'",
                now(), id) == 1;
    }

    public boolean markCancelSent(long id, String note) {
        return jdbc.update("UPDATE migration_action SET cancel_sent = TRUE, fault_message = COALESCE(?, fault_message), updated_at = ?"
                + " WHERE id = ?", cut(note), now(), id) == 1;
    }

    /** Back to QUEUED (a transient fault, or an ISSUING found never to have reached vCenter). */
    public boolean requeue(long id, ActionState from, Instant notBefore, String faultType, String faultMessage) {
        return jdbc.update("UPDATE migration_action SET state = 'QUEUED', task_moid = NULL, next_attempt_at = ?, fault_type = ?,"
                        + " fault_message = ?, wait_reason = NULL, updated_at = ? WHERE id = ? AND state = ?",
                notBefore == null ? null : Timestamp.from(notBefore), faultType, cut(faultMessage), now(), id, from.name()) == 1;
    }

    /** To SUCCEEDED, FAILED or CANCELLED from the given state. */
    public boolean end(long id, ActionState from, ActionState to, String faultType, String faultMessage) {
        return jdbc.update("UPDATE migration_action SET state = ?, fault_type = COALESCE(?, fault_type), fault_message = COALESCE(?, fault_message),"
                        + " finished_at = ?, wait_reason = NULL, updated_at = ? WHERE id = ? AND state = ?",
                to.name(), faultType, cut(faultMessage), now(), now(), id, from.name()) == 1;
    }

    // ------------------------------------------------------------------ the stored inventory, as the migration feature reads it

    public boolean clusterExists(String clusterId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM datastore_cluster WHERE moid = ?", Long.class, clusterId) != 0;
    }

    public boolean datastoreExists(String datastoreId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM datastore WHERE moid = ?", Long.class, datastoreId) != 0;
    }

    /** The datastore cluster (StoragePod) a stored datastore belongs to; empty when it is in none. */
    public Optional<String> clusterOf(String datastoreId) {
        return jdbc.queryForList("SELECT cluster_moid FROM datastore WHERE moid = ? AND cluster_moid IS NOT NULL", String.class, datastoreId)
                .stream().findFirst();
    }

    /** Whether the host mounts the datastore ({@code HostSystem.datastore}), as the stored inventory holds it. */
    public boolean hostMounts(String hostId, String datastoreId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM host_datastore WHERE host_moid = ? AND datastore_moid = ?", Long.class,
                hostId, datastoreId) != 0;
    }

    /** A VM of the stored inventory: its host, home datastore and the bytes of its home. */
    public record StoredVm(String host, String home, long homeBytes) {
    }

    /** A virtual disk of the stored inventory: its key, datastore and size. */
    public record StoredDisk(int key, String datastore, long size) {
    }

    public Optional<StoredVm> storedVm(String vmId) {
        return jdbc.query("SELECT host_moid, home_datastore_moid, home_bytes FROM vm WHERE moid = ?",
                (rs, n) -> new StoredVm(rs.getString(1), rs.getString(2), rs.getLong(3)), vmId).stream().findFirst();
    }

    /** The VM's virtual disks by key, in key order. */
    public Map<Integer, StoredDisk> storedDisks(String vmId) {
        Map<Integer, StoredDisk> disks = new LinkedHashMap<>();
        jdbc.query("SELECT disk_key, datastore_moid, size_bytes FROM virtual_disk WHERE vm_moid = ? ORDER BY disk_key",
                (rs, n) -> disks.put(rs.getInt(1), new StoredDisk(rs.getInt(1), rs.getString(2), rs.getLong(3))), vmId);
        return disks;
    }

    /** Every datastore, and the given VMs with their disks, as the stored inventory holds them. */
    public InventorySnapshot storedPlacement(Set<String> vmIds) {
        List<InventorySnapshot.Datastore> datastores = jdbc.query("SELECT moid, name, url, capacity_bytes, free_bytes, accessible,"
                        + " maintenance_mode, cluster_moid FROM datastore",
                (rs, i) -> new InventorySnapshot.Datastore(rs.getString(1), rs.getString(2), rs.getString(3), null, rs.getLong(4),
                        rs.getLong(5), rs.getBoolean(6), rs.getString(7), rs.getString(8)));
        List<InventorySnapshot.Vm> vms = new ArrayList<>();
        for (String id : vmIds) {
            List<InventorySnapshot.VirtualDisk> disks = jdbc.query("SELECT disk_key, file_name, datastore_moid, size_bytes FROM virtual_disk"
                            + " WHERE vm_moid = ? ORDER BY disk_key",
                    (rs, i) -> new InventorySnapshot.VirtualDisk(rs.getInt(1), null, rs.getString(2), rs.getString(3), rs.getLong(4), false), id);
            jdbc.query("SELECT name, host_moid, home_datastore_moid, home_bytes FROM vm WHERE moid = ?", rs -> {
                Set<String> on = new LinkedHashSet<>();
                disks.forEach(d -> on.add(d.datastoreId()));
                String home = rs.getString(3);
                if (home != null) {
                    on.add(home);
                }
                vms.add(new InventorySnapshot.Vm(id, rs.getString(1), rs.getString(2), List.copyOf(on), disks, home, rs.getLong(4)));
            }, id);
        }
        return new InventorySnapshot("", List.of(), List.of(), datastores, List.of(), vms);
    }

    /** The name of the object {@code moid} of {@code table} ("vm", "datastore") as the inventory holds it, or last held it; its id when it never did. */
    String name(String table, String moid) {
        return jdbc.queryForList("SELECT name FROM " + table + " WHERE moid = ?", String.class, moid).stream().findFirst()
                .or(() -> jdbc.queryForList("SELECT name FROM known_name WHERE moid = ?", String.class, moid).stream().findFirst())
                .orElse(moid);
    }

    // ------------------------------------------------------------------ mapping

    private static final String SELECT_ACTION = "SELECT id, recommendation_id, vm_moid, disk_keys, source_datastores,"
            + " destination_datastore, host_moid, size_bytes, state, task_moid, known_task_ids, attempt, next_attempt_at, progress,"
            + " cancel_sent, fault_type, fault_message, created_at, issuing_at, started_at, finished_at, home_only, wait_reason"
            + " FROM migration_action";

    private static final RowMapper<MigrationAction> ACTION = (rs, i) -> new MigrationAction(rs.getLong(1), rs.getLong(2),
            relocation(rs.getString(3), split(rs.getString(4)).stream().map(Integer::valueOf).toList(), split(rs.getString(5)),
                    rs.getString(6), rs.getString(7), rs.getLong(8), rs.getBoolean(22)),
            ActionState.valueOf(rs.getString(9)), rs.getString(10),
            new LinkedHashSet<>(split(rs.getString(11))), rs.getInt(12), instant(rs.getTimestamp(13)),
            (Integer) rs.getObject(14, Integer.class), rs.getBoolean(15), rs.getString(16), rs.getString(17),
            instant(rs.getTimestamp(18)), instant(rs.getTimestamp(19)), instant(rs.getTimestamp(20)), instant(rs.getTimestamp(21)),
            rs.getString(23), List.of());

    /** A stored action's relocation: home_only, else the disks listed, else (none listed) the whole VM. */
    private static Relocation relocation(String vm, List<Integer> keys, List<String> sources, String destination, String host,
                                         long bytes, boolean homeOnly) {
        Relocation.Scope scope = homeOnly ? Relocation.Scope.HOME : keys.isEmpty() ? Relocation.Scope.WHOLE_VM : Relocation.Scope.DISKS;
        return new Relocation(vm, scope, keys, sources, destination, host, bytes);
    }

    private static final RowMapper<Recommendation> RECOMMENDATION = (rs, i) -> new Recommendation(rs.getLong(1), rs.getString(2),
            rs.getString(3), RecommendationState.valueOf(rs.getString(4)), rs.getBoolean(5), rs.getString(6), rs.getString(7),
            instant(rs.getTimestamp(8)), instant(rs.getTimestamp(9)));

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static Timestamp now() {
        return Timestamp.from(Instant.now());
    }

    private static String join(List<?> l) {
        return l.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static List<String> split(String s) {
        return s == null || s.isEmpty() ? List.of() : Arrays.asList(s.split(","));
    }

    private static String cut(String s) {
        return s == null || s.length() <= 2000 ? s : s.substring(0, 1997) + "...";
    }

}
