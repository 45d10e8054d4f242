package io.opensdrs.model.romano;

import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ShortCalibrationDesignTest {

    @Test
    void isAtMostATenthOfRomanosSixteenHundredTests() {
        List<Workload> design = ShortCalibrationDesign.points();
        assertThat(design).hasSize(150).doesNotHaveDuplicates();
        assertThat(design.size() * 10).isLessThanOrEqualTo(1600);
    }

    @Test
    void theRunOrderIsTheDesignAndItsFirstQuarterAlreadySpansRAndX() {
        List<Workload> order = ShortCalibrationDesign.runOrder();
        assertThat(new HashSet<>(order)).isEqualTo(new HashSet<>(ShortCalibrationDesign.points()));
        assertThat(order).isNotEqualTo(ShortCalibrationDesign.points());
        List<Workload> prefix = order.subList(0, order.size() / 4);
        assertThat(spread(prefix, true)).isGreaterThanOrEqualTo(RomanoModel.CALIBRATION_SPREAD);
        assertThat(spread(prefix, false)).isGreaterThanOrEqualTo(RomanoModel.CALIBRATION_SPREAD);
    }

    /**
     * Romano's E2 (Table 4) measured on the short design: the fit is calibrated, finds E2's terms,
     * and predicts Romano's whole test vector (Z 1–64 KiB, O 1–64, beyond the design's O) within the
     * noise, as a fit to the test vector itself does.
     */
    @Test
    void aFitToTheShortDesignPredictsRomanosTestVector() {
        Random rnd = new Random(7);
        RomanoModel model = new RomanoModel();
        model.fit(RomanoModelTest.measure(ShortCalibrationDesign.points(), rnd));
        assertThat(model.isCalibrated()).isTrue();
        RomanoModel full = new RomanoModel();
        full.fit(RomanoModelTest.measure(RomanoModelTest.testVector(), rnd));
        double shortError = 0;
        double fullError = 0;
        List<Workload> vector = RomanoModelTest.testVector();
        for (Workload w : vector) {
            shortError += Math.abs(model.predict(w).latencyMs() - RomanoModelTest.truth(w));
            fullError += Math.abs(full.predict(w).latencyMs() - RomanoModelTest.truth(w));
        }
        shortError /= vector.size();
        fullError /= vector.size();
        assertThat(shortError).isLessThan(0.15); // the measurement noise's σ
        assertThat(shortError).isLessThan(3 * fullError + 0.02);
    }

    private static double spread(List<Workload> ws, boolean read) {
        double lo = 1;
        double hi = 0;
        for (Workload w : ws) {
            double v = read ? w.readFraction() : w.randomFraction();
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi - lo;
    }
}
