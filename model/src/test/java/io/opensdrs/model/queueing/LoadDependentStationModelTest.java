package io.opensdrs.model.queueing;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LoadDependentStationModelTest {

    /** A known load-dependent station: μ(t, s) = 0.004·t·s + 0.25·t + 0.03·s + 1.2 ms (Noorshams Eq. 1 form). */
    static double mu(double t, double s) {
        return 0.004 * t * s + 0.25 * t + 0.03 * s + 1.2;
    }

    private static List<Observation> calibrationRuns(Random rnd, double noise) {
        List<Observation> obs = new ArrayList<>();
        // Noorshams' calibration grid: request sizes 4..64 KB, load up to 100 threads in steps of 10.
        for (int s = 4; s <= 64; s *= 2) {
            for (int t = 10; t <= 100; t += 10) {
                obs.add(new Observation(new Workload(t, s, 1, 1), mu(t, s) * (1 + noise * rnd.nextGaussian())));
            }
        }
        return obs;
    }

    private static double meanRelativeError(LoadDependentStationModel model, int[] threads, int[] sizes) {
        double sum = 0;
        int n = 0;
        for (int t : threads) {
            for (int s : sizes) {
                double predicted = model.predict(new Workload(t, s, 1, 1)).latencyMs();
                sum += Math.abs(predicted - mu(t, s)) / mu(t, s);
                n++;
            }
        }
        return sum / n;
    }

    @Test
    void calibratesToUnder5PercentMeanErrorOnInterpolationAndExtrapolation() {
        LoadDependentStationModel model = new LoadDependentStationModel();
        var fit = model.fit(calibrationRuns(new Random(11), 0.05));
        assertThat(fit.rSquared()).isGreaterThan(0.98);
        // Interpolation: loads between the calibration points.
        assertThat(meanRelativeError(model, new int[] {15, 33, 47, 72, 95}, new int[] {4, 12, 24, 48})).isLessThan(0.05);
        // Extrapolation: 25 % and 50 % above the calibrated range (Noorshams Table II).
        assertThat(meanRelativeError(model, new int[] {125, 150}, new int[] {4, 8, 16, 32, 64})).isLessThan(0.05);
    }

    @Test
    void prunesInsignificantTerms() {
        Random rnd = new Random(3);
        double[] t = new double[60];
        double[] s = new double[60];
        double[] r = new double[60];
        int i = 0;
        for (int size = 4; size <= 64; size *= 2) {
            for (int threads = 10; threads <= 120; threads += 10) {
                t[i] = threads;
                s[i] = size;
                // No t·s interaction and no s effect: only t and the constant matter.
                r[i] = 0.3 * threads + 2 + 0.2 * rnd.nextGaussian();
                i++;
            }
        }
        ServiceTimeRegression reg = ServiceTimeRegression.calibrate(t, s, null, r, ServiceTimeRegression.equation1Terms(), 0.05);
        assertThat(reg.terms()).extracting(Object::toString).containsExactly("t");
        assertThat(reg.coefficients()[1]).isCloseTo(0.3, within(0.01));
    }

    @Test
    void throughputFollowsLittlesLaw() {
        LoadDependentStationModel model = new LoadDependentStationModel();
        model.fit(calibrationRuns(new Random(1), 0));
        var p = model.predict(new Workload(40, 16, 1, 1));
        assertThat(p.latencyMs()).isCloseTo(mu(40, 16), within(1e-6));
        assertThat(p.iops()).isCloseTo(40 / mu(40, 16) * 1000, within(1e-3));
    }

    @Test
    void aRequestClassItWasNotCalibratedOnIsPredictedWithTheSlowestCalibratedStation() {
        // Calibrated on random reads only, as the injector does; a balancer still asks about a
        // storage vMotion's sequential copy and must get an answer, not an exception.
        LoadDependentStationModel model = new LoadDependentStationModel();
        model.fit(calibrationRuns(new Random(3), 0));
        Workload sequentialRead = new Workload(16, 64, 1, 0);
        var p = model.predict(sequentialRead);
        assertThat(p.latencyMs()).isCloseTo(mu(16, 64), within(1e-6));
        assertThat(model.predict(new Workload(16, 64, 0, 0)).latencyMs()).isCloseTo(mu(16, 64), within(1e-6));
    }
}
