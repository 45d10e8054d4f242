package io.opensdrs.bench;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;

/**
 * What each datastore's injector measured (Pesto §5.1: run while the datastore is idle, so
 * the device alone answers), shared by every world that has the same device on the same
 * LUN size: a benchmark of hundreds of worlds would otherwise re-measure the same few
 * devices thousands of times. Each design is measured once per device, on first request;
 * concurrent requests for the same device wait for that one measurement.
 */
public final class InjectorObservations {
    private final ConcurrentHashMap<String, CompletableFuture<List<Observation>>> runs = new ConcurrentHashMap<>();
    private final long measuredIos;
    private final long seed;
    private final ExecutorService executor;

    /**
     * @param executor where a design's points run; null = in the calling thread (required
     *                 when callers are themselves tasks of a bounded pool, which would deadlock)
     */
    public InjectorObservations(long measuredIos, long seed, ExecutorService executor) {
        this.measuredIos = measuredIos;
        this.seed = seed;
        this.executor = executor;
    }

    public List<Observation> of(DeviceUnderTest device, String designName, List<Workload> design) {
        String key = designName + "|" + device.key();
        CompletableFuture<List<Observation>> mine = new CompletableFuture<>();
        CompletableFuture<List<Observation>> existing = runs.putIfAbsent(key, mine);
        if (existing == null) {
            try {
                ClosedLoopMeasurement bench = new ClosedLoopMeasurement(device.profile(), device.capacityBytes(), measuredIos);
                long s = seed * 7_919L + key.hashCode();
                if (executor != null) {
                    mine.complete(bench.measureAll(design, s, executor));
                } else {
                    List<Observation> out = new java.util.ArrayList<>();
                    for (int i = 0; i < design.size(); i++) {
                        out.add(bench.measure(design.get(i), s + i));
                    }
                    mine.complete(List.copyOf(out));
                }
            } catch (RuntimeException e) {
                mine.completeExceptionally(e);
            }
            existing = mine;
        }
        try {
            return existing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    /** How many distinct device × design measurements were made. */
    public int measuredDesigns() {
        return runs.size();
    }
}
