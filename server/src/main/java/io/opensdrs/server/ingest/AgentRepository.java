package io.opensdrs.server.ingest;

import io.opensdrs.shared.agent.v1.DatastoreState;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.VisibleDatastore;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The agents as the server stores them (tables {@code agent}, {@code agent_datastore} and
 * {@code datastore_heartbeat}): their credentials ({@link AgentCredentialStore} issues and checks them),
 * their host, version and the datastores they see at registration, how full their buffers are, the
 * highest sequence number applied of each ({@link SequenceLedger}), and their newest views of each
 * datastore's heartbeat file ({@link DatastoreHeartbeats}).
 */
@Component
public class AgentRepository {

    private final JdbcTemplate jdbc;

    public AgentRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The agent's registration replaces its previous one: host, version, contract and the datastores it sees. */
    void register(String agentId, RegisterRequest request, Instant at) {
        jdbc.update("UPDATE agent SET host = ?, agent_version = ?, contract_minor = ?, registered_at = ? WHERE agent_id = ?",
                request.getHost(), request.getAgentVersion(), request.getContractMinor(), Timestamp.from(at), agentId);
        jdbc.update("DELETE FROM agent_datastore WHERE agent_id = ?", agentId);
        for (VisibleDatastore d : request.getDatastoresList()) {
            jdbc.update("INSERT INTO agent_datastore (agent_id, datastore_name, url, local_path, capacity_bytes, free_bytes,"
                            + " accessible) VALUES (?, ?, ?, ?, ?, ?, ?)", agentId, d.getName(), d.getUrl(), d.getLocalPath(),
                    d.getCapacityBytes(), d.getFreeBytes(), d.getAccessible());
        }
    }

    void recordBuffer(String agentId, long buffered, long droppedOverflow) {
        jdbc.update("UPDATE agent SET buffered = ?, dropped_overflow = ? WHERE agent_id = ?", buffered, droppedOverflow, agentId);
    }

    /** The agents, not revoked, that registered from the host (by its name), by id. */
    public List<String> agentsOn(String hostName) {
        return jdbc.queryForList("SELECT agent_id FROM agent WHERE host = ? AND revoked = FALSE ORDER BY agent_id", String.class, hostName);
    }

    /** The agents, not revoked, that saw the datastore (by its name) at their registration, by id. */
    public List<String> agentsSeeing(String datastoreName) {
        return jdbc.queryForList("SELECT ad.agent_id FROM agent_datastore ad JOIN agent a ON a.agent_id = ad.agent_id"
                + " WHERE ad.datastore_name = ? AND a.revoked = FALSE ORDER BY ad.agent_id", String.class, datastoreName);
    }

    /** The datastores any agent saw at its registration. */
    public List<String> reportedDatastoreNames() {
        return jdbc.queryForList("SELECT DISTINCT datastore_name FROM agent_datastore", String.class);
    }

    // ------------------------------------------------------------------ credentials

    /** @throws org.springframework.dao.DuplicateKeyException when the agent id has a credential already */
    /** The hosts the agent's credential is bound to, in name order; empty before it is bound. */
    List<String> boundHosts(String agentId) {
        return jdbc.queryForList("SELECT host_name FROM agent_host WHERE agent_id = ? ORDER BY host_name", String.class, agentId);
    }

    void bindHosts(String agentId, java.util.Collection<String> hosts) {
        for (String h : hosts) {
            jdbc.update("INSERT INTO agent_host (agent_id, host_name) VALUES (?, ?)", agentId, h);
        }
    }

    void insertCredential(String agentId, String tokenHash, Instant issuedAt) {
        jdbc.update("INSERT INTO agent (agent_id, token_hash, revoked, issued_at) VALUES (?, ?, FALSE, ?)",
                agentId, tokenHash, Timestamp.from(issuedAt));
    }

    /** Revokes the agent's credential; false when there was none not revoked. */
    boolean revoke(String agentId, Instant at) {
        return jdbc.update("UPDATE agent SET revoked = TRUE, revoked_at = ? WHERE agent_id = ? AND revoked = FALSE",
                Timestamp.from(at), agentId) > 0;
    }

    boolean exists(String agentId) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM agent WHERE agent_id = ?", Integer.class, agentId);
        return n != null && n > 0;
    }

    /** The agent, not revoked, whose token hashes to {@code tokenHash}. */
    Optional<String> agentWithToken(String tokenHash) {
        return jdbc.queryForList("SELECT agent_id FROM agent WHERE token_hash = ? AND revoked = FALSE", String.class, tokenHash)
                .stream().findFirst();
    }

    List<AgentCredentialStore.AgentRecord> records() {
        java.util.Map<String, List<String>> hosts = new java.util.HashMap<>();
        jdbc.query("SELECT agent_id, host_name FROM agent_host ORDER BY host_name",
                (java.sql.ResultSet rs) -> { hosts.computeIfAbsent(rs.getString(1), k -> new java.util.ArrayList<>()).add(rs.getString(2)); });
        return jdbc.query(SELECT_RECORD + " ORDER BY agent_id", (rs, i) -> record(rs, hosts.getOrDefault(rs.getString(1), List.of())));
    }

    Optional<AgentCredentialStore.AgentRecord> record(String agentId) {
        List<String> hosts = boundHosts(agentId);
        return jdbc.query(SELECT_RECORD + " WHERE agent_id = ?", (rs, i) -> record(rs, hosts), agentId).stream().findFirst();
    }

    private static final String SELECT_RECORD = "SELECT agent_id, revoked, issued_at, revoked_at, host, agent_version,"
            + " registered_at, last_seq, accepted_messages, accepted_samples, buffered, dropped_overflow FROM agent";

    private static AgentCredentialStore.AgentRecord record(java.sql.ResultSet rs, List<String> boundHosts) throws java.sql.SQLException {
        return new AgentCredentialStore.AgentRecord(rs.getString(1), rs.getBoolean(2), instant(rs.getTimestamp(3)),
                instant(rs.getTimestamp(4)), boundHosts, rs.getString(5), rs.getString(6), instant(rs.getTimestamp(7)), rs.getLong(8),
                rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    // ------------------------------------------------------------------ sequence numbers

    /**
     * Raises the agent's applied sequence number to {@code seq} and counts the message, when the agent is
     * not revoked and {@code seq} is higher; false otherwise. The conditional UPDATE takes the agent row's lock.
     */
    boolean advanceSeq(String agentId, long seq, int samples) {
        return jdbc.update("UPDATE agent SET last_seq = ?, accepted_messages = accepted_messages + 1,"
                        + " accepted_samples = accepted_samples + ? WHERE agent_id = ? AND revoked = FALSE AND last_seq < ?",
                seq, samples, agentId, seq) == 1;
    }

    /** Whether the agent is revoked; empty when it is unknown. */
    Optional<Boolean> revoked(String agentId) {
        return jdbc.queryForList("SELECT revoked FROM agent WHERE agent_id = ?", Boolean.class, agentId).stream().findFirst();
    }

    /** The highest sequence number applied of the agent; empty when it is unknown. */
    Optional<Long> lastSeq(String agentId) {
        return jdbc.queryForList("SELECT last_seq FROM agent WHERE agent_id = ?", Long.class, agentId).stream().findFirst();
    }

    // ------------------------------------------------------------------ datastore heartbeats

    /** Replaces the host's report about the datastore; false when it had none. */
    boolean updateHeartbeat(DatastoreState s, String liveHosts, Timestamp at) {
        return jdbc.update("UPDATE datastore_heartbeat SET leader_host = ?, live_hosts = ?, idle = ?, period_end_ms = ?,"
                + " received_at = ? WHERE datastore_name = ? AND host = ?", s.getLeaderHost(), liveHosts, s.getIdle(),
                s.getPeriodEndMs(), at, s.getDatastore(), s.getHost()) > 0;
    }

    void insertHeartbeat(DatastoreState s, String liveHosts, Timestamp at) {
        jdbc.update("INSERT INTO datastore_heartbeat (datastore_name, host, leader_host, live_hosts, idle, period_end_ms,"
                + " received_at) VALUES (?, ?, ?, ?, ?, ?, ?)", s.getDatastore(), s.getHost(), s.getLeaderHost(), liveHosts,
                s.getIdle(), s.getPeriodEndMs(), at);
    }

    /** The newest report of any host about a datastore. */
    Optional<DatastoreHeartbeats.Heartbeat> heartbeat(String datastore) {
        return jdbc.query("SELECT leader_host, live_hosts, idle, host, received_at FROM datastore_heartbeat"
                        + " WHERE datastore_name = ? ORDER BY received_at DESC FETCH FIRST 1 ROWS ONLY",
                (rs, i) -> new DatastoreHeartbeats.Heartbeat(rs.getString(1),
                        rs.getString(2).isEmpty() ? List.of() : List.of(rs.getString(2).split(",")),
                        rs.getBoolean(3), rs.getString(4), rs.getTimestamp(5).toInstant()), datastore).stream().findFirst();
    }
}
