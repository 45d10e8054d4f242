package io.opensdrs.balance;

import io.opensdrs.balance.baseline.LatencyGreedy;
import io.opensdrs.balance.baseline.SpaceOnly;
import io.opensdrs.balance.basil.NormalizedLoadGreedy;
import io.opensdrs.balance.perio.PerIoLatencyGreedy;
import io.opensdrs.balance.pesto.LatencyEqualization;
import io.opensdrs.balance.romano.MeritAnnealing;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Strategy name → factory (the factory takes the seed randomized strategies need), and the
 * default rule: {@code romano} where the cluster's models are calibrated over R and X (every
 * fitted model says {@link io.opensdrs.model.DatastoreModel#isCalibrated}, and at least one is
 * fitted; of the built-in models only Romano's checks its calibration), else {@code pesto}, also
 * on a cluster whose datastores carry different kinds ({@link #defaultName}). A
 * Romano model fitted to the injector's random reads alone has no measured R or X term, and
 * Romano's strategy trusts its predictions for write and sequential mixes too far: in the loop
 * it recommended 0 or 1 moves from run to run. {@code per-io} and the baselines
 * {@code space-only} and {@code latency-greedy} run only when a cluster's settings name them.
 */
public final class StrategyRegistry {

    private final Map<String, LongFunction<BalancingStrategy>> factories = new LinkedHashMap<>();

    public static StrategyRegistry withBuiltInStrategies() {
        StrategyRegistry r = new StrategyRegistry();
        r.register(NormalizedLoadGreedy.NAME, seed -> new NormalizedLoadGreedy());
        r.register(LatencyEqualization.NAME, seed -> new LatencyEqualization());
        r.register(MeritAnnealing.NAME, MeritAnnealing::new);
        r.register(PerIoLatencyGreedy.NAME, seed -> new PerIoLatencyGreedy());
        // baselines of what users run instead, never chosen by default
        r.register(SpaceOnly.NAME, seed -> new SpaceOnly());
        r.register(LatencyGreedy.NAME, seed -> new LatencyGreedy());
        return r;
    }

    public StrategyRegistry register(String name, LongFunction<BalancingStrategy> factory) {
        if (name == null || name.isBlank() || factory == null) {
            throw new IllegalArgumentException("a strategy needs a name and a factory");
        }
        if (factories.putIfAbsent(name, factory) != null) {
            throw new IllegalArgumentException("strategy " + name + " is already registered");
        }
        return this;
    }

    public Set<String> names() {
        return Collections.unmodifiableSet(factories.keySet());
    }

    public BalancingStrategy create(String name, long seed) {
        LongFunction<BalancingStrategy> f = factories.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown strategy '" + name + "' (--strategy); known: " + String.join(", ", names()));
        }
        return f.apply(seed);
    }

    /**
     * The default strategy name for a cluster ({@code auto}). Its datastores may carry models of
     * different kinds (the server picks a kind per datastore by held-out accuracy). A mixed cluster
     * runs {@code pesto}: Pesto's equalization reads every datastore's model through its LQ line
     * and predictions ({@link io.opensdrs.model.DatastoreModel#lqLine}), which every kind gives, so
     * a datastore with a calibrated Romano model is still balanced on Romano's predictions; Romano's
     * annealing would also trust the other datastores' models for write and sequential mixes that
     * their fits never measured. {@code romano} runs when every fitted model is calibrated.
     */
    public static String defaultName(ClusterState state) {
        boolean anyCalibrated = false;
        for (DatastoreState d : state.datastores()) {
            if (d.fittedModel().isPresent()) {
                if (!d.model().isCalibrated()) {
                    return LatencyEqualization.NAME;
                }
                anyCalibrated = true;
            }
        }
        return anyCalibrated ? MeritAnnealing.NAME : LatencyEqualization.NAME;
    }

    public BalancingStrategy defaultFor(ClusterState state, long seed) {
        return create(defaultName(state), seed);
    }
}
