package io.opensdrs.balance.sleds;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SledsControllerTest {

    static final ServiceClass GOLD = new ServiceClass("gold", 10, 500, 50e6);
    static final ServiceClass BRONZE = new ServiceClass("bronze", 50, 200, 20e6);

    @Test
    void whenGoldMissesItsSloTheBronzeStreamOverItsDemandBoundIsTightenedFirst() {
        List<StreamSample> samples = List.of(
                new StreamSample("g1", "gold", 400, 4e6, 18),        // gold misses 10 ms
                new StreamSample("b-hog", "bronze", 900, 9e6, 20),   // over bronze's 200 IOPS demand bound
                new StreamSample("b-ok", "bronze", 100, 1e6, 20));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, BRONZE), samples, Map.of());
        assertThat(d.classesMissingSlo()).containsExactly("gold");
        // IOPS-weighted: (900 x 20 + 100 x 20) / 1000
        assertThat(d.classLatencyMs()).containsEntry("gold", 18.0).containsEntry("bronze", 20.0);
        assertThat(d.limits().get("b-hog").iopsLimit()).isEqualTo(720.0);     // 20 % step, not below 200
        assertThat(d.limits().get("b-ok").throttled()).isFalse();
        assertThat(d.limits().get("g1").throttled()).isFalse();
    }

    @Test
    void withoutOverDemandStreamsTheClassWithMostHeadroomGivesWay() {
        List<StreamSample> samples = List.of(
                new StreamSample("g1", "gold", 400, 4e6, 18),
                new StreamSample("b1", "bronze", 150, 1e6, 5),
                new StreamSample("b2", "bronze", 180, 1e6, 5));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, BRONZE), samples, Map.of());
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
}
