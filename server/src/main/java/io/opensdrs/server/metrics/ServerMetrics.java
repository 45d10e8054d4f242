package io.opensdrs.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.opensdrs.server.ingest.AgentSessions;
import io.opensdrs.server.migration.ActionState;
import io.opensdrs.server.migration.MigrationRepository;
import io.opensdrs.server.models.ModelRepository;
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

    private final MigrationRepository migrations;
    private final ModelRepository models;
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicReference<Double> oldest = new AtomicReference<>(Double.NaN);
    private final MultiGauge modelAge;

    public ServerMetrics(MigrationRepository migrations, ModelRepository models, MeterRegistry registry, AgentSessions sessions) {
        this.migrations = migrations;
        this.models = models;
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
        inFlight.set(migrations.countActionsIn(ActionState.IN_FLIGHT));
        Instant now = Instant.now();
        List<MultiGauge.Row<?>> rows = models.newestValidFits().stream().<MultiGauge.Row<?>>map(f ->
                MultiGauge.Row.of(Tags.of("datastore", f.datastore(), "kind", f.kind()), age(f.fittedAt(), now))).toList();
        modelAge.register(rows, true);
        oldest.set(rows.isEmpty() ? Double.NaN : age(models.oldestNewestValidFit(), now));
    }

    private static double age(Instant fittedAt, Instant now) {
        return Duration.between(fittedAt, now).toMillis() / 1000.0;
    }
}
