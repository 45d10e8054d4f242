package io.opensdrs.model.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ResidualVarianceTest {

    /** n residuals at fitted values spread over 1–200 ms with standard deviation sd(ŷ). */
    private static ResidualVariance fitted(int n, java.util.function.DoubleUnaryOperator sd, long seed) {
        Random rnd = new Random(seed);
        double[] f = new double[n];
        double[] e = new double[n];
        for (int i = 0; i < n; i++) {
            f[i] = 1 + 199 * rnd.nextDouble();
            e[i] = sd.applyAsDouble(f[i]) * rnd.nextGaussian();
        }
        return ResidualVariance.fit(f, e, 1.0);
    }

    @Test
    void errorsProportionalToTheFittedValueGiveExponentTwo() {
        ResidualVariance v = fitted(20000, y -> 0.1 * y, 1);
        assertThat(v.exponent()).isCloseTo(2, within(0.06));
        assertThat(Math.sqrt(v.at(10))).isCloseTo(1.0, within(0.1));
        assertThat(Math.sqrt(v.at(100))).isCloseTo(10.0, within(1.0));
    }

    @Test
    void constantErrorsGiveExponentZero() {
        // ln e² scatters with the variance of ln χ²₁ (4.93): γ1's standard error is ≈ 0.017 here.
        ResidualVariance v = fitted(20000, y -> 3.0, 2);
        assertThat(v.exponent()).isCloseTo(0, within(0.06));
        assertThat(Math.sqrt(v.at(5))).isCloseTo(3.0, within(0.3));
        assertThat(Math.sqrt(v.at(150))).isCloseTo(3.0, within(0.3));
    }

    @Test
    void quantileOfNormalResidualsIsTheNormalOne() {
        ResidualVariance v = fitted(20000, y -> 0.1 * y, 3);
        assertThat(v.quantile(0.95)).isCloseTo(1.96, within(0.06));
        assertThat(v.quantile(0.50)).isCloseTo(0.674, within(0.03));
    }

    @Test
    void heavyTailedResidualsWidenTheQuantile() {
        // Student t with 3 degrees of freedom: its two-sided 95 % point is 3.18 scale units.
        Random rnd = new Random(4);
        int n = 20000;
        double[] f = new double[n];
        double[] e = new double[n];
        for (int i = 0; i < n; i++) {
            f[i] = 1 + 199 * rnd.nextDouble();
            double chi = 0;
            for (int k = 0; k < 3; k++) {
                double g = rnd.nextGaussian();
                chi += g * g;
            }
            e[i] = 0.1 * f[i] * rnd.nextGaussian() / Math.sqrt(chi / 3);
        }
        ResidualVariance v = ResidualVariance.fit(f, e, 1.0);
        // Scale-free: |e| / σ(ŷ) covers 95 % at its own quantile, whatever σ(ŷ)'s level.
        int inside = 0;
        for (int i = 0; i < n; i++) {
            if (Math.abs(e[i]) <= v.quantile(0.95) * Math.sqrt(v.at(f[i]))) {
                inside++;
            }
        }
        assertThat(inside / (double) n).isCloseTo(0.95, within(0.002));
        assertThat(v.quantile(0.95)).isGreaterThan(2.2);
    }

    @Test
    void fallsBackToTheConstantWhenNothingCanBeEstimated() {
        ResidualVariance few = ResidualVariance.fit(new double[] {1, 2}, new double[] {0.1, -0.2}, 4.0);
        assertThat(few.at(1)).isEqualTo(4.0);
        assertThat(few.at(1000)).isEqualTo(4.0);
        assertThat(few.exponent()).isZero();
        assertThat(few.quantile(0.95)).isNaN();
        ResidualVariance allNegative = ResidualVariance.fit(new double[] {-1, -2, -3}, new double[] {0.1, 0.2, 0.3}, 2.0);
        assertThat(allNegative.at(5)).isEqualTo(2.0);
        ResidualVariance sameFitted = ResidualVariance.fit(new double[] {5, 5, 5, 5}, new double[] {1, -1, 2, -2}, 2.5);
        assertThat(sameFitted.at(5)).isEqualTo(2.5);
    }

    @Test
    void fittedValuesAtOrBelowZeroAreReadAtTheSmallestPositiveOne() {
        ResidualVariance v = fitted(2000, y -> 0.1 * y, 5);
        assertThat(v.at(-3)).isEqualTo(v.at(0)).isEqualTo(v.at(1e-9));
        assertThat(v.at(-3)).isPositive().isFinite();
    }

    @Test
    void rejectsMismatchedArrays() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResidualVariance.fit(new double[3], new double[2], 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 fitted values, 2 residuals");
    }

    /** The proportional form recovers a 10 % relative error from few points, and refuses too few. */
    @Test
    void proportionalFormReadsTheRelativeErrorFromAFewPoints() {
        Random rnd = new Random(5);
        double[] f = new double[30];
        double[] e = new double[30];
        double s2 = 0;
        for (int trial = 0; trial < 200; trial++) {
            for (int i = 0; i < f.length; i++) {
                f[i] = 5 + i;
                e[i] = 0.1 * f[i] * rnd.nextGaussian();
            }
            ResidualVariance v = ResidualVariance.proportional(f, e, 2);
            assertThat(v.exponent()).isEqualTo(2);
            assertThat(v.at(40) / v.at(10)).isCloseTo(16, within(1e-9));
            s2 += v.at(10) / 100 / 200;
        }
        // these are the true errors, not a fit's residuals, so the n − p divisor gives E[s²] = 0.01·n/(n − p)
        assertThat(s2).isCloseTo(0.01 * 30 / 28, within(0.0005));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResidualVariance.proportional(new double[2], new double[2], 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than 2 points");
    }
}
