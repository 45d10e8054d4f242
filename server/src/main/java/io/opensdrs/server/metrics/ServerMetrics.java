package io.opensdrs.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.opensdrs.server.ingest.AgentSessions;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Gauges read from the database every 15 s (cheap aggregate queries, never on the scrape path):
 * {@code sdrs_migrations_in_flight}, {@code sdrs_model_age_seconds{datastore,kind}} (age of each
 * datastore's newest valid model of each kind), {@code sdrs_models_oldest_age_seconds},
 * {@code sdrs_agent_sessions_open}. Run durations are timers where the runs happen
 * ({@code sdrs_run_duration_seconds{run=...}}); the ingestion rate is the rate of
 * {@code sdrs_ingest_samples_total}.
 */
@Component
public class ServerMetrics {

    private final JdbcTemplate jdbc;
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicReference<Double> oldest = new AtomicReference<>(Double.NaN);
    private final MultiGauge modelAge;

    public ServerMetrics(JdbcTemplate jdbc, MeterRegistry registry, AgentSessions sessions) {
        this.jdbc = jdbc;
        Gauge.builder("sdrs.migrations.in.flight", inFlight, AtomicLong::get)
                .description("storage vMotions issued and not finished").register(registry);
        Gauge.builder("sdrs.models.oldest.age", oldest, AtomicReference::get).baseUnit("seconds")
                .description("age of the oldest current datastore model").register(registry);
        Gauge.builder("sdrs.agent.sessions.open", sessions, AgentSessions::openSessions).register(registry);
        modelAge = MultiGauge.builder("sdrs.model.age").baseUnit("seconds").description("age of a datastore's current model")
                .register(registry);
        refresh();
    }

    @Scheduled(fixedDelay = 15_000)
    public void refresh() {
        // Storage vMotions between RelocateVM_Task being issued and its result being verified.
        String states = io.opensdrs.server.migration.ActionState.IN_FLIGHT.stream()
                .map(st -> "'" + st.name() + "'").collect(java.util.stream.Collectors.joining(","));
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM migration_action WHERE state IN (" + states + ")", Long.class);
        inFlight.set(n == null ? 0 : n);
        Instant now = Instant.now();
        List<MultiGauge.Row<?>> rows = jdbc.query("SELECT datastore_name, model_kind, MAX(fitted_at) FROM datastore_model"
                + " WHERE valid = TRUE GROUP BY datastore_name, model_kind", (rs, i) -> {
            double age = Duration.between(rs.getTimestamp(3).toInstant(), now).toMillis() / 1000.0;
            return MultiGauge.Row.of(Tags.of("datastore", rs.getString(1), "kind", rs.getString(2)), age);
        });
        modelAge.register(rows, true);
        oldest.set(rows.isEmpty() ? Double.NaN : jdbc.query("SELECT MIN(m) FROM (SELECT MAX(fitted_at) AS m FROM datastore_model"
                + " WHERE valid = TRUE GROUP BY datastore_name, model_kind) t", rs -> {
            rs.next();
            return Duration.between(rs.getTimestamp(1).toInstant(), now).toMillis() / 1000.0;
        }));
    }
}
