package io.opensdrs.server.stats;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class P2QuantilesTest {

    @Test
    void estimatesAreCloseToExactPercentilesOfSkewedData() {
        Random rnd = new Random(7);
        double[] fractions = {0.5, 0.7, 0.9};
        P2Quantiles p2 = new P2Quantiles(fractions);
        double[] all = new double[50_000];
        for (int i = 0; i < all.length; i++) {
            all[i] = -Math.log(1 - rnd.nextDouble()) * 5; // exponential, mean 5 ms: latency-like
            p2.add(all[i]);
        }
        Arrays.sort(all);
        for (int j = 0; j < fractions.length; j++) {
            double exact = all[(int) (fractions[j] * all.length)];
            assertThat(p2.estimate(j)).isCloseTo(exact, within(exact * 0.02));
        }
    }

    @Test
    void everyStreamOfAMultiStreamEstimatorEqualsItsOwnSingleStreamEstimator() {
        Random rnd = new Random(11);
        double[] fractions = {0.5, 0.7, 0.9};
        int streams = 6;
        P2Quantiles joint = new P2Quantiles(streams, fractions);
        P2Quantiles[] alone = new P2Quantiles[streams];
        for (int s = 0; s < streams; s++) {
            alone[s] = new P2Quantiles(fractions);
        }
        double[] xs = new double[streams + 2];
        for (int i = 0; i < 20_000; i++) {
            for (int s = 0; s < streams; s++) {
                // different distributions per stream, values at an offset into the array
                xs[2 + s] = s % 2 == 0 ? rnd.nextGaussian() * (s + 1) : -Math.log(1 - rnd.nextDouble()) * s;
                alone[s].add(xs[2 + s]);
            }
            joint.add(xs, 2);
            if (i < 6 || i % 997 == 0) {
                for (int s = 0; s < streams; s++) {
                    for (int j = 0; j < fractions.length; j++) {
                        assertThat(joint.estimate(s, j)).isEqualTo(alone[s].estimate(j));
                    }
                }
            }
        }
        assertThat(joint.count()).isEqualTo(20_000);
    }

    @Test
    void fewValuesGiveExactNearestRank() {
        P2Quantiles p2 = new P2Quantiles(0.5, 0.9);
        p2.add(3);
        p2.add(1);
        p2.add(2);
        assertThat(p2.estimate(0)).isEqualTo(2);
        assertThat(p2.estimate(1)).isEqualTo(3);
    }

    @Test
    void slidingWindowForgetsOldData() {
        SlidingPercentiles s = new SlidingPercentiles(java.util.List.of(java.time.Duration.ofMinutes(10)));
        double[] v = new double[WorkloadMetric.ALL.length];
        for (int i = 0; i < 30; i++) { // 10 minutes of latency 100 ms
            Arrays.fill(v, 100);
            s.add(i * 20_000L, v);
        }
        for (int i = 30; i < 120; i++) { // then 30 minutes of 1 ms
            Arrays.fill(v, 1);
            s.add(i * 20_000L, v);
        }
        assertThat(s.query(0).values().get(WorkloadMetric.LATENCY_MS)[2]).isEqualTo(1.0);
        assertThat(s.query(0).samples()).isBetween(15L, 30L);
    }
}
