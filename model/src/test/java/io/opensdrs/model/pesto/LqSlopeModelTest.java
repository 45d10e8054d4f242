package io.opensdrs.model.pesto;

import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Observation;
import io.opensdrs.model.OioWeightedRunningSums;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LqSlopeModelTest {

    private static final double M = 0.55;
    private static final double C = 5.18;

    /**
     * Pesto's injector (§5.1): OIO levels 2–32, every IO's latency recorded; here
     * {@code ios} IOs per level, each with multiplicative Gaussian noise of {@code noise}.
     */
    private static List<Observation> injectorRun(Random rnd, double noise, int ios) {
        List<Observation> obs = new ArrayList<>();
        for (int q = 2; q <= 32; q++) {
            for (int r = 0; r < ios; r++) {
                double truth = M * q + C;
                obs.add(new Observation(Workload.randomRead4k(q), truth * (1 + noise * rnd.nextGaussian())));
            }
        }
        return obs;
    }

    @Test
    void recoversSlopeAndInterceptWithin2PercentUnder5PercentNoise() {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 20; trial++) {
            LqSlopeModel model = new LqSlopeModel();
            var fit = model.fit(injectorRun(rnd, 0.05, 100));
            assertThat(fit.parameter("m")).as("trial %d m", trial).isCloseTo(M, within(0.02 * M));
            assertThat(fit.parameter("C")).as("trial %d C", trial).isCloseTo(C, within(0.02 * C));
            assertThat(fit.rSquared()).isGreaterThan(0.93);
        }
    }

    @Test
    void rSquaredGateRejectsARunWithOutliers() {
        Random rnd = new Random(7);
        List<Observation> run = injectorRun(rnd, 0.05, 1);
        LqSlopeModel clean = new LqSlopeModel();
        assertThat(clean.fit(run).rSquared()).isGreaterThan(0.93);

        // Interference (Pesto §5.1.1) shows up as a few levels with latency several times the line.
        List<Observation> withOutliers = new ArrayList<>(run);
        for (int i : new int[] {3, 11, 19}) {
            Observation o = withOutliers.get(i);
            withOutliers.set(i, new Observation(o.workload(), o.latencyMs() * 4));
        }
        LqSlopeModel gated = new LqSlopeModel();
        assertThatThrownBy(() -> gated.fit(withOutliers))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("R²");
        assertThat(gated.isFitted()).isFalse();
    }

    @Test
    void predictsLatencyAndLittlesLawThroughput() {
        LqSlopeModel model = LqSlopeModel.of(M, C);
        var p = model.predict(List.of(Workload.randomRead4k(10), Workload.randomRead4k(6)));
        assertThat(p.latencyMs()).isCloseTo(M * 16 + C, within(1e-9));
        assertThat(p.iops()).isCloseTo(16 / (M * 16 + C) * 1000, within(1e-6));
        assertThat(p.latencyInterval()).isEmpty();
    }

    /**
     * A device where IO size weighs: each outstanding IO costs (K + Z)/(K + 4) times a 4-KiB read
     * (true K 32 KiB, so a 256-KiB read weighs 7.2 reads). Fitted from a 4-KiB and a 256-KiB run,
     * the model finds K within one grid step and predicts a 1-MiB stream on the line it never saw.
     */
    @Test
    void aSecondIoSizeTeachesTheLineHowMuchSizeWeighs() {
        double k = 32;
        Random rnd = new Random(3);
        List<Observation> obs = new ArrayList<>();
        for (double z : new double[] {4, 256}) {
            for (int q = 2; q <= 32; q *= 2) {
                double truth = M * q * (k + z) / (k + 4) + C;
                obs.add(new Observation(new Workload(q, z, 1, 1), truth * (1 + 0.02 * rnd.nextGaussian())));
            }
        }
        LqSlopeModel model = new LqSlopeModel();
        var fit = model.fit(obs);
        assertThat(fit.parameter("size_scale_kb")).isBetween(k / Math.sqrt(2), k * Math.sqrt(2));
        assertThat(fit.parameter("m")).isCloseTo(M, within(0.1 * M));
        double oneMib = M * 8 * (k + 1024) / (k + 4) + C;
        assertThat(model.predict(new Workload(8, 1024, 1, 1)).latencyMs()).isCloseTo(oneMib, within(0.15 * oneMib));
        // the 4-KiB line itself is unchanged: the injector's own workload predicts as before
        assertThat(model.predict(Workload.randomRead4k(16)).latencyMs()).isCloseTo(M * 16 + C, within(0.1 * (M * 16 + C)));
    }

    /** One IO size, or sizes whose latency is the same, leave Pesto's size-blind line (no size_scale_kb). */
    @Test
    void sizesThatDoNotMatterLeaveTheSizeBlindLine() {
        List<Observation> obs = new ArrayList<>();
        for (double z : new double[] {4, 256}) {
            for (int q = 2; q <= 32; q *= 2) {
                obs.add(new Observation(new Workload(q, z, 1, 1), M * q + C));
            }
        }
        LqSlopeModel model = new LqSlopeModel();
        assertThat(model.fit(obs).parameters()).doesNotContainKey("size_scale_kb");
        assertThat(model.sizeScaleKb()).isInfinite();
        assertThat(model.predict(new Workload(8, 1024, 1, 1)).latencyMs()).isCloseTo(M * 8 + C, within(1e-9));
        assertThat(new LqSlopeModel().fit(injectorRun(new Random(1), 0.05, 2)).parameters()).doesNotContainKey("size_scale_kb");
    }

    /** The running sums a balancer moves disks with predict what the model predicts for the disks aggregated. */
    @Test
    void theRunningSumsAgreeWithTheModelsAggregation() {
        LqSlopeModel model = LqSlopeModel.of(M, C, 16);
        Random rnd = new Random(7);
        Workload[] disks = new Workload[6];
        for (int i = 0; i < disks.length; i++) {
            disks[i] = new Workload(1 + rnd.nextInt(16), new double[] {4, 64, 256}[rnd.nextInt(3)], rnd.nextDouble(), rnd.nextDouble());
        }
        IncrementalAggregation sums = model.incrementalAggregation(disks);
        assertThat(sums).isInstanceOf(OioWeightedRunningSums.class);
        sums.change(new int[] {0, 1, 2, 3}, new int[0]);
        IncrementalAggregation before = sums.copy();
        sums.change(new int[] {4}, new int[] {1});
        double expected = model.predict(List.of(disks[0], disks[2], disks[3], disks[4])).latencyMs();
        assertThat(sums.predict(new int[0], new int[0], null).latencyMs()).isCloseTo(expected, within(1e-9 * expected));
        assertThat(sums.outstandingIos()).isCloseTo(disks[0].outstandingIos() + disks[2].outstandingIos()
                + disks[3].outstandingIos() + disks[4].outstandingIos(), within(1e-9));
        double moved = model.predict(List.of(disks[0], disks[1], disks[3], disks[5], disks[4])).latencyMs();
        assertThat(before.predict(new int[] {5}, new int[] {2}, disks[4]).latencyMs()).isCloseTo(moved, within(1e-9 * moved));
    }

    @Test
    void aKnownLineRejectsANonPositiveSizeScale() {
        assertThatThrownBy(() -> LqSlopeModel.of(M, C, 0)).hasMessageContaining("size_scale_kb");
        assertThat(LqSlopeModel.of(M, C, 16).sizeFactor(256)).isCloseTo(272.0 / 20, within(1e-12));
    }

    /**
     * A fitted line's 95 % interval holds about 95 % of new measurements of the injector's own
     * workload, and is wider where latency is larger (the noise here is proportional to latency,
     * as queueing makes it): the interval follows the fitted latency, not one σ for all Q.
     */
    @Test
    void aFittedLinesIntervalHoldsNewMeasurementsOfItsWorkloadAndWidensWithLatency() {
        Random rnd = new Random(11);
        int inside = 0;
        int total = 0;
        double widthRatio = 0;
        for (int trial = 0; trial < 40; trial++) {
            LqSlopeModel model = new LqSlopeModel();
            model.fit(injectorRun(rnd, 0.06, 1));
            var low = model.predict(Workload.randomRead4k(2)).latencyInterval().orElseThrow();
            var high = model.predict(Workload.randomRead4k(32)).latencyInterval().orElseThrow();
            assertThat(high.upper() - high.lower()).as("trial %d", trial).isGreaterThan(low.upper() - low.lower());
            widthRatio += (high.upper() - high.lower()) / (low.upper() - low.lower()) / 40;
            for (Observation fresh : injectorRun(rnd, 0.06, 1)) {
                var p = model.predict(fresh.workload());
                assertThat(p.latencyInterval().orElseThrow().contains(p.latencyMs())).isTrue();
                inside += p.latencyInterval().orElseThrow().contains(fresh.latencyMs()) ? 1 : 0;
                total++;
            }
        }
        assertThat((double) inside / total).isBetween(0.92, 0.98);
        // latency at Q = 32 is 3.6 times that at Q = 2; one σ for all Q would give a ratio near 1
        assertThat(widthRatio).isGreaterThan(2.5);
    }

    /**
     * A device whose 256-KiB line has another intercept than its 4-KiB line (the demo's 10k
     * spindle: m 11.97, C 8.48 at 4 KiB; m 21.09, C 2.84 at 256 KiB): the size factor draws both
     * through one intercept, so a level is off by up to several ms and its interval is wide, while
     * a change along the line is off by a few percent — what the change error states.
     */
    @Test
    void aChangeAlongTheLineIsBetterKnownThanALevel() {
        Random rnd = new Random(9);
        List<Observation> obs = new ArrayList<>();
        for (int q = 2; q <= 32; q *= 2) {
            obs.add(new Observation(new Workload(q, 4, 1, 1), (11.97 * q + 8.48) * (1 + 0.01 * rnd.nextGaussian())));
            obs.add(new Observation(new Workload(q, 256, 1, 1), (21.09 * q + 2.84) * (1 + 0.01 * rnd.nextGaussian())));
        }
        LqSlopeModel model = new LqSlopeModel();
        assertThat(model.fit(obs).parameters()).containsKey("change_error");
        var before = model.predict(new Workload(5, 4, 1, 1));
        var after = model.predict(new Workload(10, 4, 1, 1));
        double r = after.relativeChangeError();
        assertThat(r).isBetween(0.0, 0.1);
        double trueChange = 11.97 * 5;
        double predictedChange = after.latencyMs() - before.latencyMs();
        assertThat(Math.abs(predictedChange - trueChange)).isLessThanOrEqualTo(r * predictedChange);
        var level = after.latencyInterval().orElseThrow();
        assertThat((level.upper() - level.lower()) / 2).isGreaterThan(2 * r * predictedChange);
        // passive observations of a steady workload (OIO 8 to 8.5, 5 % noise) beside the run: their
        // differences are noise, not the line's change, and must not inflate the change error
        List<Observation> withPassive = new ArrayList<>(obs);
        for (int i = 0; i < 20; i++) {
            double oio = 8 + 0.5 * rnd.nextDouble();
            withPassive.add(new Observation(new Workload(oio, 4, 1, 1), (11.97 * oio + 8.48) * (1 + 0.05 * rnd.nextGaussian())));
        }
        LqSlopeModel refit = new LqSlopeModel();
        refit.fit(withPassive);
        assertThat(refit.predict(new Workload(10, 4, 1, 1)).relativeChangeError()).isBetween(0.0, 0.15);
        // a known line has nothing to read a change error from
        assertThat(LqSlopeModel.of(M, C).predict(Workload.randomRead4k(4)).relativeChangeError()).isNaN();
    }
}
