package io.opensdrs.server.history;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A datastore cluster's Storage DRS history (table {@code action_history}, the plugin's History
 * page), what the vSphere Client's Storage DRS History view lists: each run, each recommendation
 * made, who applied it or that it was applied automatically, how it ended (done, failed with the
 * fault, cancelled), what was dismissed and why, maintenance mode and datastores joining.
 */
@Component
public class ActionHistoryRepository {

    /** One entry; {@code recommendationId} null when it concerns no recommendation. */
    public record Entry(long id, String action, String detail, Long recommendationId, Instant occurredAt) {
    }

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public ActionHistoryRepository(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public void record(String clusterId, String action, String detail, Long recommendationId) {
        jdbc.update("INSERT INTO action_history (cluster_moid, action, detail, recommendation_id, occurred_at) VALUES (?, ?, ?, ?, ?)",
                clusterId, action, truncate(detail, 2000), recommendationId, Timestamp.from(clock.instant()));
    }

    /** The cluster's newest entries, newest first. */
    public List<Entry> recent(String clusterId, int limit) {
        return jdbc.query("SELECT id, action, detail, recommendation_id, occurred_at FROM action_history WHERE cluster_moid = ?"
                        + " ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY",
                (rs, i) -> new Entry(rs.getLong(1), rs.getString(2), rs.getString(3), (Long) rs.getObject(4, Long.class),
                        rs.getTimestamp(5).toInstant()), clusterId);
    }

    /** The text cut to the column's width, its end marked. */
    public static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
