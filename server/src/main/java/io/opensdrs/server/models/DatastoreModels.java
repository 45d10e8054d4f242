package io.opensdrs.server.models;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.ModelRegistry;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.RomanoModel;
import io.opensdrs.server.SdrsProperties;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Models per datastore (SPEC §3): every injector result and the passive observations feed every
 * model kind the {@code model} module's registry holds; each fit is a new history row (nothing
 * is overwritten); a datastore without a valid model gets Pesto's default model (§5.1.3); a
 * cluster set to {@code auto} uses, on each of its datastores, the kind that predicted that
 * datastore's last held-out observations best (datastores of one cluster may be as unlike as an
 * SSD and a spindle array, and the kind that fits one best need not fit the other).
 *
 * <p>The agent's Romano calibration points (Romano §4.1, its {@code ShortCalibrationDesign}) feed
 * Romano's fits only, beside the injector's runs and the production windows: they are Romano's
 * own calibration, and Pesto's line is the injector's random reads (§5.1).
 */
@Component
public class DatastoreModels {

    public static final String AUTO = "auto";
    private static final Logger log = LoggerFactory.getLogger(DatastoreModels.class);

    private final ModelRepository store;
    private final TransactionTemplate tx;
    private final ModelRegistry registry;
    private final SdrsProperties.Models config;
    private final Timer refreshTimer;
    private final ConcurrentHashMap<Long, DatastoreModel> fitted = new ConcurrentHashMap<>();

    public DatastoreModels(ModelRepository store, TransactionTemplate tx, SdrsProperties properties, MeterRegistry meters) {
        this.store = store;
        this.tx = tx;
        this.registry = ModelRegistry.withBuiltInModels();
        this.config = properties.getModels();
        this.refreshTimer = Timer.builder("sdrs.run.duration").tag("run", "model-refresh")
                .description("duration of the periodic model refresh").register(meters);
    }

    /** The model kinds available: the registry's names. */
    public Set<String> kinds() {
        return registry.names();
    }

    // ------------------------------------------------------------------ injector results

    /**
     * Stores an injector run and, when valid, fits every model kind to it; a valid calibration point
     * refits Romano. Inside the message's transaction.
     */
    public void recordInjectorResult(String agentId, long seq, InjectorResult r) {
        List<FitPoint> points = new ArrayList<>();
        for (InjectorPoint p : r.getPointsList()) {
            // Pesto §5.1.1: a small interference is corrected by using the measured OIO
            double oio = p.getMeasuredOio() > 0 ? p.getMeasuredOio() : p.getTargetOio();
            points.add(new FitPoint(oio, r.getIoSizeKb(), r.getReadShare(), r.getRandomness(), p.getMeanLatencyMs(),
                    p.getIops() > 0 ? p.getIops() : null));
        }
        Integer designOio = r.hasDesignPoint() ? (int) Math.round(r.getDesignPoint().getOutstandingIos()) : null;
        store.insertInjectorRun(agentId, seq, r, points, designOio);
        if (r.getValid() && designOio != null) {
            fit(r.getDatastore(), "calibration", List.of(RomanoModel.NAME), newestInjectorPointsPerSize(r.getDatastore()));
        } else if (r.getValid()) {
            // this run is now the newest of its size, so it is among the runs fitted together
            fitAll(r.getDatastore(), "injector", newestInjectorPointsPerSize(r.getDatastore()));
        }
    }

    /**
     * The newest valid injector run of each IO size on a datastore, pooled: the 4-KiB run is
     * Pesto's line (§5.1) and a run at a second size tells the LQ model how much IO size weighs on
     * the device ({@link LqSlopeModel}); fitting one size alone would give a line of that size.
     */
    List<FitPoint> newestInjectorPointsPerSize(String datastore) {
        return store.newestInjectorPointsPerSize(datastore);
    }

    /**
     * The agent's Romano calibration of a datastore: the newest valid measurement of each point of
     * its design (a point measured again in a later pass replaces the earlier one).
     */
    List<FitPoint> calibrationPoints(String datastore) {
        return store.calibrationPoints(datastore, CALIBRATION_ROWS);
    }

    /** How far back {@link #calibrationPoints} looks: two passes of the agent's 150-point design, with room. */
    private static final int CALIBRATION_ROWS = 400;

    private void fitAll(String datastore, String source, List<FitPoint> points) {
        fit(datastore, source, registry.names(), points);
    }

    /** Fits the given kinds to {@code points}; Romano's fit also gets the datastore's calibration points. */
    private void fit(String datastore, String source, java.util.Collection<String> kinds, List<FitPoint> common) {
        List<FitPoint> withCalibration = null;
        for (String kind : kinds) {
            List<FitPoint> points = common;
            if (RomanoModel.NAME.equals(kind)) {
                if (withCalibration == null) {
                    withCalibration = new ArrayList<>(common);
                    withCalibration.addAll(calibrationPoints(datastore));
                }
                points = withCalibration;
            }
            List<Observation> obs = new ArrayList<>();
            for (FitPoint p : points) {
                if (p.latencyMs() > 0) {
                    obs.add(p.toObservation());
                }
            }
            DatastoreModel model = registry.create(kind);
            Instant now = Instant.now();
            try {
                FitSummary s = model.fit(obs);
                Long id = store.insertModel(datastore, kind, source, true, finite(s.rSquared()), s.points(), s.parameters(), points, null, now);
                fitted.put(id, model);
            } catch (IllegalArgumentException | IllegalStateException e) {
                store.insertModel(datastore, kind, source, false, null, obs.size(), Map.of(), points, truncate(e.getMessage(), 1024), now);
            }
        }
    }

    // ------------------------------------------------------------------ queries

    /** The datastores any model was ever fitted for. */
    public List<String> datastoreNames() {
        return store.modelDatastoreNames();
    }

    public List<ModelRecord> history(String datastore, int limit) {
        return store.history(datastore, limit);
    }

    public Optional<ModelRecord> latestValid(String datastore, String kind) {
        return store.latestValid(datastore, kind);
    }

    /**
     * The model the balancer should use for a datastore under a cluster's model kind: the kind's
     * newest valid fit, else Pesto's default model (§5.1.3).
     */
    public ModelRecord effective(String datastore, String kind) {
        return latestValid(datastore, kind).orElseGet(() -> defaultModel(datastore));
    }

    /**
     * Pesto §5.1.3: a datastore without a valid model gets the average slope of the other
     * datastores' Pesto models, or slope 1.0 when none has one. The intercept is the others'
     * average too (0 when none): the paper names only the slope; the slope is what balancing uses.
     */
    public ModelRecord defaultModel(String datastore) {
        List<double[]> others = new ArrayList<>();
        for (String ds : store.otherDatastoresWithValid(LqSlopeModel.NAME, datastore)) {
            latestValid(ds, LqSlopeModel.NAME).ifPresent(m -> {
                Double slope = m.parameters().get("m");
                Double c = m.parameters().get("C");
                if (slope != null) {
                    // C ≥ 0 (Pesto Eq. 1: a service time); a fit stored before fits kept C ≥ 0 may hold less
                    others.add(new double[]{slope, c == null ? 0 : Math.max(0, c)});
                }
            });
        }
        double slope = others.isEmpty() ? 1.0 : others.stream().mapToDouble(v -> v[0]).average().orElse(1.0);
        double intercept = others.isEmpty() ? 0.0 : others.stream().mapToDouble(v -> v[1]).average().orElse(0.0);
        Map<String, Double> params = new LinkedHashMap<>();
        params.put("m", slope);
        params.put("C", intercept);
        params.put("from_datastores", (double) others.size());
        return new ModelRecord(null, datastore, LqSlopeModel.NAME, "default", true, null, 0, params, List.of(),
                others.isEmpty() ? "no datastore has a model: slope 1.0 (Pesto §5.1.3)"
                        : "average of " + others.size() + " other datastores' slopes (Pesto §5.1.3)", null);
    }

    /** A model's prediction of latency for a workload (null when the model cannot predict it). */
    public Double predict(ModelRecord m, Workload w) {
        DatastoreModel model;
        if ("default".equals(m.source())) {
            model = LqSlopeModel.of(m.parameters().get("m"), m.parameters().get("C"));
        } else {
            model = fitted.computeIfAbsent(m.id(), id -> {
                DatastoreModel fresh = registry.create(m.kind());
                fresh.fit(m.fitPoints().stream().filter(p -> p.latencyMs() > 0).map(FitPoint::toObservation).toList());
                return fresh;
            });
        }
        synchronized (model) {
            try {
                double v = model.predict(w).latencyMs();
                return Double.isFinite(v) ? v : null;
            } catch (RuntimeException e) {
                return null;
            }
        }
    }

    // ------------------------------------------------------------------ selection by held-out accuracy

    /** Mean absolute error per kind over the newest scored held-out observations of the given datastores. */
    public Map<String, Double> heldOutError(List<String> datastores) {
        Map<String, Double> result = new LinkedHashMap<>();
        for (String kind : registry.names()) {
            double sum = 0;
            int n = 0;
            for (String ds : datastores) {
                List<Double> errors = store.heldOutErrors(ds, kind, config.getSelectionObservations());
                for (Double e : errors) {
                    sum += e;
                    n++;
                }
            }
            if (n > 0) {
                result.put(kind, sum / n);
            }
        }
        return result;
    }

    /**
     * The kind a datastore uses under its cluster's configured kind: that kind, or for {@code auto}
     * the kind with the lowest held-out error on this datastore's own observations (Pesto when
     * nothing has been scored yet: the only kind with a default model).
     */
    public String selectKind(String configured, String datastore) {
        if (!AUTO.equals(configured)) {
            return configured;
        }
        return heldOutError(List.of(datastore)).entrySet().stream().min(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElseGet(this::unscoredKind);
    }

    /** Pesto's, the only kind with a default model (§5.1.3). */
    private String unscoredKind() {
        return registry.names().contains(LqSlopeModel.NAME) ? LqSlopeModel.NAME : registry.names().iterator().next();
    }

    /** {@link #selectKind(String, String)} for each datastore, in their order. */
    public Map<String, String> selectKinds(String configured, List<String> datastores) {
        Map<String, String> kinds = new LinkedHashMap<>();
        for (String ds : datastores) {
            kinds.put(ds, selectKind(configured, ds));
        }
        return kinds;
    }

    /**
     * What a cluster's datastores use, in one phrase for the cluster's views: the kind when they all
     * use one (or the configured kind when the cluster has no datastore), else the kinds in use.
     */
    public String clusterKind(String configured, List<String> datastores) {
        java.util.SortedSet<String> kinds = new java.util.TreeSet<>(selectKinds(configured, datastores).values());
        if (kinds.isEmpty()) {
            return AUTO.equals(configured) ? unscoredKind() : configured;
        }
        return kinds.size() == 1 ? kinds.first() : "per datastore: " + String.join(", ", kinds);
    }

    // ------------------------------------------------------------------ periodic refresh

    /**
     * Scores every kind's current model on the passive observations that arrived after its fit
     * (held out: the model never saw them), then refits every kind to the recent observations
     * plus the newest valid injector run of each IO size.
     */
    @Scheduled(fixedDelayString = "${sdrs.models.refresh-interval:PT5M}", initialDelayString = "${sdrs.models.refresh-interval:PT5M}")
    public void refresh() {
        refreshTimer.record(() -> {
            for (String ds : store.observedDatastores()) {
                try {
                    tx.executeWithoutResult(s -> refresh(ds));
                } catch (RuntimeException e) {
                    log.warn("model refresh of datastore {} failed: {}", ds, e.toString());
                }
            }
        });
    }

    void refresh(String datastore) {
        List<ModelRepository.PassiveObservation> recent = store.recentObservations(datastore, config.getPassiveFitObservations());
        List<ModelRepository.PassiveObservation> busy = recent.stream().filter(o -> !o.idle() && o.latencyMs() > 0).toList();
        if (busy.isEmpty()) {
            return;
        }
        boolean anythingNew = false;
        for (String kind : registry.names()) {
            Optional<ModelRecord> current = latestValid(datastore, kind);
            Instant since = current.map(ModelRecord::fittedAt).orElse(Instant.EPOCH);
            for (ModelRepository.PassiveObservation o : busy) {
                if (!o.receivedAt().isAfter(since)) {
                    continue;
                }
                anythingNew = true;
                if (current.isEmpty()) {
                    continue;
                }
                Double predicted = predict(current.get(), new Workload(o.outstandingIos(), o.ioSizeKb(), o.readShare(), o.randomness()));
                if (predicted != null) {
                    store.insertAccuracy(datastore, kind, current.get().id(), o.id(), predicted, o.latencyMs());
                }
            }
        }
        if (!anythingNew) {
            return;
        }
        List<FitPoint> points = new ArrayList<>();
        busy.forEach(o -> points.add(o.toFitPoint()));
        points.addAll(newestInjectorPointsPerSize(datastore));
        fitAll(datastore, "passive", points);
    }

    // ------------------------------------------------------------------ rows

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
