package io.opensdrs.balance.sleds;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.opensdrs.balance.sleds.SloCompliance.Outcome.MET;
import static io.opensdrs.balance.sleds.SloCompliance.Outcome.MISSED;
import static io.opensdrs.balance.sleds.SloCompliance.Outcome.OVER_DEMAND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SloComplianceTest {

    static final ServiceClass GOLD = new ServiceClass("gold", 10, 500, 50e6, 5);

    @Test
    void aWindowOverTheBoundIsAMissOnlyWhileTheClassDemandsNoMoreThanItsBounds() {
        assertThat(SloCompliance.outcome(GOLD, 10, 400, 1e6)).isEqualTo(MET);
        assertThat(SloCompliance.outcome(GOLD, 10.1, 400, 1e6)).isEqualTo(MISSED);
        assertThat(SloCompliance.outcome(GOLD, 30, 501, 1e6)).isEqualTo(OVER_DEMAND);
        assertThat(SloCompliance.outcome(GOLD, 30, 400, 51e6)).isEqualTo(OVER_DEMAND);
    }

    @Test
    void eachWindowCountsOnceOverTheHorizonAndTheShareIsJudgedAgainstWhatTheClassAllows() {
        SloCompliance c = new SloCompliance(20_000); // 20 s of 1-s windows
        for (long w = 1; w <= 25; w++) {
            // the controller steps several times on one window: only its first outcome counts
            c.record("p1/gold", w * 1_000, w % 10 == 0 ? MISSED : MET);
            c.record("p1/gold", w * 1_000, MISSED);
        }
        c.record("p1/gold", 3_000, MISSED); // an older window, late
        // windows 6..25 kept: misses at 10 and 20
        assertThat(c.tally("p1/gold")).isEqualTo(new SloCompliance.Tally(20, 2));
        assertThat(c.tally("p1/gold").missedPct()).isEqualTo(10.0);
        assertThat(c.tally("p1/gold").compliant(GOLD)).isFalse();
        assertThat(c.tally("p1/gold").compliant(new ServiceClass("gold", 10, 500, 50e6, 10))).isTrue();
        c.record("p1/gold", 26_000, OVER_DEMAND);
        assertThat(c.tally("p1/gold")).isEqualTo(new SloCompliance.Tally(20, 2));
        // the agents fell back to 20-s windows: the horizon is a time span, so one such window ends all 1-s ones before it
        c.record("p1/gold", 46_000, MISSED);
        assertThat(c.tally("p1/gold")).isEqualTo(new SloCompliance.Tally(1, 1));
        assertThat(c.tally("p1/other").compliant(GOLD)).isNull();
        c.retain(Set.of("p1/other"));
        assertThat(c.tally("p1/gold").windows()).isZero();
    }

    @Test
    void theControllerSaysWhatEachClassWindowWas() {
        List<StreamSample> samples = List.of(new StreamSample("g1", "gold", 400, 4e6, 18),
                new StreamSample("b1", "bronze", 150, 1e6, 5), new StreamSample("b2", "bronze", 100, 1e6, 60));
        SledsController.Decision d = new SledsController().step(List.of(GOLD, new ServiceClass("bronze", 20, 200, 20e6)), samples, Map.of());
        // bronze: (150 x 5 + 100 x 60) / 250 = 27 ms over its 20, but 250 IOPS together are over its 200
        assertThat(d.classOutcomes()).containsEntry("gold", MISSED).containsEntry("bronze", OVER_DEMAND);
    }

    @Test
    void aClassAllowsFrom0To100PercentOfItsWindowsMissed() {
        assertThat(new ServiceClass("gold", 10, 500, 50e6).allowedMissPct()).isEqualTo(ServiceClass.DEFAULT_ALLOWED_MISS_PCT);
        assertThatThrownBy(() -> new ServiceClass("gold", 10, 500, 50e6, 101)).hasMessageContaining("allowedMissPct");
        assertThatThrownBy(() -> new ServiceClass("gold", 10, 500, 50e6, -1)).hasMessageContaining("allowedMissPct");
    }
}
