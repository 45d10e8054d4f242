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
