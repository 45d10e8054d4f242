package io.opensdrs.balance.pesto;

import io.opensdrs.balance.Estimate;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Prediction;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** How the cost-benefit bounds a latency it predicts from an observed one (Pesto §5.4.1, on bounds). */
class CostBenefitTest {

    private static Prediction level(double latency, double half, double changeError) {
        return Prediction.of(10, latency, new Interval(latency - half, latency + half, 0.95), changeError);
    }

    /** Observed now, only the change predicted: the change's error bounds it, not the level's. */
    @Test
    void anObservedLatencyShiftedByAPredictedChangeCarriesTheChangesError() {
        Estimate e = CostBenefit.anchored(level(40, 10, 0.1), level(50, 10, 0.1), 55, true);
        assertThat(e.value()).isCloseTo(45, within(1e-9));
        assertThat(e.lower()).isCloseTo(44, within(1e-9));
        assertThat(e.upper()).isCloseTo(46, within(1e-9));
    }

    /** Nothing observed to anchor on, or a model that does not know its change error: the level's interval. */
    @Test
    void otherwiseTheAfterPredictionsIntervalShifted() {
        Estimate unobserved = CostBenefit.anchored(level(40, 10, 0.1), level(50, 10, 0.1), 55, false);
        assertThat(unobserved.lower()).isCloseTo(35, within(1e-9));
        assertThat(unobserved.upper()).isCloseTo(55, within(1e-9));
        Estimate unknown = CostBenefit.anchored(level(40, 10, Double.NaN), level(50, 10, 0.1), 55, true);
        assertThat(unknown.lower()).isCloseTo(35, within(1e-9));
        assertThat(unknown.upper()).isCloseTo(55, within(1e-9));
    }

    /** The copy's cost (Eq. 10) is a change too: the increase it causes carries the change's error. */
    @Test
    void theCopysIncreaseCarriesTheChangesError() {
        Estimate known = CostBenefit.increase(level(80, 20, 0.1), level(50, 10, 0.1), 60);
        assertThat(known.value()).isCloseTo(30, within(1e-9));
        assertThat(known.lower()).isCloseTo(27, within(1e-9));
        assertThat(known.upper()).isCloseTo(33, within(1e-9));
        Estimate unknown = CostBenefit.increase(level(80, 20, Double.NaN), level(50, 10, Double.NaN), 60);
        assertThat(unknown.lower()).isCloseTo(10, within(1e-9));
        assertThat(unknown.upper()).isCloseTo(50, within(1e-9));
        // adding the copy's IOs never makes a datastore faster, whatever the level interval says
        Estimate wide = CostBenefit.increase(level(80, 40, Double.NaN), level(50, 10, Double.NaN), 60);
        assertThat(wide.lower()).isZero();
        assertThat(wide.upper()).isCloseTo(70, within(1e-9));
    }
}
