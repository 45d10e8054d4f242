package io.opensdrs.model.queueing;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class QueueingNetworkModelTest {

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

    private static double meanRelativeError(QueueingNetworkModel model, int[] threads, int[] sizes) {
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
        QueueingNetworkModel model = new QueueingNetworkModel();
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
        QueueingNetworkModel model = new QueueingNetworkModel();
        model.fit(calibrationRuns(new Random(1), 0));
        var p = model.predict(new Workload(40, 16, 1, 1));
        assertThat(p.latencyMs()).isCloseTo(mu(40, 16), within(1e-6));
        assertThat(p.iops()).isCloseTo(40 / mu(40, 16) * 1000, within(1e-3));
    }

    @Test
    void aRequestClassItWasNotCalibratedOnIsPredictedWithTheSlowestCalibratedStation() {
        // Calibrated on random reads only, as the injector does; a balancer still asks about a
        // storage vMotion's sequential copy and must get an answer, not an exception.
        QueueingNetworkModel model = new QueueingNetworkModel();
        model.fit(calibrationRuns(new Random(3), 0));
        Workload sequentialRead = new Workload(16, 64, 1, 0);
        var p = model.predict(sequentialRead);
        assertThat(p.latencyMs()).isCloseTo(mu(16, 64), within(1e-6));
        assertThat(model.predict(new Workload(16, 64, 0, 0)).latencyMs()).isCloseTo(mu(16, 64), within(1e-6));
    }

    /**
     * A known two-station network (cache, then RAID with miss share p1 falling with ln f): the
     * response times and cache/RAID modes it produces are all the calibration sees (§IV-D.2).
     */
    private static final double[] CACHE = {0.02, 0.3};          // μ_cache(a) = 0.02·a + 0.3 ms
    private static final double[] RAID = {0.004, 0.35, 0.05, 5}; // μ_raid(a, s) = 0.004·a·s + 0.35·a + 0.05·s + 5 ms

    private static double p1(double fileSetGb) {
        return Math.min(0.95, 0.2 + 0.15 * Math.log(fileSetGb));
    }

    private static MeanValueAnalysis.Solution truth(double[] threads, double[] sizes, double fileSetGb) {
        int m = threads.length;
        Station[][] st = new Station[2][m];
        double[][] v = new double[2][m];
        for (int c = 0; c < m; c++) {
            double s = sizes[c];
            st[0][c] = Station.flowEquivalent(a -> CACHE[0] * a + CACHE[1], 1e-3);
            st[1][c] = Station.flowEquivalent(a -> RAID[0] * a * s + RAID[1] * a + RAID[2] * s + RAID[3], 1e-3);
            v[0][c] = 1;
            v[1][c] = p1(fileSetGb);
        }
        return MeanValueAnalysis.approximate(st, v, threads, new double[m]);
    }

    private static List<CalibrationPoint> separatedRuns(Random rnd, double noise) {
        List<CalibrationPoint> out = new ArrayList<>();
        for (double f : new double[] {2, 8, 32, 100}) {
            for (double s : new double[] {4, 16, 64}) {
                for (double t : new double[] {1, 8, 16, 24, 40, 56, 64}) {
                    var sol = truth(new double[] {t}, new double[] {s}, f);
                    double hitMs = sol.queueLength()[0][0] / sol.throughputPerMs()[0];
                    double r = sol.responseTimeMs()[0] * (1 + noise * rnd.nextGaussian());
                    out.add(new CalibrationPoint(RequestClass.RANDOM_READ, t, s, f, r, 1 - p1(f),
                            Math.min(r, hitMs * (1 + noise * rnd.nextGaussian()))));
                }
            }
        }
        return out;
    }

    @Test
    void calibratesCacheAndRaidStationsFromSeparatedResponseTimes() {
        QueueingNetworkModel model = new QueueingNetworkModel();
        var parameters = model.calibrate(separatedRuns(new Random(5), 0.02));
        assertThat(parameters).containsKeys("random_read.raid.s1.const", "random_read.raid.s2.const", "random_read.p1.ln f");
        // interpolation and extrapolation to more threads, one VM
        double worst = 0;
        for (double f : new double[] {5, 50}) {
            for (double t : new double[] {12, 40, 80, 100}) {
                double measured = truth(new double[] {t}, new double[] {24}, f).responseTimeMs()[0];
                double predicted = model.solve(List.of(new ClassLoad(RequestClass.RANDOM_READ, t, 24)), f).meanResponseMs();
                worst = Math.max(worst, Math.abs(predicted / measured - 1));
            }
        }
        assertThat(worst).isLessThan(0.05);
    }

    @Test
    void severalVmsAreClassesOfOneNetworkNotAddedLatencies() {
        QueueingNetworkModel model = new QueueingNetworkModel();
        model.calibrate(separatedRuns(new Random(6), 0));
        // three VMs of 20 threads each, 8 KiB, on a 60 GB working set
        double measured = truth(new double[] {20, 20, 20}, new double[] {8, 8, 8}, 60).responseTimeMs()[0];
        var predicted = model.solve(List.of(new ClassLoad(RequestClass.RANDOM_READ, 20, 8),
                new ClassLoad(RequestClass.RANDOM_READ, 20, 8), new ClassLoad(RequestClass.RANDOM_READ, 20, 8)), 60);
        assertThat(predicted.meanResponseMs() / measured - 1).isBetween(-0.03, 0.03);
        double alone = model.solve(List.of(new ClassLoad(RequestClass.RANDOM_READ, 20, 8)), 60).meanResponseMs();
        assertThat(predicted.meanResponseMs()).isGreaterThan(2 * alone);
        // the same through the one model interface
        QueueingNetworkModel viaInterface = new QueueingNetworkModel(60);
        viaInterface.calibrate(separatedRuns(new Random(6), 0));
        Workload vm = new Workload(20, 8, 1, 1);
        assertThat(viaInterface.predict(List.of(vm, vm, vm)).latencyMs()).isCloseTo(predicted.meanResponseMs(), within(1e-9));
    }

    /** A device bound by its bytes in flight: every request waits for all the bytes ahead of it. */
    private static double fifoLink(List<Workload> disks) {
        double l = 0;
        for (Workload w : disks) {
            l += w.outstandingIos() * (0.02 + 0.004 * w.ioSizeKb());
        }
        return l;
    }

    @Test
    void aDatastoresDisksArePredictedAsTheirAggregateNotAsClassesOfMixedSizes() {
        List<Observation> obs = new ArrayList<>();
        for (int s = 4; s <= 1024; s *= 4) {
            for (int t = 1; t <= 32; t *= 2) {
                Workload w = new Workload(t, s, 1, 1);
                obs.add(new Observation(w, fifoLink(List.of(w))));
            }
        }
        QueueingNetworkModel model = new QueueingNetworkModel();
        model.fit(obs);
        List<Workload> disks = List.of(new Workload(4, 4, 1, 1), new Workload(2, 1024, 1, 1), new Workload(2, 4, 1, 1));
        double measured = fifoLink(disks);
        assertThat(model.predict(disks).latencyMs() / measured - 1).isBetween(-0.05, 0.05);
        // one class per disk counts the 1-MiB requests at the station as 4-KiB ones for the 4-KiB classes
        double perClass = model.solve(List.of(new ClassLoad(RequestClass.RANDOM_READ, 4, 4),
                new ClassLoad(RequestClass.RANDOM_READ, 2, 1024), new ClassLoad(RequestClass.RANDOM_READ, 2, 4)), 1).meanResponseMs();
        assertThat(perClass).isLessThan(measured / 2);
    }

    @Test
    void aStreamOfAnotherClassSlowsTheOthersThroughTheSharedStations() {
        QueueingNetworkModel model = new QueueingNetworkModel();
        List<Observation> obs = new ArrayList<>(calibrationRuns(new Random(2), 0));
        for (Observation o : calibrationRuns(new Random(2), 0)) {
            // sequential writes: a fast station, 0.05·t + 0.2 ms
            double t = o.outstandingIos();
            obs.add(new Observation(new Workload(t, o.workload().ioSizeKb(), 0, 0), 0.05 * t + 0.2));
        }
        model.fit(obs);
        double readsAlone = model.predict(new Workload(20, 16, 1, 1)).latencyMs();
        var both = model.solve(List.of(new ClassLoad(RequestClass.RANDOM_READ, 20, 16),
                new ClassLoad(RequestClass.SEQUENTIAL_WRITE, 20, 16)), 1);
        assertThat(both.responseTimeMs()[0]).isGreaterThan(readsAlone * 1.2);
    }

    /** A station whose service time bends at 30 threads (Noorshams §IV-D.2's cases s1 and s2). */
    private static double kinked(double t) {
        return t <= 30 ? 0.1 * t + 2 : 0.5 * t - 10;
    }

    @Test
    void randomReadsGetTheTwoThreadRegimesOtherClassesDoNot() {
        List<Observation> obs = new ArrayList<>();
        for (double t : new double[] {1, 5, 10, 20, 30, 40, 50, 64, 80, 100}) {
            for (double size : new double[] {4, 16, 64}) {
                obs.add(new Observation(new Workload(t, size, 1, 1), kinked(t) + 0.01 * size));
                obs.add(new Observation(new Workload(t, size, 1, 0), kinked(t) + 0.01 * size));
            }
        }
        QueueingNetworkModel model = new QueueingNetworkModel();
        var fit = model.fit(obs);
        assertThat(fit.parameters()).containsKey("random_read.cache.s1.t").containsKey("random_read.cache.s2.t");
        assertThat(fit.parameters().keySet()).noneMatch(k -> k.startsWith("sequential_read.cache.s"));
        for (double t : new double[] {8, 25, 45, 90, 120}) {
            double measured = kinked(t) + 0.16;
            assertThat(model.predict(new Workload(t, 16, 1, 1)).latencyMs() / measured - 1).isBetween(-0.01, 0.01);
        }
        // one line through the bend misses it
        double sequential = model.predict(new Workload(8, 16, 1, 0)).latencyMs();
        assertThat(Math.abs(sequential / (kinked(8) + 0.16) - 1)).isGreaterThan(0.2);
    }

    @Test
    void rejectsBadCalibrationNamingTheField() {
        assertThatThrownBy(() -> new CalibrationPoint(RequestClass.RANDOM_READ, 0, 4, 1, 1, Double.NaN, Double.NaN))
                .hasMessageContaining("threads");
        assertThatThrownBy(() -> new CalibrationPoint(RequestClass.RANDOM_READ, 4, 4, 1, 1, 1.5, 0.5))
                .hasMessageContaining("hit_share");
        assertThatThrownBy(() -> new QueueingNetworkModel(-1)).hasMessageContaining("working_set_gb");
        QueueingNetworkModel model = new QueueingNetworkModel();
        assertThatThrownBy(() -> model.calibrate(List.of(CalibrationPoint.mean(RequestClass.RANDOM_WRITE, 4, 4, 1, 2))))
                .hasMessageContaining("random_write");
        assertThat(model.isFitted()).isFalse();
    }
}
