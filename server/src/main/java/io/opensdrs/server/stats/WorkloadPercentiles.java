package io.opensdrs.server.stats;

import io.opensdrs.server.SdrsProperties;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
    private final AtomicInteger rotation = new AtomicInteger();
    private final StatisticsWarmup warmup;

    public WorkloadPercentiles(SdrsProperties properties, StatisticsWarmup warmup) {
        this.windows = List.copyOf(properties.getStats().getWindows());
        this.warmup = warmup;
    }

    /** The disk identity the statistics use: VM and device key, stable across storage vMotion. */
    public static String diskId(String vm, int diskKey) {
        return vm + "/" + diskKey;
    }

    public List<Duration> windows() {
        return windows;
    }

    /**
     * Folds every sample of {@code batch} into its disk's and its datastore's trackers, in the
     * batch's order per subject. A batch's samples are grouped by datastore so that each
     * datastore tracker is locked once per batch rather than once per sample: the datastore
     * trackers are the ones every agent's batches share. Each call starts with a different
     * datastore so that concurrent batches of several agents spread over the locks. Disk
     * trackers fold deferred (see {@link SlidingPercentiles}); reads see every sample.
     */
    public void record(DiskStatsBatch batch) {
        int n = batch.getSamplesCount();
        if (n == 0) {
            return;
        }
        int metrics = WorkloadMetric.ALL.length;
        double[] values = new double[n * metrics];
        long[] times = new long[n];
        int[] group = new int[n];
        List<SlidingPercentiles> groups = new ArrayList<>();
        Map<String, Integer> groupOf = new HashMap<>();
        double[] one = new double[metrics];
        for (int i = 0; i < n; i++) {
            DiskWindowStats s = batch.getSamples(i);
            WorkloadMetric.valuesOf(s, one);
            System.arraycopy(one, 0, values, i * metrics, metrics);
            times[i] = s.getWindowStartMs();
            tracker(disks, diskId(s.getVm(), s.getDiskKey()), false).addDeferred(times[i], values, i * metrics);
            Integer g = groupOf.get(s.getDatastore());
            if (g == null) {
                g = groups.size();
                groupOf.put(s.getDatastore(), g);
                groups.add(tracker(datastores, s.getDatastore(), true));
            }
            group[i] = g;
        }
        // counting sort of the sample indices by group, stable: per datastore in batch order
        int[] start = new int[groups.size() + 1];
        for (int i = 0; i < n; i++) {
            start[group[i] + 1]++;
        }
        for (int g = 0; g < groups.size(); g++) {
            start[g + 1] += start[g];
        }
        int[] order = new int[n];
        int[] next = Arrays.copyOf(start, groups.size());
        for (int i = 0; i < n; i++) {
            order[next[group[i]]++] = i;
        }
        // first every datastore whose lock is free, then wait for the others
        int first = Math.floorMod(rotation.getAndIncrement(), groups.size());
        boolean[] done = new boolean[groups.size()];
        for (int k = 0; k < groups.size(); k++) {
            int g = (first + k) % groups.size();
            done[g] = groups.get(g).tryAddAll(times, values, order, start[g], start[g + 1]);
        }
        for (int k = 0; k < groups.size(); k++) {
            int g = (first + k) % groups.size();
            if (!done[g]) {
                groups.get(g).addAll(times, values, order, start[g], start[g + 1]);
            }
        }
        folded.add(n);
    }

    private SlidingPercentiles tracker(ConcurrentHashMap<String, SlidingPercentiles> map, String key, boolean publishing) {
        SlidingPercentiles t = map.get(key); // lock-free; computeIfAbsent may lock the hash bin
        return t != null ? t : map.computeIfAbsent(key, k -> new SlidingPercentiles(windows, publishing));
    }

    /**
     * Before a replay: a sample time at or before the newest of each disk ({@link #diskId}) and datastore
     * the replay will fold (those not named get none), so that their trackers skip what the replay's end would reset away
     * ({@link SlidingPercentiles#replayEndsAt}).
     */
    void replayEndsAt(Map<String, Long> newestByDisk, Map<String, Long> newestByDatastore) {
        newestByDisk.forEach((id, t) -> tracker(disks, id, false).replayEndsAt(t));
        newestByDatastore.forEach((name, t) -> tracker(datastores, name, true).replayEndsAt(t));
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

    /**
     * For the API, which answers rather than waits: throws {@link StatisticsWarmingException} while the
     * percentiles are rebuilt after a start ({@link StatisticsWarmup}).
     */
    public void requireRebuilt() {
        warmup.requireRebuilt();
    }

    /** Waits for the rebuild after a start ({@link StatisticsWarmup}): until then they hold part of the samples. */
    public Optional<WindowPercentiles> datastore(String name, Duration window) {
        int i = windowIndex(window);
        warmup.await();
        return Optional.ofNullable(datastores.get(name)).map(s -> s.query(i));
    }

    /** Waits for the rebuild, as {@link #datastore} does. */
    public Optional<WindowPercentiles> disk(String diskId, Duration window) {
        int i = windowIndex(window);
        warmup.await();
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
