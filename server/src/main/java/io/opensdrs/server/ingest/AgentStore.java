package io.opensdrs.server.ingest;

import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.VisibleDatastore;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * What agents tell the server about themselves (tables {@code agent} and {@code agent_datastore}):
 * their host, version and the datastores they see at registration, and how full their buffers are.
 * Credentials are {@link AgentCredentialStore}'s, sequence numbers {@link SequenceLedger}'s.
 */
@Component
public class AgentStore {

    private final JdbcTemplate jdbc;

    public AgentStore(JdbcTemplate jdbc) {
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

    /** The agents, not revoked, that registered from the host (by its name). */
    List<String> agentsOn(String hostName) {
        return jdbc.queryForList("SELECT agent_id FROM agent WHERE host = ? AND revoked = FALSE", String.class, hostName);
    }

    /** The datastores any agent saw at its registration. */
    public List<String> reportedDatastoreNames() {
        return jdbc.queryForList("SELECT DISTINCT datastore_name FROM agent_datastore", String.class);
    }
}
