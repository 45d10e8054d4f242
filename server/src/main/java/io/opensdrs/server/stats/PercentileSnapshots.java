package io.opensdrs.server.stats;

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

    private final StatisticsRepository store;
    private final WorkloadPercentiles percentiles;

    public PercentileSnapshots(StatisticsRepository store, WorkloadPercentiles percentiles) {
        this.store = store;
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
            store.insertPercentileSnapshots(rows);
        }
    }

    /** The datastore's newest snapshots of {@code metric}, newest first. */
    public List<Snapshot> history(String datastoreName, WorkloadMetric metric, int limit) {
        return store.percentileSnapshots(datastoreName, metric, limit);
    }
}
