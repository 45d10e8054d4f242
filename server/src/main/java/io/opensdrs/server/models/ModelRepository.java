package io.opensdrs.server.models;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.shared.agent.v1.InjectorResult;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the models of datastores are made from and what they are: injector runs, passive observations,
 * each fit as a history row (nothing is overwritten), and each model's held-out error. The fitting
 * and the choice between kinds are {@link DatastoreModels}'.
 */
@Component
public class ModelRepository {

    /**
     * A stored passive observation of a datastore: its datastore-wide totals over one statistics sample
     * (Pesto §5.1.1's OIO and latency summed over the hosts), read from vCenter's per-disk counters, with
     * the IO-weighted size, read share and randomness of its disks. They score each model kind on data it
     * was not fitted to and refit it passively.
     */
    public record PassiveObservation(long id, String datastore, long periodEndMs, long ioCount, double outstandingIos,
                                     double latencyMs, double ioSizeKb, double readShare, double randomness, boolean idle,
                                     Instant receivedAt) {
        public FitPoint toFitPoint() {
            return new FitPoint(outstandingIos, ioSizeKb, readShare, randomness, latencyMs, null);
        }
    }

    private static final TypeReference<Map<String, Double>> PARAMS = new TypeReference<>() { };
    private static final TypeReference<List<FitPoint>> POINTS = new TypeReference<>() { };

    private final JdbcTemplate jdbc;
    private final ObjectMapper json;

    public ModelRepository(JdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    // ------------------------------------------------------------------ passive observations

    /**
     * A datastore's totals over one statistics sample, read from vCenter's per-disk counters: the
     * outstanding IOs and IO-weighted latency, size, read share and randomness of its disks (inside
     * the caller's transaction).
     */
    public void insertObservation(String datastore, String source, long periodEndMs, long ioCount, double outstandingIos,
                                  double latencyMs, double ioSizeKb, double readShare, double randomness) {
        jdbc.update("INSERT INTO datastore_observation (datastore_name, host, period_end_ms, io_count, outstanding_ios,"
                        + " mean_latency_ms, io_size_kb, read_share, randomness, idle, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                datastore, source, periodEndMs, ioCount, outstandingIos, latencyMs, ioSizeKb, clamp(readShare), clamp(randomness),
                false, Timestamp.from(Instant.now()));
    }

    /** The newest {@code limit} observations of a datastore, oldest first. */
    public List<PassiveObservation> recentObservations(String datastore, int limit) {
        List<PassiveObservation> rows = jdbc.query("SELECT id, datastore_name, period_end_ms, io_count, outstanding_ios, mean_latency_ms,"
                + " io_size_kb, read_share, randomness, idle, received_at FROM datastore_observation WHERE datastore_name = ?"
                + " ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY", (rs, i) -> new PassiveObservation(rs.getLong(1), rs.getString(2),
                rs.getLong(3), rs.getLong(4), rs.getDouble(5), rs.getDouble(6), rs.getDouble(7), rs.getDouble(8),
                rs.getDouble(9), rs.getBoolean(10), rs.getTimestamp(11).toInstant()), datastore);
        java.util.Collections.reverse(rows);
        return rows;
    }

    /** The datastores with a passive observation. */
    public List<String> observedDatastores() {
        return jdbc.queryForList("SELECT DISTINCT datastore_name FROM datastore_observation ORDER BY datastore_name", String.class);
    }

    // ------------------------------------------------------------------ injector runs

    /** An injector run as an agent reported it, with the points it was fitted from (inside the message's transaction). */
    /** An injector run; {@code designOio} is the calibration design point's O for one of the agent's Romano calibration points, else null. */
    void insertInjectorRun(String agentId, long seq, InjectorResult r, List<FitPoint> points, Integer designOio) {
        jdbc.update("INSERT INTO injector_run (agent_id, seq, datastore_name, run_id, mode, started_ms, finished_ms, io_size_kb,"
                        + " read_share, randomness, valid, invalid_reason, invalid_detail, slope_ms_per_io, intercept_ms, r_squared,"
                        + " points_json, received_at, design_oio) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                agentId, seq, r.getDatastore(), r.getRunId(), r.getMode().name(), r.getStartedMs(), r.getFinishedMs(),
                r.getIoSizeKb(), r.getReadShare(), r.getRandomness(), r.getValid(),
                r.getValid() ? null : r.getInvalidReason().name(), truncate(r.getInvalidDetail(), 1024),
                r.hasFit() ? r.getFit().getSlopeMsPerIo() : null, r.hasFit() ? r.getFit().getInterceptMs() : null,
                r.hasFit() ? r.getFit().getRSquared() : null, write(points), Timestamp.from(Instant.now()), designOio);
    }

    /**
     * The points of the newest valid random-read injector run of each IO size on a datastore (of its newest 50), pooled;
     * the agent's calibration points are not among them.
     */
    public List<FitPoint> newestInjectorPointsPerSize(String datastore) {
        List<FitPoint> points = new ArrayList<>();
        Set<Long> sizes = new HashSet<>();
        jdbc.query("SELECT io_size_kb, points_json FROM injector_run WHERE datastore_name = ? AND valid = TRUE"
                + " AND design_oio IS NULL AND read_share >= 0.999 AND randomness >= 0.999 ORDER BY id DESC FETCH FIRST 50 ROWS ONLY", rs -> {
            if (sizes.add(rs.getLong(1))) {
                points.addAll(read(rs.getString(2), POINTS));
            }
        }, datastore);
        return points;
    }

    /**
     * The agent's Romano calibration of a datastore: the newest valid measurement of each point of
     * its design among its newest {@code rows} (a point measured again replaces the earlier one).
     */
    List<FitPoint> calibrationPoints(String datastore, int rows) {
        List<FitPoint> points = new ArrayList<>();
        Set<List<Object>> seen = new HashSet<>();
        jdbc.query("SELECT io_size_kb, read_share, randomness, design_oio, points_json FROM injector_run WHERE datastore_name = ?"
                + " AND valid = TRUE AND design_oio IS NOT NULL ORDER BY id DESC FETCH FIRST " + rows + " ROWS ONLY", rs -> {
            if (seen.add(List.of(rs.getInt(1), rs.getDouble(2), rs.getDouble(3), rs.getInt(4)))) {
                points.addAll(read(rs.getString(5), POINTS));
            }
        }, datastore);
        return points;
    }

    // ------------------------------------------------------------------ fitted models

    /** A fit, valid or not, as a new history row; its id. */
    Long insertModel(String ds, String kind, String source, boolean valid, Double r2, int n, Map<String, Double> params,
                     List<FitPoint> points, String reason, Instant at) {
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        jdbc.update(c -> {
            var ps = c.prepareStatement("INSERT INTO datastore_model (datastore_name, model_kind, source, valid, r_squared, points,"
                    + " parameters_json, fit_points_json, invalid_reason, fitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", new String[]{"id"});
            ps.setString(1, ds);
            ps.setString(2, kind);
            ps.setString(3, source);
            ps.setBoolean(4, valid);
            ps.setObject(5, r2);
            ps.setInt(6, n);
            ps.setString(7, write(finiteOnly(params)));
            ps.setString(8, write(points));
            ps.setString(9, reason);
            ps.setTimestamp(10, Timestamp.from(at));
            return ps;
        }, keys);
        return keys.getKey().longValue();
    }

    /** The datastores any model was ever fitted for. */
    public List<String> modelDatastoreNames() {
        return jdbc.queryForList("SELECT DISTINCT datastore_name FROM datastore_model", String.class);
    }

    public List<ModelRecord> history(String datastore, int limit) {
        return jdbc.query(SELECT + " WHERE datastore_name = ? ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY", mapper(), datastore);
    }

    public Optional<ModelRecord> latestValid(String datastore, String kind) {
        return jdbc.query(SELECT + " WHERE datastore_name = ? AND model_kind = ? AND valid = TRUE ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                mapper(), datastore, kind).stream().findFirst();
    }

    /** The datastores other than {@code datastore} with a valid fit of {@code kind}. */
    List<String> otherDatastoresWithValid(String kind, String datastore) {
        return jdbc.queryForList("SELECT DISTINCT datastore_name FROM datastore_model WHERE model_kind = ? AND valid = TRUE"
                + " AND datastore_name <> ?", String.class, kind, datastore);
    }

    /** When a datastore's newest valid fit of a kind was made. */
    public record NewestFit(String datastore, String kind, Instant fittedAt) {
    }

    /** Per datastore and kind, its newest valid fit. */
    public List<NewestFit> newestValidFits() {
        return jdbc.query("SELECT datastore_name, model_kind, MAX(fitted_at) FROM datastore_model"
                + " WHERE valid = TRUE GROUP BY datastore_name, model_kind",
                (rs, i) -> new NewestFit(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant()));
    }

    /** The oldest of the newest valid fits per datastore and kind; at least one valid fit must exist. */
    public Instant oldestNewestValidFit() {
        return jdbc.query("SELECT MIN(m) FROM (SELECT MAX(fitted_at) AS m FROM datastore_model"
                + " WHERE valid = TRUE GROUP BY datastore_name, model_kind) t", rs -> {
            rs.next();
            return rs.getTimestamp(1).toInstant();
        });
    }

    // ------------------------------------------------------------------ held-out accuracy

    /** The absolute errors of the newest {@code limit} held-out observations scored for the datastore and kind. */
    List<Double> heldOutErrors(String datastore, String kind, int limit) {
        return jdbc.queryForList("SELECT abs_error_ms FROM model_accuracy WHERE datastore_name = ? AND model_kind = ?"
                + " ORDER BY id DESC FETCH FIRST " + limit + " ROWS ONLY", Double.class, datastore, kind);
    }

    /** A model's error on an observation it never saw; once per kind and observation. */
    void insertAccuracy(String datastore, String kind, long modelId, long observationId, double predicted, double measured) {
        jdbc.update("INSERT INTO model_accuracy (datastore_name, model_kind, model_id, observation_id, predicted_ms,"
                        + " measured_ms, abs_error_ms, scored_at) SELECT ?, ?, ?, ?, ?, ?, ?, ? FROM (VALUES (1)) AS one (x)"
                        + " WHERE NOT EXISTS (SELECT 1 FROM model_accuracy WHERE model_kind = ? AND observation_id = ?)",
                datastore, kind, modelId, observationId, predicted, measured, Math.abs(predicted - measured),
                Timestamp.from(Instant.now()), kind, observationId);
    }

    // ------------------------------------------------------------------ rows

    private static final String SELECT = "SELECT id, datastore_name, model_kind, source, valid, r_squared, points, parameters_json,"
            + " fit_points_json, invalid_reason, fitted_at FROM datastore_model";

    private RowMapper<ModelRecord> mapper() {
        return (rs, i) -> new ModelRecord(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getBoolean(5),
                (Double) rs.getObject(6, Double.class), rs.getInt(7), read(rs.getString(8), PARAMS), read(rs.getString(9), POINTS),
                rs.getString(10), rs.getTimestamp(11).toInstant());
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private <T> T read(String s, TypeReference<T> type) {
        try {
            return json.readValue(s, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable model history row", e);
        }
    }

    private static Map<String, Double> finiteOnly(Map<String, Double> params) {
        Map<String, Double> m = new LinkedHashMap<>();
        params.forEach((k, v) -> {
            if (v != null && Double.isFinite(v)) {
                m.put(k, v);
            }
        });
        return m;
    }

    private static double clamp(double v) {
        return Double.isFinite(v) ? Math.max(0, Math.min(1, v)) : 1;
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
