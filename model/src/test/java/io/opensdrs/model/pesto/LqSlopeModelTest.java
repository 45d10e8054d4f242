package io.opensdrs.model.pesto;

import io.opensdrs.model.Observation;
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

    @Test
    void aKnownLineRejectsANonPositiveSizeScale() {
        assertThatThrownBy(() -> LqSlopeModel.of(M, C, 0)).hasMessageContaining("size_scale_kb");
        assertThat(LqSlopeModel.of(M, C, 16).sizeFactor(256)).isCloseTo(272.0 / 20, within(1e-12));
    }
}
