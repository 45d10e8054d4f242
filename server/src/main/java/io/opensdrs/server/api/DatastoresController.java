package io.opensdrs.server.api;

import io.opensdrs.server.ingest.DatastoreHeartbeats;
import io.opensdrs.server.inventory.InventoryRepository;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.models.ModelRecord;
import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.InvalidFieldException;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.stats.PercentileSnapshots;
import io.opensdrs.server.stats.WindowPercentiles;
import io.opensdrs.server.stats.WorkloadMetric;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Datastores: space, model (with fit points and history), live percentiles and their history. */
@RestController
@RequestMapping("/api/v1/datastores")
@Tag(name = "datastores")
public class DatastoresController {

    private final InventoryQueries queries;
    private final WorkloadPercentiles percentiles;
    private final DatastoreModels models;
    private final InventoryRepository inventory;
    private final PercentileSnapshots snapshots;
    private final DatastoreHeartbeats heartbeats;

    public DatastoresController(InventoryQueries queries, InventoryRepository inventory, WorkloadPercentiles percentiles,
                                PercentileSnapshots snapshots, DatastoreModels models, DatastoreHeartbeats heartbeats) {
        this.heartbeats = heartbeats;
        this.queries = queries;
        this.percentiles = percentiles;
        this.models = models;
        this.inventory = inventory;
        this.snapshots = snapshots;
    }

    @GetMapping
    @Operation(summary = "Datastores, optionally of one cluster")
    public List<ApiViews.DatastoreView> list(
            @RequestParam(required = false) @Pattern(regexp = ApiIds.MOID, message = ApiIds.MOID_MESSAGE) String cluster) {
        List<ApiViews.DatastoreView> out = new ArrayList<>();
        for (String name : queries.datastoreNames(cluster)) {
            out.add(view(name));
        }
        return out;
    }

    @GetMapping("/{name}")
    @Operation(summary = "A datastore: space, model, hosts, percentiles over every window")
    public ApiViews.DatastoreDetail get(@PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name) {
        requireKnown(name);
        percentiles.requireRebuilt();
        List<String> hosts = inventory.hostNamesOf(name);
        int disks = inventory.diskCountOn(name);
        List<ApiViews.PercentilesView> p = new ArrayList<>();
        for (Duration w : percentiles.windows()) {
            percentiles.datastore(name, w).ifPresent(v -> p.add(view(name, v)));
        }
        return new ApiViews.DatastoreDetail(view(name), hosts, disks, p);
    }

    @GetMapping("/{name}/percentiles")
    @Operation(summary = "p50, p70, p90 of latency, outstanding IOs and the workload characteristics over one window")
    public ApiViews.PercentilesView percentiles(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name,
            @RequestParam(required = false) String window) {
        Duration w = window(percentiles, window);
        requireKnown(name);
        percentiles.requireRebuilt();
        return percentiles.datastore(name, w).map(v -> view(name, v))
                .orElseGet(() -> new ApiViews.PercentilesView(name, w.toString(), null, null, 0, Map.of()));
    }

    @GetMapping("/{name}/model")
    @Operation(summary = "The model in use (cluster's kind, or Pesto's default model) with its fit points")
    public ApiViews.ModelView model(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name,
            @RequestParam(required = false) String kind) {
        if (kind != null && !models.kinds().contains(kind)) {
            throw new InvalidFieldException("kind", "must be one of " + models.kinds());
        }
        requireKnown(name);
        String k = kind != null ? kind : queries.modelKindOf(name);
        return new ApiViews.ModelView(name, k, models.effective(name, k), models.heldOutError(List.of(name)));
    }

    @GetMapping("/{name}/models/history")
    @Operation(summary = "Every fit of every model kind, newest first")
    public List<ModelRecord> modelHistory(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name,
            @RequestParam(defaultValue = "50") @Min(1) @Max(1000) int limit) {
        requireKnown(name);
        return models.history(name, limit);
    }

    @GetMapping("/{name}/percentiles/history")
    @Operation(summary = "Stored percentile snapshots of one metric, newest first")
    public List<ApiViews.SnapshotView> percentileHistory(
            @PathVariable @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String name,
            @RequestParam(defaultValue = "LATENCY_MS") WorkloadMetric metric,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
        requireKnown(name);
        return snapshots.history(name, metric, limit).stream().map(s -> new ApiViews.SnapshotView(s.metric(), s.windowSeconds(),
                s.p50(), s.p70(), s.p90(), s.samples(), s.takenAt().toString())).toList();
    }

    private void requireKnown(String name) {
        // live statistics first: the percentile query must not touch the database under ingest load
        if (!percentiles.hasDatastore(name) && !queries.knownDatastore(name)) {
            throw new NotFoundException("no datastore " + name);
        }
    }

    private ApiViews.DatastoreView view(String name) {
        var row = queries.datastore(name);
        ModelRecord m = models.effective(name, queries.modelKindOf(name));
        ApiViews.SpaceView space = row.map(r -> new ApiViews.SpaceView(r.capacity(), r.free(),
                r.capacity() == 0 ? 0 : 100.0 * (r.capacity() - r.free()) / r.capacity())).orElse(null);
        return new ApiViews.DatastoreView(name, row.map(InventoryRepository.DatastoreRow::moid).orElse(null),
                row.map(InventoryRepository.DatastoreRow::cluster).orElse(null), row.map(InventoryRepository.DatastoreRow::accessible).orElse(true),
                row.map(InventoryRepository.DatastoreRow::maintenance).orElse("normal"), space, ApiViews.ModelSummary.of(m),
                heartbeats.of(name).map(h -> new ApiViews.HeartbeatView(h.leaderHost(), h.liveHosts(), h.idle(), h.reportedBy(),
                        h.receivedAt().toString())).orElse(null));
    }

    /** Parses {@code window} (ISO-8601, e.g. PT1H) and checks it is one the server keeps; default the shortest. */
    static Duration window(WorkloadPercentiles percentiles, String window) {
        if (window == null) {
            return percentiles.windows().get(0);
        }
        Duration w;
        try {
            w = Duration.parse(window);
        } catch (DateTimeParseException e) {
            throw new InvalidFieldException("window", "must be an ISO-8601 duration such as PT1H, got '" + window + "'");
        }
        if (!percentiles.windows().contains(w)) {
            throw new InvalidFieldException("window", "must be one of the kept windows " + percentiles.windows());
        }
        return w;
    }

    static ApiViews.PercentilesView view(String subject, WindowPercentiles v) {
        Map<String, Map<String, Double>> metrics = new LinkedHashMap<>();
        v.values().forEach((metric, p) -> {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("p50", p[0]);
            m.put("p70", p[1]);
            m.put("p90", p[2]);
            metrics.put(metric.name(), m);
        });
        return new ApiViews.PercentilesView(subject, v.window().toString(), v.paneStartMs(), v.lastSampleMs(), v.samples(), metrics);
    }
}
