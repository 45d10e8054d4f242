package io.opensdrs.model.pesto;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.stats.LineFit;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Pesto's line L = m·Q + C (Eq. 1) keeps C ≥ 0, C being the latency at zero queue. A real device
 * whose least-squares line has C &lt; 0: fio-plot's 7.2k disk behind a P420i controller, 4 KiB
 * random writes, one job, queue depths 2–32 (Pesto's injector range, §5.1); resource
 * {@code fio-plot/fio-runs-negative-intercept.csv}.
 */
class NonNegativeInterceptTest {

    private static final String RESOURCE = "fio-plot/fio-runs-negative-intercept.csv";

    /** queue depth → mean latency (ms) of the resource's runs with 2 ≤ iodepth ≤ 32. */
    private static TreeMap<Integer, Double> runs() throws IOException {
        TreeMap<Integer, Double> byDepth = new TreeMap<>();
        try (InputStream in = NonNegativeInterceptTest.class.getResourceAsStream(RESOURCE)) {
            assertThat(in).as(RESOURCE).isNotNull();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            assertThat(r.readLine()).startsWith("device,rw,bs,iodepth,numjobs,runtime_s,dir,iops,lat_mean_ms");
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split(",", -1);
                int depth = Integer.parseInt(f[3]);
                if (f[4].equals("1") && depth >= 2 && depth <= 32) {
                    byDepth.put(depth, Double.parseDouble(f[8]));
                }
            }
        }
        assertThat(byDepth.keySet()).containsExactly(2, 4, 8, 16, 32);
        return byDepth;
    }

    private static double[] depths(TreeMap<Integer, Double> runs) {
        return runs.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
    }

    private static double[] latencies(TreeMap<Integer, Double> runs) {
        return runs.values().stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Test
    void aRealDeviceWhoseRawLeastSquaresInterceptIsNegativeGetsALineWithCAtLeastZero() throws IOException {
        TreeMap<Integer, Double> runs = runs();
        double[] q = depths(runs);
        double[] l = latencies(runs);
        LineFit raw = LineFit.ordinary(q, l);
        assertThat(raw.intercept()).as("unconstrained least-squares C of this device").isLessThan(-1);

        List<Observation> obs = new ArrayList<>();
        runs.forEach((depth, latency) -> obs.add(new Observation(new Workload(depth, 4, 0, 1), latency)));
        LqSlopeModel model = new LqSlopeModel();
        var fit = model.fit(obs);

        // The least-squares optimum under C ≥ 0 is the line through the origin, m = ΣQ·L / ΣQ².
        double sql = 0;
        double sqq = 0;
        for (int i = 0; i < q.length; i++) {
            sql += q[i] * l[i];
            sqq += q[i] * q[i];
        }
        assertThat(fit.parameter("C")).isZero();
        assertThat(model.lqLine().interceptMs()).isZero();
        assertThat(fit.parameter("m")).isCloseTo(sql / sqq, within(1e-12));
        // accepted: the constrained line still passes Pesto's R² gate, and its R² is its own, not the free line's
        assertThat(fit.parameter("run_r2")).isGreaterThanOrEqualTo(LinearityGate.PESTO.minRSquared())
                .isLessThan(raw.rSquared())
                .isCloseTo(LineFit.rSquaredOf(q, l, sql / sqq, 0), within(1e-12));
        assertThat(model.predict(Workload.randomRead4k(1)).latencyMs()).isPositive();
    }

    @Test
    void everyEstimatorAndTheAgentsFitKeepCAtLeastZeroOnThatDevice() throws IOException {
        TreeMap<Integer, Double> runs = runs();
        double[] q = depths(runs);
        double[] l = latencies(runs);
        // OrdinaryLqEstimator is also the host agent's injector fit (WorkloadInjector.fit)
        for (LqEstimator e : List.of(new OrdinaryLqEstimator(), new AsymptoteWeightedLqEstimator(0),
                new AsymptoteWeightedLqEstimator(2))) {
            LineFit line = e.fit(q, l);
            assertThat(line.intercept()).as("%s C", e.name()).isGreaterThanOrEqualTo(0);
            assertThat(line.slope()).as("%s m", e.name()).isPositive();
        }
    }

    @Test
    void theConstrainedLineIsRefusedWithAReasonWhenItFailsTheGate() throws IOException {
        TreeMap<Integer, Double> runs = runs();
        double[] q = depths(runs);
        double[] l = latencies(runs);
        double constrainedR2 = LineFit.ordinaryNonNegativeIntercept(q, l).rSquared();
        double freeR2 = LineFit.ordinary(q, l).rSquared();
        // a gate between the two: the free line (C < 0) would pass, the physical one does not
        LinearityGate between = new LinearityGate((constrainedR2 + freeR2) / 2);
        List<Observation> obs = new ArrayList<>();
        runs.forEach((depth, latency) -> obs.add(new Observation(new Workload(depth, 4, 0, 1), latency)));
        assertThatThrownBy(() -> new LqSlopeModel(new OrdinaryLqEstimator(), between).fit(obs))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LQ fit rejected: R²");
    }

    @Test
    void aKnownLineWithANegativeInterceptIsRefused() {
        assertThatThrownBy(() -> LqSlopeModel.of(2.19, -0.35))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intercept_ms").hasMessageContaining("Eq. 1");
    }
}
