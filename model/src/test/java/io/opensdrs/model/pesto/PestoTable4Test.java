package io.opensdrs.model.pesto;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Pesto Table 4 (Gulati et al., SoCC'11, §6.1), transcribed from the seed text:
 * slope m (ms), intercept C (ms), peak IOPS and congestion threshold at α = 0.8.
 * Peak IOPS = 1/m (Eq. 4) as printed, truncated to an integer; threshold = C/(1 − α)
 * (Eq. 9) as printed, to the whole ms.
 */
class PestoTable4Test {

    private static final double ALPHA = 0.8;

    //               name          m      C     peak  threshold
    private static final Object[][] TABLE_4 = {
            {"Datastore1", 0.55, 5.18, 1818, 26},
            {"Datastore2", 0.54, 5.93, 1851, 30},
            {"Datastore3", 0.22, 5.90, 4545, 30},
            {"Datastore4", 0.48, 5.10, 2083, 25},
            {"Datastore5", 0.27, 4.28, 3703, 22},
            {"Datastore6", 0.29, 4.70, 3448, 24},
    };

    @Test
    void everyRowExceptDatastore7FollowsFromItsSlopeAndIntercept() {
        for (Object[] row : TABLE_4) {
            PestoQuantities q = new PestoQuantities((double) row[1], (double) row[2]);
            // Printed peaks are 1000/m truncated: allow the fraction dropped.
            assertThat(q.peakIops()).as("%s peak IOPS", row[0]).isBetween((int) row[3] - 0.0, (int) row[3] + 1.0);
            // Printed thresholds are whole ms, but not consistently rounded: Datastore4's 25.5 is
            // printed 25 and Datastore5's 21.4 is printed 22 (the paper presumably worked from
            // unrounded m and C). So "within rounding" here means within 1 ms of Eq. 9.
            assertThat(q.latencyAtFractionOfPeak(ALPHA)).as("%s threshold", row[0]).isCloseTo((int) row[4], within(1.0));
        }
    }

    /**
     * Datastore7 (m = 1.02, C = 11.12) is printed with peak 1000 IOPS and threshold 60 ms.
     * Eq. 4 gives 1000/1.02 = 980 IOPS and Eq. 9 gives 11.12/0.2 = 55.6 ms. The peak is
     * plausibly rounded to a round number; the threshold differs by 4.4 ms, more than
     * rounding, and is consistent with the "global maximum" or a manual override the paper
     * mentions rather than with Eq. 9. We keep Eq. 9 and record the discrepancy here.
     */
    @Test
    void datastore7AsPrintedDiffersFromEquations4And9() {
        PestoQuantities q = new PestoQuantities(1.02, 11.12);
        assertThat(q.peakIops()).isCloseTo(980.4, within(0.1));
        assertThat(q.peakIops()).isCloseTo(1000, within(0.02 * 1000));
        assertThat(q.latencyAtFractionOfPeak(ALPHA)).isCloseTo(55.6, within(1e-9));
        // Well outside the 1 ms the other rows need.
        assertThat(60 - q.latencyAtFractionOfPeak(ALPHA)).as("printed 60 ms vs Eq. 9").isGreaterThan(4);
    }

    @Test
    void derivedQuantitiesAreConsistentWithEachOther() {
        PestoQuantities q = new PestoQuantities(0.55, 5.18);
        // Running at Q_α outstanding IOs gives throughput α·peak (Eq. 13) and latency L_α (Eq. 9).
        double qAlpha = q.outstandingIosAtFractionOfPeak(ALPHA);
        assertThat(q.iops(qAlpha)).isCloseTo(ALPHA * q.peakIops(), within(1e-6));
        assertThat(q.latencyMs(qAlpha)).isCloseTo(q.latencyAtFractionOfPeak(ALPHA), within(1e-9));
        // Q_max inverts Eq. 12.
        assertThat(q.latencyMs(q.maxOutstandingIos(30))).isCloseTo(30, within(1e-9));
    }
}
