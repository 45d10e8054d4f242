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
 * default rule: {@code per-io} ({@link PerIoLatencyGreedy}), whatever model each datastore has —
 * it judges moves by the latency the VMs' IOs see, which Pesto's equalization and Romano's merit
 * do not (B2 in the src-test README: both raised per-IO latency on the Pesto-like worlds). The
 * baselines {@code space-only} and {@code latency-greedy} are what users run instead; they are
 * never a default.
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

    /** The default strategy name for a cluster: {@link PerIoLatencyGreedy}, on whatever model each datastore has. */
    public static String defaultName(ClusterState state) {
        return PerIoLatencyGreedy.NAME;
    }

    public BalancingStrategy defaultFor(ClusterState state, long seed) {
        return create(defaultName(state), seed);
    }
}
