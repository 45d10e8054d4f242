package io.opensdrs.server.stats;

import io.opensdrs.server.SdrsProperties;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live P² percentiles per virtual disk and per datastore (Pesto §5.2: every sample is folded
 * into the trackers of its disk and of the datastore holding it). Held in memory; after a
 * restart {@link StatisticsRecovery} replays the retained raw batches into it.
 */
@Component
public class WorkloadPercentiles {

    private final List<Duration> windows;
    private final ConcurrentHashMap<String, SlidingPercentiles> disks = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SlidingPercentiles> datastores = new ConcurrentHashMap<>();
    private final LongAdder folded = new LongAdder();

    public WorkloadPercentiles(SdrsProperties properties) {
        this.windows = List.copyOf(properties.getStats().getWindows());
    }

    /** The disk identity the statistics use: VM and device key, stable across storage vMotion. */
    public static String diskId(String vm, int diskKey) {
        return vm + "/" + diskKey;
    }

    public List<Duration> windows() {
        return windows;
    }

    public void record(DiskStatsBatch batch) {
        double[] values = new double[WorkloadMetric.ALL.length];
        for (DiskWindowStats s : batch.getSamplesList()) {
            WorkloadMetric.valuesOf(s, values);
            long t = s.getWindowStartMs();
            disks.computeIfAbsent(diskId(s.getVm(), s.getDiskKey()), k -> new SlidingPercentiles(windows)).add(t, values);
            datastores.computeIfAbsent(s.getDatastore(), k -> new SlidingPercentiles(windows)).add(t, values);
        }
        folded.add(batch.getSamplesCount());
    }

    /** Samples folded since start (including the replay). */
    public long folded() {
        return folded.sum();
    }

    public int windowIndex(Duration window) {
        int i = windows.indexOf(window);
        if (i < 0) {
            throw new IllegalArgumentException("window " + window + " is not kept; kept: " + windows);
        }
        return i;
    }

    public Optional<WindowPercentiles> datastore(String name, Duration window) {
        int i = windowIndex(window);
        return Optional.ofNullable(datastores.get(name)).map(s -> s.query(i));
    }

    public Optional<WindowPercentiles> disk(String diskId, Duration window) {
        int i = windowIndex(window);
        return Optional.ofNullable(disks.get(diskId)).map(s -> s.query(i));
    }

    public boolean hasDatastore(String name) {
        return datastores.containsKey(name);
    }

    public Set<String> datastoreNames() {
        return new TreeSet<>(datastores.keySet());
    }

    public Set<String> diskIds() {
        return new TreeSet<>(disks.keySet());
    }

    /** Forgets everything (used before a replay). */
    void clear() {
        disks.clear();
        datastores.clear();
        folded.reset();
    }
}
