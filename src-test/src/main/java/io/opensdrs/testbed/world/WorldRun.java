package io.opensdrs.testbed.world;

import io.opensdrs.scenario.EventSpec;
import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.testbed.sim.Clock;
import io.opensdrs.testbed.stats.DatastoreWindow;
import io.opensdrs.testbed.stats.DiskWindow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a world over time in 20-second statistics windows (Pesto §5.2): applies the
 * scenario's timed events and each disk's phases of the day at window boundaries, lets a
 * placement policy move disks, and reports per-disk and per-datastore statistics for every
 * window. Two methods: {@link IoLevelRun} simulates every IO; {@link SteadyStateRun}
 * simulates a short IO-level sample of each datastore whenever what runs on it changes
 * and reuses it while nothing changes — fast enough for many simulated hours.
 */
public abstract class WorldRun {
    public static final double WINDOW_MS = 20_000;

    public enum Method { IO_LEVEL, STEADY_STATE }

    /** Receives every window's statistics. */
    public interface WindowListener {
        void window(double startMs, List<DiskWindow> disks, List<DatastoreWindow> datastores);
    }

    /** Decides placement changes in virtual time (e.g. a balancer); may call {@link World#relocate}. */
    public interface PlacementPolicy {
        void afterWindow(World world, double nowMs, List<DiskWindow> disks, List<DatastoreWindow> datastores);

        PlacementPolicy NONE = (w, t, d, s) -> { };
    }

    protected final World world;
    protected final long seed;

    protected WorldRun(World world, long seed) {
        this.world = world;
        this.seed = seed;
    }

    public static WorldRun create(World world, Method method, long seed) {
        return method == Method.IO_LEVEL ? new IoLevelRun(world, seed) : new SteadyStateRun(world, seed);
    }

    /**
     * A steady-state run that shares its datastores' samples with every other run given the same
     * {@code samples}: a datastore with the same device, seed and streams is not simulated again
     * (benchmarks that measure many placements of one world change two datastores at a time).
     */
    public static WorldRun steadyState(World world, long seed, SteadyStateRun.Samples samples) {
        return new SteadyStateRun(world, seed, samples);
    }

    public World world() {
        return world;
    }

    /** Runs {@code hours} of simulated time from the start of the scenario. */
    public void run(double hours, Clock clock, WindowListener listener, PlacementPolicy policy)
            throws InterruptedException, InvalidScenarioException {
        List<EventSpec> events = new ArrayList<>(world.scenario().events());
        events.sort(Comparator.comparingDouble(EventSpec::atHour));
        int nextEvent = 0;
        long windows = Math.round(hours * 3_600_000 / WINDOW_MS);
        for (long k = 0; k < windows; k++) {
            double t0 = k * WINDOW_MS;
            while (nextEvent < events.size() && events.get(nextEvent).atHour() * 3_600_000 <= t0) {
                world.apply(events.get(nextEvent++), t0);
            }
            List<DiskWindow> disks = window(t0, t0 + WINDOW_MS, clock);
            Map<String, List<DiskWindow>> byDs = new LinkedHashMap<>();
            for (Datastore ds : world.datastores()) {
                byDs.put(ds.name(), new ArrayList<>());
            }
            for (DiskWindow d : disks) {
                byDs.computeIfAbsent(d.datastore(), x -> new ArrayList<>()).add(d);
            }
            List<DatastoreWindow> totals = new ArrayList<>();
            byDs.forEach((ds, list) -> totals.add(DatastoreWindow.of(ds, t0, WINDOW_MS / 1000, list)));
            listener.window(t0, disks, totals);
            policy.afterWindow(world, t0 + WINDOW_MS, disks, totals);
        }
    }

    /**
     * Simulates one window and returns its per-disk statistics (virtual disks, plus one
     * "copy" stream per side of every relocation in progress, named {@code copy:<disk>}).
     */
    protected abstract List<DiskWindow> window(double startMs, double endMs, Clock clock) throws InterruptedException;
}
