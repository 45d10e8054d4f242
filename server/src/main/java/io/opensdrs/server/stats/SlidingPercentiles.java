package io.opensdrs.server.stats;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The percentiles of one subject (a virtual disk or a datastore) over sliding windows.
 *
 * <p>P² estimators cannot forget old values nor be merged, so each window W is approximated by
 * two staggered panes: pane 0 restarts at multiples of W, pane 1 half a window later; a query
 * reads the pane that started earlier, which holds between W/2 and W of the most recent data.
 * Time is the samples' own window time (DiskWindowStats.window_start_ms), not the wall clock,
 * so a replay after a restart rebuilds the same state.
 *
 * <p>One {@link P2Quantiles} per pane holds all metrics (they share the count). Samples are
 * folded a group at a time ({@link #addAll}) so that a batch takes each subject's lock once.
 *
 * <p>Deferred folding ({@link #addDeferred}): a virtual disk gets one sample per batch, and with
 * thousands of disks its trackers (about 6 KB) are out of the CPU caches every time; folding then
 * costs several times as much as on a cached tracker. Such samples are appended to a
 * small pending buffer instead and folded {@link #DEFERRED} at a time, so the tracker is fetched
 * once per that many samples. Every read folds the pending samples first, in arrival order, so
 * what any query sees is exactly what eager folding would give.
 *
 * <p>Published reads (datastores): after every fold the percentiles of every window are copied
 * into an immutable snapshot behind a volatile reference, and {@link #query} returns it without
 * taking the lock, so a query never waits for ingestion (a fold holder descheduled on a busy
 * machine made queries wait milliseconds) and always sees the state after a whole fold: every
 * sample of an acknowledged message, since the fold precedes the ack. Copying costs a few dozen
 * reads per batch and datastore. Disks, folded deferred and rarely read, compute on read.
 */
final class SlidingPercentiles {

    /** The percentiles served (issue: p50, p70, p90), as fractions. */
    static final double[] FRACTIONS = {0.50, 0.70, 0.90};

    private static final int METRICS = WorkloadMetric.ALL.length;

    /** Samples buffered by {@link #addDeferred} before they are folded. */
    static final int DEFERRED = 8;

    private final long[] windowMs;
    private final long[][] paneEpoch;         // [window][pane]
    private final long[][] finalEpoch;        // [window][pane]: a replay's last epoch, see replayEndsAt
    private final P2Quantiles[][] sketches;   // [window][pane], one stream per metric
    private long lastSampleMs = Long.MIN_VALUE;
    private long samples;
    private long paneFolds;                   // P² updates of a whole sample into one pane
    private long[] pendingTimesMs;            // allocated at the first deferred sample
    private double[] pendingValues;           // [sample][metric]
    private int pending;
    // explicit rather than synchronized: a batch tries the datastores' locks and folds into free
    // ones first (tryAddAll), instead of queueing behind a holder that was descheduled
    private final ReentrantLock lock = new ReentrantLock();
    private final boolean publishing;
    private volatile WindowPercentiles[] published;   // [window], when publishing

    SlidingPercentiles(List<Duration> windows) {
        this(windows, false);
    }

    /** @param publishing whether queries read an immutable snapshot published after each fold */
    SlidingPercentiles(List<Duration> windows, boolean publishing) {
        this.publishing = publishing;
        int w = windows.size();
        windowMs = new long[w];
        paneEpoch = new long[w][2];
        finalEpoch = new long[w][2];
        sketches = new P2Quantiles[w][2];
        for (int i = 0; i < w; i++) {
            windowMs[i] = windows.get(i).toMillis();
            for (int pane = 0; pane < 2; pane++) {
                paneEpoch[i][pane] = Long.MIN_VALUE;
                finalEpoch[i][pane] = Long.MIN_VALUE;
                sketches[i][pane] = new P2Quantiles(METRICS, FRACTIONS);
            }
        }
        if (publishing) {
            publish();
        }
    }

    /**
     * Before a replay: a sample time this subject will be given, at or before its newest
     * ({@link StatisticsRecovery}). A pane ends the replay in the epoch of the newest sample, at or after
     * the epoch of this one, and what it folds of an older epoch is reset away when that epoch comes;
     * so samples of epochs older than this one's are not folded into it at all: the same state at the
     * end, the samples of the last epoch folded in the same order from the same reset. With a day of
     * 20-s samples and windows of 1 and 16 hours, most of the replay's P² updates were of such panes.
     * Once the replay has ended every pane is in that epoch or a later one, and the bound drops
     * nothing that the pane would not drop as older than its start.
     */
    void replayEndsAt(long atOrBeforeNewestMs) {
        lock.lock();
        try {
            for (int i = 0; i < windowMs.length; i++) {
                long w = windowMs[i];
                for (int pane = 0; pane < 2; pane++) {
                    finalEpoch[i][pane] = Math.floorDiv(atOrBeforeNewestMs - pane * (w / 2), w);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** One sample: {@code values} holds every metric in {@link WorkloadMetric#ALL} order. */
    void add(long timeMs, double[] values) {
        lock.lock();
        try {
            foldPending();
            fold(timeMs, values, 0);
            if (publishing) {
                publish();
            }
        } finally {
            lock.unlock();
        }
    }

    /** One sample whose metrics are at {@code values[offset ...]}. */
    void add(long timeMs, double[] values, int offset) {
        lock.lock();
        try {
            foldPending();
            fold(timeMs, values, offset);
            if (publishing) {
                publish();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Samples {@code order[from..to)}: sample {@code i} has time {@code timesMs[i]} and its metrics
     * at {@code values[i * METRICS ...]}; folded in that order under one lock acquisition.
     */
    void addAll(long[] timesMs, double[] values, int[] order, int from, int to) {
        lock.lock();
        try {
            foldAll(timesMs, values, order, from, to);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Like {@link #add(long, double[], int)}, but the sample may wait in the pending buffer until
     * {@link #DEFERRED} have accumulated or the subject is read.
     */
    void addDeferred(long timeMs, double[] values, int offset) {
        lock.lock();
        try {
            if (pendingTimesMs == null) {
                pendingTimesMs = new long[DEFERRED];
                pendingValues = new double[DEFERRED * METRICS];
            }
            pendingTimesMs[pending] = timeMs;
            System.arraycopy(values, offset, pendingValues, pending * METRICS, METRICS);
            if (++pending == DEFERRED) {
                foldPending();
            }
        } finally {
            lock.unlock();
        }
    }

    /** {@link #addAll} if the lock is free now; false (and nothing folded) when it is held. */
    boolean tryAddAll(long[] timesMs, double[] values, int[] order, int from, int to) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            foldAll(timesMs, values, order, from, to);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void foldAll(long[] timesMs, double[] values, int[] order, int from, int to) {
        foldPending();
        for (int k = from; k < to; k++) {
            int i = order[k];
            fold(timesMs[i], values, i * METRICS);
        }
        if (publishing) {
            publish();
        }
    }

    /** Caller holds the lock. */
    private void publish() {
        WindowPercentiles[] p = new WindowPercentiles[windowMs.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = compute(i);
        }
        published = p;
    }

    private void foldPending() {
        for (int k = 0; k < pending; k++) {
            fold(pendingTimesMs[k], pendingValues, k * METRICS);
        }
        pending = 0;
    }

    private void fold(long timeMs, double[] values, int offset) {
        samples++;
        if (timeMs > lastSampleMs) {
            lastSampleMs = timeMs;
        }
        for (int i = 0; i < windowMs.length; i++) {
            long w = windowMs[i];
            for (int pane = 0; pane < 2; pane++) {
                long epoch = Math.floorDiv(timeMs - pane * (w / 2), w);
                if (epoch < finalEpoch[i][pane]) {
                    continue; // reset away before the replay ends (replayEndsAt)
                }
                P2Quantiles s = sketches[i][pane];
                if (epoch > paneEpoch[i][pane]) {
                    paneEpoch[i][pane] = epoch;
                    s.reset();
                } else if (epoch < paneEpoch[i][pane]) {
                    continue; // older than this pane's start: already forgotten
                }
                s.add(values, offset);
                paneFolds++;
            }
        }
    }

    /** The percentiles over window {@code windowIndex}, from the pane that started earlier. */
    WindowPercentiles query(int windowIndex) {
        if (publishing) {
            return published[windowIndex];
        }
        lock.lock();
        try {
            foldPending();
            return compute(windowIndex);
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds the lock. */
    private WindowPercentiles compute(int windowIndex) {
        long w = windowMs[windowIndex];
        int best = -1;
        long bestStart = Long.MAX_VALUE;
        for (int pane = 0; pane < 2; pane++) {
            if (paneEpoch[windowIndex][pane] == Long.MIN_VALUE || sketches[windowIndex][pane].count() == 0) {
                continue;
            }
            long start = paneEpoch[windowIndex][pane] * w + pane * (w / 2);
            if (start < bestStart) {
                bestStart = start;
                best = pane;
            }
        }
        Map<WorkloadMetric, double[]> values = new EnumMap<>(WorkloadMetric.class);
        long count = 0;
        if (best >= 0) {
            P2Quantiles s = sketches[windowIndex][best];
            count = s.count();
            for (int m = 0; m < METRICS; m++) {
                double[] v = new double[FRACTIONS.length];
                for (int j = 0; j < v.length; j++) {
                    v[j] = s.estimate(m, j);
                }
                values.put(WorkloadMetric.ALL[m], v);
            }
        }
        return new WindowPercentiles(Duration.ofMillis(w), best >= 0 ? bestStart : null,
                lastSampleMs == Long.MIN_VALUE ? null : lastSampleMs, count, Collections.unmodifiableMap(values));
    }

    /** Samples folded into a pane, summed over the panes: the P² work done. */
    long paneFolds() {
        lock.lock();
        try {
            foldPending();
            return paneFolds;
        } finally {
            lock.unlock();
        }
    }

    long samples() {
        lock.lock();
        try {
            foldPending();
            return samples;
        } finally {
            lock.unlock();
        }
    }
}
