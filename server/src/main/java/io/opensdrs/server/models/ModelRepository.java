package io.opensdrs.server.models;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * Passive observations of a datastore: its datastore-wide totals over one statistics sample (Pesto
 * §5.1.1's OIO and latency summed over the hosts), read from vCenter's per-disk counters, with the
 * IO-weighted size, read share and randomness of its disks. They score each model kind on data it
 * was not fitted to and refit it passively.
 */
@Component
public class PassiveObservations {

    /** A stored observation. */
    public record Stored(long id, String datastore, long periodEndMs, long ioCount, double outstandingIos,
                         double latencyMs, double ioSizeKb, double readShare, double randomness, boolean idle,
                         Instant receivedAt) {
        public FitPoint toFitPoint() {
            return new FitPoint(outstandingIos, ioSizeKb, readShare, randomness, latencyMs, null);
        }
    }

    private final JdbcTemplate jdbc;

    public PassiveObservations(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A datastore's totals over one statistics sample, read from vCenter's per-disk counters: the
     * outstanding IOs and IO-weighted latency, size, read share and randomness of its disks (inside
     * the caller's transaction).
     */
    public void insert(String datastore, String source, long periodEndMs, long ioCount, double outstandingIos,
                       double latencyMs, double ioSizeKb, double readShare, double randomness) {
        jdbc.update("INSERT INTO datastore_observation (datastore_name, host, period_end_ms, io_count, outstanding_ios,"
                        + " mean_latency_ms, io_size_kb, read_share, randomness, idle, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                datastore, source, periodEndMs, ioCount, outstandingIos, latencyMs, ioSizeKb, clamp(readShare), clamp(randomness),
                false, Timestamp.from(Instant.now()));
    }

    /** The newest {@code limit} observations of a datastore, oldest first. */
    public List<Stored> recent(String datastore, int limit) {
        List<Stored> rows = jdbc.query("SELECT id, datastore_name, period_end_ms, io_count, outstanding_ios, mean_latency_ms,"
                + " io_size_kb, read_share, randomness, idle, received_at FROM datastore_observation WHERE datastore_name = ?"
                + " ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY", (rs, i) -> new Stored(rs.getLong(1), rs.getString(2),
                rs.getLong(3), rs.getLong(4), rs.getDouble(5), rs.getDouble(6), rs.getDouble(7), rs.getDouble(8),
                rs.getDouble(9), rs.getBoolean(10), rs.getTimestamp(11).toInstant()), datastore);
        java.util.Collections.reverse(rows);
        return rows;
    }

    public List<String> datastores() {
        return jdbc.queryForList("SELECT DISTINCT datastore_name FROM datastore_observation ORDER BY datastore_name", String.class);
    }

    private static double clamp(double v) {
        return Double.isFinite(v) ? Math.max(0, Math.min(1, v)) : 1;
    }
}
