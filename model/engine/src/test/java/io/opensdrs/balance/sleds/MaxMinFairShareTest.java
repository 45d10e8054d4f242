package io.opensdrs.balance.sleds;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MaxMinFairShareTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void aStreamAskingLessThanAnEqualPartGetsItsDemandAndTheOthersShareTheRest() {
        assertThat(MaxMinFairShare.divide(200, new double[] {900, 100})).containsExactly(100, 100);
        assertThat(MaxMinFairShare.divide(200, new double[] {180, 30})).containsExactly(170, 30);
        assertThat(MaxMinFairShare.divide(90, new double[] {INF, 10, INF})).containsExactly(40, 10, 40);
    }

    @Test
    void streamsHeldAtTheirLimitsShareEquallyWhateverTheLastSplitWas() {
        assertThat(MaxMinFairShare.divide(5, new double[] {INF, INF})).containsExactly(2.5, 2.5);
    }

    @Test
    void demandsUnderTheBoundAreGivenInFull() {
        assertThat(MaxMinFairShare.divide(200, new double[] {50, 60})).containsExactly(50, 60);
        assertThat(MaxMinFairShare.divide(200, new double[] {})).isEmpty();
    }

    @Test
    void aNegativeOrUnknownDemandOrBoundIsRefusedNamingIt() {
        assertThatThrownBy(() -> MaxMinFairShare.divide(5, new double[] {1, -1})).hasMessage("demands[1] must be >= 0, got -1.0");
        assertThatThrownBy(() -> MaxMinFairShare.divide(5, new double[] {Double.NaN})).hasMessageContaining("demands[0]");
        assertThatThrownBy(() -> MaxMinFairShare.divide(-5, new double[] {1})).hasMessageContaining("bound");
    }
}
