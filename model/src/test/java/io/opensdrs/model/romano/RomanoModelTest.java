package io.opensdrs.model.romano;

import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RomanoModelTest {

    /** Romano Table 4, data store E2 (terms from Table 3, coefficients from Table 4). */
    static final Map<String, Double> E2 = new LinkedHashMap<>();

    static {
        E2.put("O", 8.370e-01);
        E2.put("X:O", 6.163e-03);
        E2.put("Z:O", 1.172e-05);
        E2.put("X:R:O", 4.079e-04);
        E2.put("X:Z:O", 9.970e-08);
    }

    private static final double NOISE_MS = 0.15;

    static double truth(Workload w) {
        double p = 0;
        for (Map.Entry<String, Double> e : E2.entrySet()) {
            p += e.getValue() * RomanoTerm.parse(e.getKey()).value(w);
        }
        return p;
    }

    /** Romano's test vector, Eqs. 12–15: X, R ∈ {0..100 %}, Z ∈ {1..64 KiB}, O ∈ {1..64}. */
    static List<Workload> testVector() {
        List<Workload> v = new ArrayList<>();
        for (int x = 0; x <= 100; x += 25) {
            for (int r = 0; r <= 100; r += 25) {
                for (int z = 1; z <= 64; z *= 2) {
                    for (int o = 1; o <= 64; o *= 2) {
                        v.add(new Workload(o, z, r / 100.0, x / 100.0));
                    }
                }
            }
        }
        return v;
    }

    static List<Observation> measure(List<Workload> workloads, Random rnd) {
        List<Observation> obs = new ArrayList<>();
        for (Workload w : workloads) {
            obs.add(new Observation(w, truth(w) + NOISE_MS * rnd.nextGaussian()));
        }
        return obs;
    }

    @Test
    void selectsTheTrueTermsInAtLeast90Of100Trials() {
        Random rnd = new Random(2012);
        Set<String> expected = E2.keySet();
        int exact = 0;
        List<Workload> vector = testVector();
        for (int trial = 0; trial < 100; trial++) {
            List<RomanoTerm> chosen = FactorialTermSelection.romanoDefault().select(measure(vector, rnd), RomanoTerm.all());
            Set<String> names = new HashSet<>();
            chosen.forEach(t -> names.add(t.toString()));
            if (names.equals(expected)) {
                exact++;
            }
        }
        assertThat(exact).isGreaterThanOrEqualTo(90);
    }

    @Test
    void coefficientsAreRecoveredAndIntervalsAreCalibrated() {
        Random rnd = new Random(19);
        RomanoModel model = new RomanoModel();
        var fit = model.fit(measure(testVector(), rnd));
        assertThat(fit.parameters().keySet()).containsExactlyInAnyOrderElementsOf(
                concat(E2.keySet(), "sigma"));
        assertThat(fit.parameter("O")).isCloseTo(0.837, within(0.01));
        assertThat(fit.parameter("sigma")).isCloseTo(NOISE_MS, within(0.015));

        // Held-out: 2000 random workloads inside the test vector's range.
        int inside = 0;
        int n = 2000;
        for (int i = 0; i < n; i++) {
            Workload w = new Workload(1 + rnd.nextInt(64), 1 + rnd.nextInt(64), rnd.nextDouble(), rnd.nextDouble());
            double measured = truth(w) + NOISE_MS * rnd.nextGaussian();
            Prediction p = model.predict(w);
            if (p.latencyInterval().orElseThrow().contains(measured)) {
                inside++;
            }
        }
        assertThat(inside / (double) n).isBetween(0.93, 0.97);
    }

    /**
     * Latency errors grow with latency (5 % of it here): intervals sized by one σ for the whole
     * test vector would cover nearly every fast workload and too few slow ones; sized by the
     * fitted latency ({@link io.opensdrs.model.stats.ResidualVariance}) they cover 95 % of both.
     */
    @Test
    void intervalsFollowTheLatencyWhenErrorsGrowWithIt() {
        Random rnd = new Random(23);
        List<Observation> obs = new ArrayList<>();
        for (int rep = 0; rep < 3; rep++) {
            for (Workload w : testVector()) {
                obs.add(new Observation(w, truth(w) * (1 + 0.05 * rnd.nextGaussian())));
            }
        }
        RomanoModel model = new RomanoModel();
        model.fit(obs);
        List<double[]> held = new ArrayList<>(); // truth, inside
        for (int i = 0; i < 4000; i++) {
            Workload w = new Workload(1 + rnd.nextInt(64), 1 + rnd.nextInt(64), rnd.nextDouble(), rnd.nextDouble());
            double t = truth(w);
            double measured = t * (1 + 0.05 * rnd.nextGaussian());
            held.add(new double[] {t, model.predict(w).latencyInterval().orElseThrow().contains(measured) ? 1 : 0});
        }
        held.sort(java.util.Comparator.comparingDouble(a -> a[0]));
        double fast = held.subList(0, 2000).stream().mapToDouble(a -> a[1]).average().orElseThrow();
        double slow = held.subList(2000, 4000).stream().mapToDouble(a -> a[1]).average().orElseThrow();
        assertThat(fast).isBetween(0.92, 0.99);
        assertThat(slow).isBetween(0.92, 0.99);
    }

    @Test
    void lqSlopeIsLatencyPerOutstandingIo() {
        RomanoModel model = new RomanoModel();
        model.fit(measure(testVector(), new Random(5)));
        Workload w = new Workload(10, 8, 0.5, 0.5);
        assertThat(model.predict(w).latencyMs()).isCloseTo(10 * model.lqSlope(w), within(1e-9));
    }

    /**
     * An array whose spindles serve several commands at once: latency = C + m·O (Pesto Eq. 1),
     * here 5 ms + O·(0.5 + 0.01·X%) with noise. Romano's O-proportional form cannot express C;
     * the constant of Eq. 4 is a candidate and the ANOVA keeps it, and the low-O predictions and
     * T = O/P (Little's law) follow the device.
     */
    @Test
    void keepsTheConstantOfEq4WhenTheDeviceHasAServiceTimeFloor() {
        Random rnd = new Random(7);
        List<Observation> obs = new ArrayList<>();
        for (Workload w : testVector()) {
            obs.add(new Observation(w, floorTruth(w) + 0.15 * rnd.nextGaussian()));
        }
        RomanoModel model = new RomanoModel();
        var fit = model.fit(obs);
        assertThat(fit.parameters()).containsKey("1");
        assertThat(fit.parameter("1")).isCloseTo(5, within(0.1));
        Workload light = new Workload(2, 8, 0.9, 0.75);
        assertThat(model.predict(light).latencyMs()).isCloseTo(floorTruth(light), within(0.2));
        assertThat(model.throughput(light)).isCloseTo(2 / floorTruth(light), within(0.01));
    }

    private static double floorTruth(Workload w) {
        return 5 + w.outstandingIos() * (0.5 + 0.01 * 100 * w.randomFraction());
    }

    private static List<String> concat(Set<String> a, String b) {
        List<String> l = new ArrayList<>(a);
        l.add(b);
        return l;
    }

    /** The incremental fold a balancer moves disks with aggregates a datastore's disks exactly as the model's Eq. 24 does. */
    @Test
    void theBalancersIncrementalFoldAgreesWithTheModelsAggregation() {
        Random rnd = new Random(5);
        RomanoModel model = new RomanoModel();
        model.fit(measure(testVector(), rnd));
        Workload[] disks = new Workload[7];
        for (int i = 0; i < disks.length; i++) {
            disks[i] = new Workload(1 + rnd.nextInt(16), new double[] {4, 8, 64, 256, 1024}[rnd.nextInt(5)],
                    rnd.nextDouble(), rnd.nextDouble());
        }
        IncrementalAggregation load = model.incrementalAggregation(disks);
        load.change(new int[] {0, 1, 2, 3, 4}, new int[0]);
        double folded = load.predict(new int[0], new int[0], null).latencyMs();
        double aggregated = model.predict(model.aggregate(List.of(disks[0], disks[1], disks[2], disks[3], disks[4]))).latencyMs();
        assertThat(folded).isCloseTo(aggregated, within(1e-6 * Math.abs(aggregated)));
        double moved = load.predict(new int[] {5, 6}, new int[] {1}, null).latencyMs();
        double expected = model.predict(model.aggregate(List.of(disks[0], disks[2], disks[3], disks[4], disks[5], disks[6])))
                .latencyMs();
        assertThat(moved).isCloseTo(expected, within(1e-6 * Math.abs(expected)));
    }

    /** Calibrated means R and X were measured over at least half their range: the test vector is, the injector's reads are not. */
    @Test
    void aModelIsCalibratedOnlyWhenItsObservationsSpanReadsAndRandomness() {
        RomanoModel vector = new RomanoModel();
        vector.fit(measure(testVector(), new Random(8)));
        assertThat(vector.isCalibrated()).isTrue();
        List<Workload> injector = new ArrayList<>();
        for (double z : new double[] {4, 256}) {
            for (int o = 2; o <= 32; o *= 2) {
                injector.add(new Workload(o, z, 1, 1));
            }
        }
        RomanoModel reads = new RomanoModel();
        reads.fit(measure(injector, new Random(9)));
        assertThat(reads.isFitted()).isTrue();
        assertThat(reads.isCalibrated()).isFalse();
        assertThat(new RomanoModel().isCalibrated()).isFalse();
    }
}
