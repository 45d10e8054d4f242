package io.opensdrs.model.basil;

import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BasilModelTest {

    private static final BasilWorkloadMetric TRUE_METRIC = new BasilWorkloadMetric(2.0, 4.0, 0.5, 0.3);
    private static final double TRUE_K5 = 50;

    private static List<Observation> grid(Random rnd, double noise) {
        List<Observation> obs = new ArrayList<>();
        for (int o : new int[] {1, 2, 4, 8, 16, 32}) {
            for (int z : new int[] {4, 8, 16, 32, 64}) {
                for (double r : new double[] {0, 0.25, 0.5, 0.75, 1}) {
                    for (double x : new double[] {0, 0.25, 0.5, 0.75, 1}) {
                        Workload w = new Workload(o, z, r, x);
                        double truth = TRUE_METRIC.of(w) / TRUE_K5;
                        obs.add(new Observation(w, truth * (1 + noise * rnd.nextGaussian())));
                    }
                }
            }
        }
        return obs;
    }

    @Test
    void recoversConstantsExactlyFromNoiseFreeGenerator() {
        BasilModel model = new BasilModel();
        var fit = model.fit(grid(new Random(1), 0));
        assertThat(fit.parameter("K1")).isCloseTo(2.0, within(1e-9));
        assertThat(fit.parameter("K2")).isCloseTo(4.0, within(1e-9));
        assertThat(fit.parameter("K3")).isCloseTo(0.5, within(1e-9));
        assertThat(fit.parameter("K4")).isCloseTo(0.3, within(1e-9));
        assertThat(fit.parameter("K5")).isCloseTo(TRUE_K5, within(1e-6));
        assertThat(fit.rSquared()).isCloseTo(1, within(1e-12));
    }

    @Test
    void medianOfPairsAndLeastSquaresK5ReproduceTheGeneratorUnderNoise() {
        BasilModel model = new BasilModel();
        var fit = model.fit(grid(new Random(2), 0.02));
        assertThat(fit.parameter("K1")).isCloseTo(2.0, within(0.2));
        assertThat(fit.parameter("K2")).isCloseTo(4.0, within(0.4));
        assertThat(fit.parameter("K3")).isCloseTo(0.5, within(0.05));
        assertThat(fit.parameter("K4")).isCloseTo(0.3, within(0.03));
        // Predictions on a fresh noise-free grid match the generator within 5 %.
        for (Observation o : grid(new Random(3), 0)) {
            assertThat(model.predict(o.workload()).latencyMs()).isCloseTo(o.latencyMs(), within(0.05 * o.latencyMs()));
        }
    }

    /** The running metric sum a balancer moves disks with predicts Σ L_i / K5 of the disks it holds. */
    @Test
    void theRunningMetricSumAgreesWithTheModel() {
        BasilModel model = new BasilModel();
        model.fit(grid(new Random(1), 0));
        Workload[] disks = {new Workload(4, 8, 1, 1), new Workload(8, 64, 0, 0), new Workload(2, 16, 0.5, 0.25)};
        IncrementalAggregation sum = model.incrementalAggregation(disks);
        assertThat(sum).isInstanceOf(WorkloadMetricSum.class);
        sum.change(new int[] {0, 1}, new int[0]);
        IncrementalAggregation before = sum.copy();
        sum.change(new int[] {2}, new int[] {0});
        double expected = model.predict(List.of(disks[1], disks[2])).latencyMs();
        assertThat(sum.predict(new int[0], new int[0], null).latencyMs()).isCloseTo(expected, within(1e-9 * expected));
        assertThat(sum.outstandingIos()).isEqualTo(10);
        double both = model.predict(List.of(disks[0], disks[1])).latencyMs();
        assertThat(before.predict(new int[0], new int[0], null).latencyMs()).isCloseTo(both, within(1e-9 * both));
        double extra = model.predict(List.of(disks[1], disks[0])).latencyMs();
        assertThat(before.predict(new int[0], new int[] {0}, disks[0]).latencyMs()).isCloseTo(extra, within(1e-9 * extra));
    }

    /** What a balancer balances with BASIL: the fitted L_i, which no other model offers. */
    @Test
    void theFittedModelOffersItsWorkloadMetric() {
        BasilModel model = new BasilModel();
        assertThat(model.workloadMetric()).isEmpty();
        model.fit(grid(new Random(1), 0));
        Workload w = new Workload(4, 8, 1, 0.5);
        assertThat(model.workloadMetric()).isPresent();
        assertThat(model.workloadMetric().get().applyAsDouble(w)).isCloseTo(TRUE_METRIC.of(w), within(1e-9 * TRUE_METRIC.of(w)));
        assertThat(io.opensdrs.model.pesto.LqSlopeModel.of(0.5, 3).workloadMetric()).isEmpty();
    }

    @Test
    void colocatedWorkloadsAddTheirMetricsAndDevicePerformanceIsInverseSlope() {
        BasilModel model = new BasilModel();
        model.fit(grid(new Random(1), 0));
        Workload a = new Workload(4, 8, 1, 1);
        Workload b = new Workload(8, 64, 0, 0);
        assertThat(model.predict(List.of(a, b)).latencyMs())
                .isCloseTo((TRUE_METRIC.of(a) + TRUE_METRIC.of(b)) / TRUE_K5, within(1e-9));

        List<Observation> passive = new ArrayList<>();
        for (int q = 1; q <= 30; q++) {
            passive.add(new Observation(Workload.randomRead4k(q), 0.5 * q + 3));
        }
        assertThat(DevicePerformance.of(passive)).isCloseTo(2.0, within(1e-9));
        assertThat(DevicePerformance.normalizedLoad(10, 2)).isEqualTo(5);
    }
}
