package io.opensdrs.server.ingest;

import io.opensdrs.shared.agent.v1.DatastoreState;
import org.springframework.jdbc.core.JdbcTemplate;
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

    private final JdbcTemplate jdbc;

    public DatastoreHeartbeats(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Inside the message's transaction. */
    void record(DatastoreState s) {
        Timestamp now = Timestamp.from(Instant.now());
        String live = String.join(",", s.getLiveHostsList());
        if (live.length() > 2000) {
            live = live.substring(0, 2000);
        }
        int n = jdbc.update("UPDATE datastore_heartbeat SET leader_host = ?, live_hosts = ?, idle = ?, period_end_ms = ?,"
                + " received_at = ? WHERE datastore_name = ? AND host = ?", s.getLeaderHost(), live, s.getIdle(),
                s.getPeriodEndMs(), now, s.getDatastore(), s.getHost());
        if (n == 0) {
            jdbc.update("INSERT INTO datastore_heartbeat (datastore_name, host, leader_host, live_hosts, idle, period_end_ms,"
                    + " received_at) VALUES (?, ?, ?, ?, ?, ?, ?)", s.getDatastore(), s.getHost(), s.getLeaderHost(), live,
                    s.getIdle(), s.getPeriodEndMs(), now);
        }
    }

    public Optional<Heartbeat> of(String datastore) {
        return jdbc.query("SELECT leader_host, live_hosts, idle, host, received_at FROM datastore_heartbeat"
                        + " WHERE datastore_name = ? ORDER BY received_at DESC FETCH FIRST 1 ROWS ONLY",
                (rs, i) -> new Heartbeat(rs.getString(1), rs.getString(2).isEmpty() ? List.of() : List.of(rs.getString(2).split(",")),
                        rs.getBoolean(3), rs.getString(4), rs.getTimestamp(5).toInstant()), datastore).stream().findFirst();
    }
}
