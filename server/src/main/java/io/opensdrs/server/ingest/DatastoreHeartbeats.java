package io.opensdrs.server.ingest;

import io.opensdrs.shared.agent.v1.DatastoreState;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The agents' newest views of each datastore's heartbeat file (DatastoreState, Pesto §5.1.1):
 * which host leads it, which are live, whether it is idle — what an administrator asks when a
 * datastore has no model yet (V73__datastore_heartbeat.sql).
 */
@Component
public class DatastoreHeartbeats {

    /** The newest report of any host about a datastore. */
    public record Heartbeat(String leaderHost, List<String> liveHosts, boolean idle, String reportedBy, Instant receivedAt) {
    }

    private final AgentRepository agents;

    public DatastoreHeartbeats(AgentRepository agents) {
        this.agents = agents;
    }

    /** Inside the message's transaction. */
    void record(DatastoreState s) {
        Timestamp now = Timestamp.from(Instant.now());
        String live = String.join(",", s.getLiveHostsList());
        if (live.length() > 2000) {
            live = live.substring(0, 2000);
        }
        if (!agents.updateHeartbeat(s, live, now)) {
            agents.insertHeartbeat(s, live, now);
        }
    }

    public Optional<Heartbeat> of(String datastore) {
        return agents.heartbeat(datastore);
    }
}
