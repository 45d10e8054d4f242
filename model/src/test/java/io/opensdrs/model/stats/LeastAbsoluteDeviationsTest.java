package io.opensdrs.model.stats;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LeastAbsoluteDeviationsTest {

    @Test
    void aConstantAloneIsTheMedian() {
        double[] y = {3, 1, 40, 7, 2, 9, 5};
        double[][] ones = new double[y.length][];
        for (int i = 0; i < y.length; i++) {
            ones[i] = new double[]{1};
        }
        LeastAbsoluteDeviations.Result r = LeastAbsoluteDeviations.fit(ones, y);
        assertThat(r.coefficients()[0]).isCloseTo(5, within(1e-6));
        double best = Arrays.stream(y).map(v -> Math.abs(v - 5)).sum();
        assertThat(r.sumOfAbsoluteResiduals()).isCloseTo(best, within(1e-6));
        assertThat(r.lowerBound()).isLessThanOrEqualTo(best + 1e-9).isGreaterThan(best * 0.999);
    }

    @Test
    void aGrossOutlierDoesNotMoveTheLine() {
        // Least squares would tilt toward the outlier; the L1 line passes through the other points.
        int n = 21;
        double[][] x = new double[n][];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = new double[]{1, i};
            y[i] = 2 + 0.5 * i;
        }
        y[20] += 1000;
        LeastAbsoluteDeviations.Result r = LeastAbsoluteDeviations.fit(x, y);
        assertThat(r.coefficients()[0]).isCloseTo(2, within(1e-4));
        assertThat(r.coefficients()[1]).isCloseTo(0.5, within(1e-5));
        assertThat(r.sumOfAbsoluteResiduals()).isCloseTo(1000, within(1e-3));
        assertThat(r.lowerBound()).isLessThanOrEqualTo(r.sumOfAbsoluteResiduals()).isGreaterThan(999);
    }

    @Test
    void beatsLeastSquaresOnItsOwnObjectiveAndTheBoundHoldsBelow() {
        Random rnd = new Random(7);
        int n = 400;
        double[][] x = new double[n][];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double o = Math.pow(2, rnd.nextInt(7));
            double z = 1024 * Math.pow(2, rnd.nextInt(7));
            x[i] = new double[]{1, o, z, o * z};
            // A hockey stick in o (a service-time floor, then a queue) with skewed noise.
            y[i] = Math.max(5, 0.8 * o) + 1e-4 * z + Math.exp(rnd.nextGaussian());
        }
        LeastAbsoluteDeviations.Result lad = LeastAbsoluteDeviations.fit(x, y);
        double ols = Arrays.stream(LeastSquaresFit.of(x, y, false).residuals()).map(Math::abs).sum();
        assertThat(lad.sumOfAbsoluteResiduals()).isLessThan(ols);
        assertThat(lad.lowerBound()).isLessThanOrEqualTo(lad.sumOfAbsoluteResiduals())
                .isGreaterThan(0.999 * lad.sumOfAbsoluteResiduals());
    }

    @Test
    void refusesTooFewPointsAnEmptyColumnAndDependentColumns() {
        assertThatThrownBy(() -> LeastAbsoluteDeviations.fit(new double[][]{{1, 2}, {1, 3}}, new double[]{1, 2}))
                .hasMessageContaining("more points than coefficients");
        assertThatThrownBy(() -> LeastAbsoluteDeviations.fit(new double[][]{{1, 0}, {1, 0}, {1, 0}}, new double[]{1, 2, 3}))
                .hasMessageContaining("column 1 is all zeros");
        assertThatThrownBy(() -> LeastAbsoluteDeviations.fit(new double[][]{{1}, {1}, {1}}, new double[]{1, 2}))
                .hasMessageContaining("3 rows but y has 2");
        assertThatThrownBy(() -> LeastAbsoluteDeviations.fit(new double[][]{{1, 2}, {2, 4}, {3, 6}}, new double[]{1, 2, 3}))
                .hasMessageContaining("linearly dependent");
    }
}
