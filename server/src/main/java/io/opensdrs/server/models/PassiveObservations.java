package io.opensdrs.server.models;

import io.opensdrs.server.stats.WindowPercentiles;
import io.opensdrs.server.stats.WorkloadMetric;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.opensdrs.shared.agent.v1.DatastoreState;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * Passive observations of a datastore: the datastore-wide totals of one heartbeat period
 * (DatastoreState, Pesto §5.1.1: OIO and latency summed over every host's block). The heartbeat
 * file carries no IO size, read share or randomness, so those come from the datastore's live
 * per-disk percentiles (the medians of the shortest window) when there are any, else from
 * Pesto's injector workload, 4 KiB random reads (§5.1).
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
    private final WorkloadPercentiles percentiles;

    public PassiveObservations(JdbcTemplate jdbc, WorkloadPercentiles percentiles) {
        this.jdbc = jdbc;
        this.percentiles = percentiles;
    }

    /** Inside the message's transaction. */
    public void insert(DatastoreState s) {
        double size = 4;
        double read = 1;
        double random = 1;
        var p = percentiles.datastore(s.getDatastore(), percentiles.windows().get(0));
        if (p.isPresent() && p.get().samples() > 0) {
            WindowPercentiles w = p.get();
            size = Math.max(0.5, w.values().get(WorkloadMetric.IO_SIZE_KB)[0]);
            read = clamp(w.values().get(WorkloadMetric.READ_SHARE)[0]);
            random = clamp(w.values().get(WorkloadMetric.RANDOMNESS)[0]);
        }
        jdbc.update("INSERT INTO datastore_observation (datastore_name, host, period_end_ms, io_count, outstanding_ios,"
                        + " mean_latency_ms, io_size_kb, read_share, randomness, idle, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                s.getDatastore(), s.getHost(), s.getPeriodEndMs(), s.getIoCount(), s.getOutstandingIos(), s.getMeanLatencyMs(),
                size, read, random, s.getIdle(), Timestamp.from(Instant.now()));
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
