package io.opensdrs.balance.sleds;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SledsControllerTest {

    static final ServiceClass GOLD = new ServiceClass("gold", 10, 500, 50e6);
    static final ServiceClass BRONZE = new ServiceClass("bronze", 50, 200, 20e6);

    /** A class whose streams together stay far under its demand bounds: only the headroom step can tighten it. */
    static final ServiceClass ROOMY = new ServiceClass("bronze", 50, 10_000, 1e9);

    @Test
    void whenGoldMissesItsSloTheStreamsOfTheClassOverItsDemandBoundAreTightenedFirst() {
        List<StreamSample> samples = List.of(
                new StreamSample("g1", "gold", 400, 4e6, 18),        // gold misses 10 ms
                new StreamSample("b-hog", "bronze", 900, 9e6, 20),   // bronze: 1,000 IOPS together, over its 200
                new StreamSample("b-ok", "bronze", 100, 1e6, 20));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, BRONZE), samples, Map.of());
        assertThat(d.classesMissingSlo()).containsExactly("gold");
        // IOPS-weighted: (900 x 20 + 100 x 20) / 1000
        assertThat(d.classLatencyMs()).containsEntry("gold", 18.0).containsEntry("bronze", 20.0);
        assertThat(d.limits().get("b-hog").iopsLimit()).isEqualTo(720.0);     // 20 % step, not below its fair share, 100
        // b-ok asks for 100, no more than an equal part of the 200: its fair share is all of it, and the step stops there
        assertThat(d.limits().get("b-ok").iopsLimit()).isEqualTo(100.0);
        assertThat(d.limits().get("g1").throttled()).isFalse();
    }

    /**
     * SLEDS §3: "bounds on demand apply to the whole group". Two bronze streams each under the
     * class's 200 IOPS but 250 together are over it; step after step they are held to 200
     * together, each to its max-min fair share (100 and 100: both ask for more than that), not
     * below (bronze at 45 ms has no headroom under its 50-ms bound for the moderate-demand step to
     * take more).
     */
    @Test
    void theDemandBoundIsTheClassesItsStreamsTogetherHeldToTheirShares() {
        SledsController c = new SledsController();
        Map<String, LeakyBucketLimit> limits = Map.of();
        double[] iops = {150, 100};
        for (int step = 0; step < 10; step++) {
            List<StreamSample> samples = List.of(new StreamSample("g1", "gold", 400, 4e6, 18),
                    new StreamSample("b1", "bronze", iops[0], iops[0] * 8192, 45), new StreamSample("b2", "bronze", iops[1], iops[1] * 8192, 45));
            limits = c.step(List.of(GOLD, BRONZE), samples, limits).limits();
            iops = new double[] {Math.min(iops[0], limits.get("b1").iopsLimit()), Math.min(iops[1], limits.get("b2").iopsLimit())};
        }
        assertThat(limits.get("b1").iopsLimit()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(limits.get("b2").iopsLimit()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
        // b2's demand falls: with the class under its bound (160) b1 keeps its limit (bronze still meets its SLO); over it
        // again (210), b2 using 30 of its 100: b2 is throttled, its demand unknown (a sample under its limit may be a lull),
        // and it keeps its equal part; b1 is held to the other
        List<StreamSample> samples = List.of(new StreamSample("g1", "gold", 400, 4e6, 18),
                new StreamSample("b1", "bronze", 120, 120 * 8192, 45), new StreamSample("b2", "bronze", 40, 40 * 8192, 45));
        SledsController.Decision d = c.step(List.of(GOLD, BRONZE), samples, limits);
        assertThat(d.limits().get("b1").iopsLimit()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
        samples = List.of(new StreamSample("g1", "gold", 400, 4e6, 18),
                new StreamSample("b1", "bronze", 180, 180 * 8192, 45), new StreamSample("b2", "bronze", 30, 30 * 8192, 45));
        d = c.step(List.of(GOLD, BRONZE), samples, d.limits());
        assertThat(d.limits().get("b1").iopsLimit()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.limits().get("b2").iopsLimit()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    /**
     * Two bulk streams held to a 5-IOPS class bound, sampled every second: a few IOs a second, so
     * each sample's split is noise. A split in proportion to those samples walked (each split a
     * fixed point, the noise its steps) until one stream had nearly all; the fair share keeps both
     * near half over a simulated hour.
     */
    @Test
    void streamsHeldAtAClassBoundKeepEqualSharesUnderTheNoiseOfOneSecondSamples() {
        ServiceClass tp = new ServiceClass("tp", 1, 10_000, 1e9);
        ServiceClass bulk = new ServiceClass("bulk", 10_000, 5, 1e9);
        SledsController c = new SledsController();
        Map<String, LeakyBucketLimit> limits = Map.of();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        double lowest = Double.POSITIVE_INFINITY;
        for (int second = 0; second < 3600; second++) {
            double[] counts = new double[2];
            for (int i = 0; i < 2; i++) {
                LeakyBucketLimit l = limits.get("o" + i);
                double rate = l == null || !l.throttled() ? 25 : l.iopsLimit(); // 8 OIO unthrottled: ~25 IOPS
                counts[i] = poisson(rnd, rate);
            }
            List<StreamSample> samples = List.of(new StreamSample("w", "tp", 40, 40 * 4096, 50, java.util.Set.of("ds")),
                    new StreamSample("o0", "bulk", counts[0], counts[0] * 8192, 3000, java.util.Set.of("ds")),
                    new StreamSample("o1", "bulk", counts[1], counts[1] * 8192, 3000, java.util.Set.of("ds")));
            limits = c.step(List.of(tp, bulk), samples, limits).limits();
            if (second >= 60) {
                lowest = Math.min(lowest, Math.min(limits.get("o0").iopsLimit(), limits.get("o1").iopsLimit()));
            }
        }
        assertThat(limits.get("o0").iopsLimit() + limits.get("o1").iopsLimit()).isLessThanOrEqualTo(5.0 * 1.25);
        assertThat(lowest).as("the smaller limit after the first minute, over the hour").isGreaterThanOrEqualTo(1.0);
    }

    private static double poisson(java.util.SplittableRandom rnd, double mean) {
        double l = Math.exp(-mean);
        double p = 1;
        int k = 0;
        do {
            k++;
            p *= rnd.nextDouble();
        } while (p > l);
        return k - 1;
    }

    @Test
    void withoutOverDemandStreamsTheClassWithMostHeadroomGivesWay() {
        List<StreamSample> samples = List.of(
                new StreamSample("g1", "gold", 400, 4e6, 18),
                new StreamSample("b1", "bronze", 150, 1e6, 5),
                new StreamSample("b2", "bronze", 180, 1e6, 5));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, ROOMY), samples, Map.of());
        assertThat(d.limits().get("b2").iopsLimit()).isEqualTo(144.0);
        assertThat(d.limits().get("b1").throttled()).isFalse();
    }

    @Test
    void aStreamHeldAtTheMinimumIsNotStarvedOfBytesStepAfterStep() {
        SledsController c = new SledsController();
        Map<String, LeakyBucketLimit> limits = Map.of();
        double iops = 40;
        for (int step = 0; step < 30; step++) {
            // gold keeps missing; b1 (8 KiB IOs, under its demand bound) gives way each second and runs at its limit
            List<StreamSample> samples = List.of(new StreamSample("g1", "gold", 400, 4e6, 18),
                    new StreamSample("b1", "bronze", iops, iops * 8192, 5));
            limits = c.step(List.of(GOLD, BRONZE), samples, limits).limits();
            iops = Math.min(limits.get("b1").iopsLimit(), limits.get("b1").bytesPerSecondLimit() / 8192);
        }
        assertThat(limits.get("b1").iopsLimit()).isEqualTo(10.0);
        assertThat(limits.get("b1").bytesPerSecondLimit()).isEqualTo(10 * 8192.0);
    }

    @Test
    void relaxesGraduallyWhenAllIsWellAndRelaxesAClassThatMissesItsSlo() {
        Map<String, LeakyBucketLimit> limits = Map.of("b1", new LeakyBucketLimit("b1", 100, 1e6, 0.1),
                "g1", new LeakyBucketLimit("g1", 100, 1e6, 0.1));
        List<StreamSample> fine = List.of(new StreamSample("g1", "gold", 100, 1e6, 5), new StreamSample("b1", "bronze", 100, 1e6, 5));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, BRONZE), fine, limits);
        assertThat(d.limits().get("b1").iopsLimit()).isCloseTo(110.0, org.assertj.core.data.Offset.offset(1e-9));
        List<StreamSample> goldLate = List.of(new StreamSample("g1", "gold", 100, 1e6, 30), new StreamSample("b1", "bronze", 100, 1e6, 5));
        d = new SledsController().step(List.of(GOLD, BRONZE), goldLate, limits);
        assertThat(d.limits().get("g1").throttled()).isFalse();
    }
    /**
     * SLEDS §3: throttling a stream that shares no resource with the stream missing its SLO does
     * not help it. gold's g1 is slow on ds-a (its g2 on ds-b is fast; the class's mean misses):
     * the bronze hog on ds-a is tightened, the one on ds-b is not, and a limit left from an
     * earlier step on ds-b is relaxed although gold still misses.
     */
    @Test
    void onlyStreamsSharingADatastoreWithTheSlowStreamAreTightenedAndOthersRelax() {
        List<StreamSample> samples = List.of(
                new StreamSample("g1", "gold", 400, 4e6, 30, Set.of("ds-a")),
                new StreamSample("g2", "gold", 400, 4e6, 2, Set.of("ds-b")),   // gold: 16 ms, misses 10
                new StreamSample("hog-a", "bronze", 900, 9e6, 20, Set.of("ds-a")),
                new StreamSample("hog-b", "bronze", 900, 9e6, 20, Set.of("ds-b")),
                new StreamSample("old-b", "bronze", 100, 1e6, 20, Set.of("ds-b")));
        Map<String, LeakyBucketLimit> limits = Map.of("old-b", new LeakyBucketLimit("old-b", 120, 1.2e6, 0.1));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, BRONZE), samples, limits);
        assertThat(d.classesMissingSlo()).containsExactly("gold");
        assertThat(d.limits().get("hog-a").iopsLimit()).isEqualTo(720.0);
        assertThat(d.limits().get("hog-b").throttled()).isFalse();
        assertThat(d.limits().get("old-b").iopsLimit()).isCloseTo(132.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.actions()).contains("tighten hog-a to 720 IOPS (its class is over its demand bound; competes with g1 on ds-a)");
    }

    /** Without an over-demand competitor, the headroom step picks among competitors only: b-b on ds-b is left alone. */
    @Test
    void theHeadroomStepLeavesStreamsOnOtherDatastoresAlone() {
        List<StreamSample> samples = List.of(
                new StreamSample("g1", "gold", 400, 4e6, 18, Set.of("ds-a")),
                new StreamSample("b-a", "bronze", 150, 1e6, 5, Set.of("ds-a")),
                new StreamSample("b-b", "bronze", 180, 1e6, 5, Set.of("ds-b")));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, ROOMY), samples, Map.of());
        assertThat(d.limits().get("b-a").iopsLimit()).isEqualTo(120.0);
        assertThat(d.limits().get("b-b").throttled()).isFalse();
    }

    @Test
    void aStreamWhoseResourcesAreUnknownCompetesWithAll() {
        StreamSample known = new StreamSample("a", "gold", 1, 1, 1, Set.of("ds-a"));
        assertThat(known.competesWith(new StreamSample("b", "gold", 1, 1, 1, Set.of("ds-b")))).isFalse();
        assertThat(known.competesWith(new StreamSample("c", "gold", 1, 1, 1, Set.of("ds-b", "ds-a")))).isTrue();
        assertThat(known.competesWith(new StreamSample("d", "gold", 1, 1, 1))).isTrue();
    }
}
