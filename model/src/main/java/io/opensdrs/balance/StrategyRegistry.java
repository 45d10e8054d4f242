package io.opensdrs.balance;

import io.opensdrs.balance.basil.NormalizedLoadGreedy;
import io.opensdrs.balance.pesto.LatencyEqualization;
import io.opensdrs.balance.romano.MeritAnnealing;
import io.opensdrs.model.romano.RomanoModel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Strategy name → factory (the factory takes the seed randomized strategies need), and the
 * default rule: {@code romano} where the cluster's models are calibrated Romano models (every
 * fitted model is a Romano model, at least one is fitted), else {@code pesto}.
 */
public final class StrategyRegistry {

    private final Map<String, LongFunction<BalancingStrategy>> factories = new LinkedHashMap<>();

    public static StrategyRegistry withBuiltInStrategies() {
        StrategyRegistry r = new StrategyRegistry();
        r.register(NormalizedLoadGreedy.NAME, seed -> new NormalizedLoadGreedy());
        r.register(LatencyEqualization.NAME, seed -> new LatencyEqualization());
        r.register(MeritAnnealing.NAME, MeritAnnealing::new);
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

    /** The default strategy name for a cluster. */
    public static String defaultName(ClusterState state) {
        boolean anyRomano = false;
        for (DatastoreState d : state.datastores()) {
            if (d.fittedModel().isPresent()) {
                if (!(d.model() instanceof RomanoModel)) {
                    return LatencyEqualization.NAME;
                }
                anyRomano = true;
            }
        }
        return anyRomano ? MeritAnnealing.NAME : LatencyEqualization.NAME;
    }

    public BalancingStrategy defaultFor(ClusterState state, long seed) {
        return create(defaultName(state), seed);
    }
}
