package io.opensdrs.server.stats;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the statistics feature stores: raw per-disk samples, one row per accepted DiskStatsBatch holding
 * the batch's protobuf bytes (see V2__raw_samples.sql for why), kept up to the retention bound; and the
 * datastores' percentiles as {@link PercentileSnapshots} takes them.
 */
@Component
public class StatisticsRepository {

    /** Batches (ids) per DELETE statement when pruning. */
    static final int DELETE_CHUNK = 200;

    private final JdbcTemplate jdbc;

    public StatisticsRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Inside the message's transaction. */
    public void insert(String agentId, long seq, DiskStatsBatch batch) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (DiskWindowStats s : batch.getSamplesList()) {
            first = Math.min(first, s.getWindowStartMs());
            last = Math.max(last, s.getWindowStartMs());
        }
        jdbc.update("INSERT INTO sample_batch (agent_id, seq, sample_count, first_window_ms, last_window_ms, received_at, payload)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)",
                agentId, seq, batch.getSamplesCount(), first, last, Timestamp.from(Instant.now()), batch.toByteArray());
    }

    /** The highest sequence number stored for the source, 0 when none. */
    public long lastSeq(String source) {
        Long n = jdbc.queryForObject("SELECT MAX(seq) FROM sample_batch WHERE agent_id = ?", Long.class, source);
        return n == null ? 0 : n;
    }

    /**
     * The disk's newest stored windows, newest first: at most {@code limit}, found in the newest
     * {@code batches} batches of the source. The batches are read newest first and the reading stops
     * once {@code limit} windows are found: a source's batches hold each disk's windows in the order of
     * their time (the ingestion stores a disk's window only when it is newer than the disk's newest,
     * {@link DiskWindowIngestion}). Each batch of vCenter's counters holds every disk's window, so decoding
     * a whole batch to find one disk's windows would cost far more than reading the newest few.
     */
    public java.util.List<DiskWindowStats> recentWindows(String source, String vm, int diskKey, int limit, int batches) {
        java.util.List<DiskWindowStats> found = jdbc.query(
                "SELECT payload FROM sample_batch WHERE agent_id = ? ORDER BY id DESC FETCH FIRST " + batches + " ROWS ONLY",
                rs -> {
                    java.util.List<DiskWindowStats> list = new java.util.ArrayList<>();
                    while (list.size() < limit && rs.next()) {
                        try {
                            for (DiskWindowStats s : DiskStatsBatch.parseFrom(rs.getBytes(1)).getSamplesList()) {
                                if (s.getVm().equals(vm) && s.getDiskKey() == diskKey) {
                                    list.add(s);
                                }
                            }
                        } catch (InvalidProtocolBufferException e) {
                            throw new IllegalStateException("sample_batch row is not a DiskStatsBatch", e);
                        }
                    }
                    return list;
                }, source);
        found.sort(java.util.Comparator.comparingLong(DiskWindowStats::getWindowStartMs).reversed());
        return found.subList(0, Math.min(limit, found.size()));
    }

    /**
     * Every retained batch of one source, in the order stored, streamed: rows are fetched a few at a
     * time (PostgreSQL's driver then keeps a cursor rather than loading the whole result), so a
     * reader of 16 hours of a large inventory holds one batch at a time. Call inside a transaction
     * (a read-only one will do): PostgreSQL only streams with auto-commit off.
     */
    public void forEachOf(String source, Consumer<DiskStatsBatch> consumer) {
        forEachOf(source, Long.MIN_VALUE, consumer);
    }

    /** The same, only batches with a window starting at or after {@code fromWindowMs}. */
    public void forEachOf(String source, long fromWindowMs, Consumer<DiskStatsBatch> consumer) {
        JdbcTemplate streaming = new JdbcTemplate(java.util.Objects.requireNonNull(jdbc.getDataSource()));
        streaming.setFetchSize(STREAM_FETCH_SIZE);
        streaming.query("SELECT payload FROM sample_batch WHERE agent_id = ? AND last_window_ms >= ? ORDER BY id", rs -> {
            try {
                consumer.accept(DiskStatsBatch.parseFrom(rs.getBytes(1)));
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("sample_batch row is not a DiskStatsBatch", e);
            }
        }, source, fromWindowMs);
    }

    /** The start of the newest window stored of the source; null when none. */
    public Long newestWindowStart(String source) {
        return jdbc.queryForObject("SELECT MAX(last_window_ms) FROM sample_batch WHERE agent_id = ?", Long.class, source);
    }

    /** Rows per fetch when streaming batches (each up to a few hundred KB). */
    static final int STREAM_FETCH_SIZE = 16;

    /** The start of the newest window stored of any source; null when none. */
    public Long newestWindowStart() {
        return jdbc.queryForObject("SELECT MAX(last_window_ms) FROM sample_batch", Long.class);
    }

    /** The retained batches with a window starting at or after {@code fromWindowMs}, of every source, in no set order. */
    public void forEachSince(long fromWindowMs, Consumer<DiskStatsBatch> consumer) {
        jdbc.query("SELECT payload FROM sample_batch WHERE last_window_ms >= ?", rs -> {
            try {
                consumer.accept(DiskStatsBatch.parseFrom(rs.getBytes(1)));
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("sample_batch row is not a DiskStatsBatch", e);
            }
        }, fromWindowMs);
    }

    /** Every retained batch, oldest first. */
    public void forEach(Consumer<DiskStatsBatch> consumer) {
        jdbc.query("SELECT payload FROM sample_batch ORDER BY id", rs -> {
            try {
                consumer.accept(DiskStatsBatch.parseFrom(rs.getBytes(1)));
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("sample_batch row is not a DiskStatsBatch", e);
            }
        });
    }

    public long retainedSamples() {
        Long n = jdbc.queryForObject("SELECT COALESCE(SUM(sample_count), 0) FROM sample_batch", Long.class);
        return n == null ? 0 : n;
    }

    /**
     * Deletes batches received before {@code cutoff}, then the oldest beyond {@code maxSamples}.
     *
     * <p>In ranges of {@link #DELETE_CHUNK} ids, each its own statement and transaction: one
     * DELETE of thousands of batches held H2's table lock for seconds, and every agent's insert
     * waited while the bound was being enforced.
     */
    public int prune(Instant cutoff, long maxSamples) {
        Timestamp before = Timestamp.from(cutoff);
        Long oldestId = jdbc.queryForObject("SELECT MIN(id) FROM sample_batch", Long.class);
        if (oldestId == null) {
            return 0;
        }
        int deleted = 0;
        Long lastExpired = jdbc.queryForObject("SELECT MAX(id) FROM sample_batch WHERE received_at < ?", Long.class, before);
        if (lastExpired != null) {
            for (long lo = oldestId; lo <= lastExpired; lo += DELETE_CHUNK) {
                deleted += jdbc.update("DELETE FROM sample_batch WHERE received_at < ? AND id >= ? AND id < ?",
                        before, lo, Math.min(lo + DELETE_CHUNK, lastExpired + 1));
            }
        }
        long retained = retainedSamples();
        if (retained > maxSamples) {
            // walk from the newest batch back until maxSamples are covered; delete everything older
            long[] keepFrom = {Long.MIN_VALUE};
            long[] sum = {0};
            jdbc.query("SELECT id, sample_count FROM sample_batch ORDER BY id DESC", rs -> {
                if (keepFrom[0] == Long.MIN_VALUE) {
                    sum[0] += rs.getInt(2);
                    if (sum[0] > maxSamples) {
                        keepFrom[0] = rs.getLong(1) + 1;
                    }
                }
            });
            for (long lo = oldestId; lo < keepFrom[0]; lo += DELETE_CHUNK) {
                deleted += jdbc.update("DELETE FROM sample_batch WHERE id >= ? AND id < ?", lo, Math.min(lo + DELETE_CHUNK, keepFrom[0]));
            }
        }
        return deleted;
    }

    /** Percentile snapshots, one row each: datastore, window seconds, metric, p50, p70, p90, samples, taken at. */
    void insertPercentileSnapshots(List<Object[]> rows) {
        jdbc.batchUpdate("INSERT INTO percentile_snapshot (datastore_name, window_seconds, metric, p50, p70, p90,"
                + " sample_count, taken_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows);
    }

    /** The datastore's newest snapshots of {@code metric}, newest first. */
    List<PercentileSnapshots.Snapshot> percentileSnapshots(String datastoreName, WorkloadMetric metric, int limit) {
        return jdbc.query("SELECT metric, window_seconds, p50, p70, p90, sample_count, taken_at FROM percentile_snapshot"
                        + " WHERE datastore_name = ? AND metric = ? ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY",
                (rs, i) -> new PercentileSnapshots.Snapshot(rs.getString(1), rs.getLong(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5),
                        rs.getLong(6), rs.getTimestamp(7).toInstant()), datastoreName, metric.name());
    }
}
