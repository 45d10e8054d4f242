package io.opensdrs.server.stats;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The percentiles of one subject (a virtual disk or a datastore) over sliding windows.
 *
 * <p>P² estimators cannot forget old values nor be merged, so each window W is approximated by
 * two staggered panes: pane 0 restarts at multiples of W, pane 1 half a window later; a query
 * reads the pane that started earlier, which holds between W/2 and W of the most recent data.
 * Time is the samples' own window time (DiskWindowStats.window_start_ms), not the wall clock,
 * so a replay after a restart rebuilds the same state.
 */
final class SlidingPercentiles {

    /** The percentiles served (issue: p50, p70, p90), as fractions. */
    static final double[] FRACTIONS = {0.50, 0.70, 0.90};

    private final long[] windowMs;
    private final long[][] paneEpoch;           // [window][pane]
    private final P2Quantiles[][][] sketches;   // [window][pane][metric]
    private long lastSampleMs = Long.MIN_VALUE;
    private long samples;

    SlidingPercentiles(List<Duration> windows) {
        int w = windows.size();
        windowMs = new long[w];
        paneEpoch = new long[w][2];
        sketches = new P2Quantiles[w][2][WorkloadMetric.ALL.length];
        for (int i = 0; i < w; i++) {
            windowMs[i] = windows.get(i).toMillis();
            for (int pane = 0; pane < 2; pane++) {
                paneEpoch[i][pane] = Long.MIN_VALUE;
                for (int m = 0; m < WorkloadMetric.ALL.length; m++) {
                    sketches[i][pane][m] = new P2Quantiles(FRACTIONS);
                }
            }
        }
    }

    synchronized void add(long timeMs, double[] values) {
        samples++;
        if (timeMs > lastSampleMs) {
            lastSampleMs = timeMs;
        }
        for (int i = 0; i < windowMs.length; i++) {
            long w = windowMs[i];
            for (int pane = 0; pane < 2; pane++) {
                long epoch = Math.floorDiv(timeMs - pane * (w / 2), w);
                P2Quantiles[] s = sketches[i][pane];
                if (epoch > paneEpoch[i][pane]) {
                    paneEpoch[i][pane] = epoch;
                    for (P2Quantiles q : s) {
                        q.reset();
                    }
                } else if (epoch < paneEpoch[i][pane]) {
                    continue; // older than this pane's start: already forgotten
                }
                for (int m = 0; m < s.length; m++) {
                    s[m].add(values[m]);
                }
            }
        }
    }

    /** The percentiles over window {@code windowIndex}, from the pane that started earlier. */
    synchronized WindowPercentiles query(int windowIndex) {
        long w = windowMs[windowIndex];
        int best = -1;
        long bestStart = Long.MAX_VALUE;
        for (int pane = 0; pane < 2; pane++) {
            if (paneEpoch[windowIndex][pane] == Long.MIN_VALUE || sketches[windowIndex][pane][0].count() == 0) {
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
            P2Quantiles[] s = sketches[windowIndex][best];
            count = s[0].count();
            for (int m = 0; m < s.length; m++) {
                double[] v = new double[FRACTIONS.length];
                for (int j = 0; j < v.length; j++) {
                    v[j] = s[m].estimate(j);
                }
                values.put(WorkloadMetric.ALL[m], v);
            }
        }
        return new WindowPercentiles(Duration.ofMillis(w), best >= 0 ? bestStart : null,
                lastSampleMs == Long.MIN_VALUE ? null : lastSampleMs, count, values);
    }

    synchronized long samples() {
        return samples;
    }
}
