package io.opensdrs.server.stats;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Persists the datastores' live percentiles periodically so that their history survives the
 * raw-sample retention bound and can be drawn by the plugin (GET /api/v1/datastores/{name}/history).
 */
@Component
public class PercentileSnapshots {

    /** One stored snapshot of one metric over one window. */
    public record Snapshot(String metric, long windowSeconds, double p50, double p70, double p90, long samples, Instant takenAt) {
    }

    private final JdbcTemplate jdbc;
    private final WorkloadPercentiles percentiles;

    public PercentileSnapshots(JdbcTemplate jdbc, WorkloadPercentiles percentiles) {
        this.jdbc = jdbc;
        this.percentiles = percentiles;
    }

    @Scheduled(fixedDelayString = "${sdrs.stats.snapshot-interval:PT5M}", initialDelayString = "${sdrs.stats.snapshot-interval:PT5M}")
    public void snapshot() {
        Timestamp now = Timestamp.from(Instant.now());
        List<Object[]> rows = new ArrayList<>();
        for (String ds : percentiles.datastoreNames()) {
            for (Duration w : percentiles.windows()) {
                percentiles.datastore(ds, w).ifPresent(p -> p.values().forEach((metric, v) ->
                        rows.add(new Object[]{ds, w.toSeconds(), metric.name(), v[0], v[1], v[2], p.samples(), now})));
            }
        }
        if (!rows.isEmpty()) {
            jdbc.batchUpdate("INSERT INTO percentile_snapshot (datastore_name, window_seconds, metric, p50, p70, p90,"
                    + " sample_count, taken_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows);
        }
    }

    /** The datastore's newest snapshots of {@code metric}, newest first. */
    public List<Snapshot> history(String datastoreName, WorkloadMetric metric, int limit) {
        return jdbc.query("SELECT metric, window_seconds, p50, p70, p90, sample_count, taken_at FROM percentile_snapshot"
                        + " WHERE datastore_name = ? AND metric = ? ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY",
                (rs, i) -> new Snapshot(rs.getString(1), rs.getLong(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5),
                        rs.getLong(6), rs.getTimestamp(7).toInstant()), datastoreName, metric.name());
    }
}
