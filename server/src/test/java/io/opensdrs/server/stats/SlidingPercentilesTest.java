package io.opensdrs.server.stats;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class SlidingPercentilesTest {

    private static final List<Duration> WINDOWS = List.of(Duration.ofMinutes(10), Duration.ofHours(1));

    @Test
    void deferredAndBatchedFoldingAnswerExactlyAsOneSampleAtATime() {
        Random rnd = new Random(5);
        SlidingPercentiles eager = new SlidingPercentiles(WINDOWS);
        SlidingPercentiles deferred = new SlidingPercentiles(WINDOWS);
        SlidingPercentiles batched = new SlidingPercentiles(WINDOWS);
        SlidingPercentiles published = new SlidingPercentiles(WINDOWS, true);
        int metrics = WorkloadMetric.ALL.length;
        int n = 1_000;
        long[] times = new long[n];
        double[] values = new double[n * metrics];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            times[i] = 1_700_000_000_000L + i * 20_000L - (i % 7 == 3 ? 40_000L : 0); // some out of order
            for (int m = 0; m < metrics; m++) {
                values[i * metrics + m] = -Math.log(1 - rnd.nextDouble()) * (m + 1);
            }
            order[i] = i;
        }
        for (int i = 0; i < n; i++) {
            eager.add(times[i], values, i * metrics);
            deferred.addDeferred(times[i], values, i * metrics);
            if (i % 37 == 0) { // reads in between see every sample so far
                assertSame(eager, deferred);
            }
        }
        for (int from = 0; from < n; from += 100) {
            batched.addAll(times, values, order, from, Math.min(n, from + 100));
            assertThat(published.tryAddAll(times, values, order, from, Math.min(n, from + 100))).isTrue();
            assertSame(batched, published); // the snapshot after each fold
        }
        assertSame(eager, deferred);
        assertSame(eager, batched);
        assertSame(eager, published);
        assertThat(deferred.samples()).isEqualTo(n);
    }

    /**
     * A replay told each subject's newest sample, or a time before it ({@code replayEndsAt}), skips the panes' epochs that end
     * before it, and answers exactly as folding every sample; a day of 20-s samples over windows of
     * 10 minutes and 1 hour, some out of order, then live samples after the replay (one late).
     */
    @Test
    void aReplayToldItsNewestSampleSkipsWhatItsEndResetsAndAnswersTheSame() {
        Random rnd = new Random(9);
        int metrics = WorkloadMetric.ALL.length;
        int n = 24 * 180;
        long t0 = 1_700_000_000_000L;
        long[] times = new long[n];
        double[] values = new double[n * metrics];
        long newest = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            times[i] = t0 + i * 20_000L - (i % 11 == 5 ? 700_000L : 0); // some late, across a pane's start
            newest = Math.max(newest, times[i]);
            for (int m = 0; m < metrics; m++) {
                values[i * metrics + m] = -Math.log(1 - rnd.nextDouble()) * (m + 1);
            }
        }
        SlidingPercentiles all = new SlidingPercentiles(WINDOWS);
        SlidingPercentiles replayed = new SlidingPercentiles(WINDOWS);
        replayed.replayEndsAt(newest);
        SlidingPercentiles bounded = new SlidingPercentiles(WINDOWS); // told a time before its newest
        bounded.replayEndsAt(newest - 2_000_000L);
        for (int i = 0; i < n; i++) {
            all.add(times[i], values, i * metrics);
            replayed.addDeferred(times[i], values, i * metrics);
            bounded.addDeferred(times[i], values, i * metrics);
        }
        assertSame(all, replayed);
        assertSame(all, bounded);
        assertThat(replayed.samples()).isEqualTo(n);
        assertThat(replayed.paneFolds()).as("P² work of the replay against folding everything")
                .isLessThan(all.paneFolds() / 10);

        long[] live = {newest + 20_000L, newest - 900_000L, newest + 40_000L, newest + 3_600_000L};
        for (long t : live) {
            double[] v = new double[metrics];
            java.util.Arrays.fill(v, t % 7);
            all.add(t, v);
            replayed.add(t, v);
            assertSame(all, replayed);
        }
    }

    private static void assertSame(SlidingPercentiles expected, SlidingPercentiles actual) {
        for (int w = 0; w < WINDOWS.size(); w++) {
            WindowPercentiles e = expected.query(w);
            WindowPercentiles a = actual.query(w);
            assertThat(a.samples()).isEqualTo(e.samples());
            assertThat(a.paneStartMs()).isEqualTo(e.paneStartMs());
            assertThat(a.lastSampleMs()).isEqualTo(e.lastSampleMs());
            for (WorkloadMetric m : WorkloadMetric.ALL) {
                assertThat(a.values().get(m)).containsExactly(e.values().get(m));
            }
        }
    }
}
