package io.opensdrs.model.queueing;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * MVA against closed networks whose means are known in closed form: the product-form stationary
 * distributions of birth–death chains (Kleinrock, Queueing Systems vol. 1, §3.8–3.9: the finite
 * population, machine-repairman model) and of two queues in a cycle.
 */
class MeanValueAnalysisTest {

    /** Machine repairman with m repairmen: p(n) ∝ N!/(N−n)! · (S/Z)^n / (n! for n ≤ m, m!·m^(n−m) beyond); Z = 0 not allowed here. */
    private static double[] repairman(int clients, double serviceMs, double thinkMs, int servers) {
        double[] w = new double[clients + 1];
        w[0] = 1;
        for (int n = 1; n <= clients; n++) {
            // birth rate (N−n+1)/Z, death rate min(n, m)/S
            w[n] = w[n - 1] * ((clients - n + 1) / thinkMs) / (Math.min(n, servers) / serviceMs);
        }
        double g = 0;
        for (double v : w) {
            g += v;
        }
        double busy = 0;
        double queue = 0;
        for (int n = 0; n <= clients; n++) {
            busy += w[n] / g * Math.min(n, servers);
            queue += n * w[n] / g;
        }
        double x = busy / serviceMs;
        return new double[] {x, queue / x};
    }

    @Test
    void oneQueueWithoutThinkTimeHoldsEveryClient() {
        // one FCFS server, Z = 0: every client is at the station, X = 1/S, R = N·S
        for (int n : new int[] {1, 2, 7, 50}) {
            var s = LoadDependentMva.solve(List.of(Station.queue(2.5)), new double[] {1}, n, 0);
            assertThat(s.throughputPerMs()).isCloseTo(1 / 2.5, within(1e-12));
            assertThat(s.responseTimeMs()).isCloseTo(n * 2.5, within(1e-9));
            var m = MeanValueAnalysis.exact(new double[][] {{2.5}}, new boolean[] {false}, new double[][] {{1}}, new int[] {n}, new double[] {0});
            assertThat(m.responseTimeMs()[0]).isCloseTo(n * 2.5, within(1e-9));
        }
    }

    @Test
    void oneQueueWithThinkTimeMatchesTheRepairmanModel() {
        // R = N/X − Z with X from the birth–death chain's stationary distribution
        for (int n : new int[] {1, 3, 10, 40}) {
            double[] exact = repairman(n, 0.5, 4.0, 1);
            var s = LoadDependentMva.solve(List.of(Station.queue(0.5)), new double[] {1}, n, 4.0);
            assertThat(s.throughputPerMs()).isCloseTo(exact[0], within(1e-9));
            assertThat(s.responseTimeMs()).isCloseTo(n / exact[0] - 4.0, within(1e-9));
            assertThat(s.responseTimeMs()).isCloseTo(exact[1], within(1e-9));
            var m = MeanValueAnalysis.exact(new double[][] {{0.5}}, new boolean[] {false}, new double[][] {{1}}, new int[] {n}, new double[] {4.0});
            assertThat(m.throughputPerMs()[0]).isCloseTo(exact[0], within(1e-9));
        }
    }

    @Test
    void loadDependentStationMatchesTheMultiServerRepairman() {
        // a 3-server station is load dependent: rate min(j, 3)/S
        Station threeServers = new Station() {
            public double rate(int j) {
                return Math.min(j, 3) / 2.0;
            }

            public double residenceAt(double present) {
                throw new UnsupportedOperationException();
            }
        };
        for (int n : new int[] {2, 5, 20}) {
            double[] exact = repairman(n, 2.0, 3.0, 3);
            var s = LoadDependentMva.solve(List.of(threeServers), new double[] {1}, n, 3.0);
            assertThat(s.throughputPerMs()).isCloseTo(exact[0], within(1e-9));
            assertThat(s.responseTimeMs()).isCloseTo(exact[1], within(1e-9));
        }
    }

    @Test
    void twoQueuesInACycleMatchTheirNormalisingConstant() {
        // p(n1) ∝ S1^n1 · S2^(N−n1) ⇒ X = G(N−1)/G(N) with G(N) = (S1^(N+1) − S2^(N+1)) / (S1 − S2)
        double s1 = 1.0;
        double s2 = 3.0;
        for (int n : new int[] {1, 2, 5, 12}) {
            double g = (Math.pow(s1, n + 1) - Math.pow(s2, n + 1)) / (s1 - s2);
            double gPrev = (Math.pow(s1, n) - Math.pow(s2, n)) / (s1 - s2);
            double x = gPrev / g;
            var s = LoadDependentMva.solve(List.of(Station.queue(s1), Station.queue(s2)), new double[] {1, 1}, n, 0);
            assertThat(s.throughputPerMs()).isCloseTo(x, within(1e-12));
            assertThat(s.responseTimeMs()).isCloseTo(n / x, within(1e-9));
            var m = MeanValueAnalysis.exact(new double[][] {{s1}, {s2}}, new boolean[] {false, false}, new double[][] {{1}, {1}},
                    new int[] {n}, new double[] {0});
            assertThat(m.throughputPerMs()[0]).isCloseTo(x, within(1e-12));
        }
    }

    @Test
    void twoIdenticalClassesBehaveAsOneClassOfTheirSum() {
        double[][] service = {{0.8, 0.8}, {2.0, 2.0}, {5.0, 5.0}};
        double[][] visits = {{1, 1}, {0.4, 0.4}, {1, 1}};
        var two = MeanValueAnalysis.exact(service, new boolean[] {false, false, true}, visits, new int[] {3, 4}, new double[] {1, 1});
        var one = LoadDependentMva.solve(List.of(Station.queue(0.8), Station.queue(2.0), Station.delay(5.0)),
                new double[] {1, 0.4, 1}, 7, 1);
        assertThat(two.throughputPerMs()[0] + two.throughputPerMs()[1]).isCloseTo(one.throughputPerMs(), within(1e-12));
        assertThat(two.responseTimeMs()[0]).isCloseTo(one.responseTimeMs(), within(1e-9));
    }

    @Test
    void schweitzerIsWithinAFewPercentOfExactOnAMixOfClasses() {
        double[][] service = {{1.0, 4.0}, {3.0, 0.5}};
        double[][] visits = {{1, 1}, {1, 1}};
        var exact = MeanValueAnalysis.exact(service, new boolean[] {false, false}, visits, new int[] {8, 5}, new double[] {0, 0});
        Station[][] stations = {{Station.queue(1.0), Station.queue(4.0)}, {Station.queue(3.0), Station.queue(0.5)}};
        var approx = MeanValueAnalysis.approximate(stations, visits, new double[] {8, 5}, new double[] {0, 0});
        for (int c = 0; c < 2; c++) {
            assertThat(approx.responseTimeMs()[c] / exact.responseTimeMs()[c] - 1).isBetween(-0.05, 0.05);
        }
    }

    @Test
    void aFlowEquivalentStationAloneAnswersItsServiceTimeFunction() {
        // Noorshams §IV-C: with every client at one station the response time is μ(N)
        Station fes = Station.flowEquivalent(t -> 0.2 * t + 1.5, 0.01);
        for (int n : new int[] {1, 10, 64, 150}) {
            assertThat(LoadDependentMva.solve(List.of(fes), new double[] {1}, n, 0).responseTimeMs())
                    .isCloseTo(0.2 * n + 1.5, within(1e-9));
            assertThat(MeanValueAnalysis.approximate(new Station[][] {{fes}}, new double[][] {{1}}, new double[] {n}, new double[] {0})
                    .responseTimeMs()[0]).isCloseTo(0.2 * n + 1.5, within(1e-6));
        }
    }

    @Test
    void approximateMatchesExactLoadDependentMvaOnTwoFlowEquivalentStations() {
        Station cache = Station.flowEquivalent(t -> 0.05 * t + 0.3, 0.01);
        Station raid = Station.flowEquivalent(t -> 0.9 * t + 6, 0.01);
        var exact = LoadDependentMva.solve(List.of(cache, raid), new double[] {1, 0.6}, 32, 0);
        var approx = MeanValueAnalysis.approximate(new Station[][] {{cache}, {raid}}, new double[][] {{1}, {0.6}},
                new double[] {32}, new double[] {0});
        assertThat(approx.responseTimeMs()[0] / exact.responseTimeMs() - 1).isBetween(-0.05, 0.05);
    }

    /**
     * Published example: Lazowska, Zahorjan, Graham, Sevcik, "Quantitative System Performance"
     * (Prentice-Hall 1984), ch. 7, p. 131 — a batch class (10 jobs, no think time; CPU 1.0 s, disk
     * 0.09 s) and an interactive class (25 users, Z = 30 s; CPU 0.1 s, disk 0.9 s), one visit each.
     * Mean queue lengths as tabulated in the regression test of Carleton University's LQN solver
     * (lqns unit-test test2.cc, "Lazowska, Ch 7, Page 131"): exact MVA CPU 9.717 / 0.8496, disk
     * 0.2827 / 2.0900; Bard–Schweitzer CPU 9.7047 / 0.8385, disk 0.2953 / 2.303. Our Schweitzer
     * fixed point, iterated to 1e-9, is 9.7061 / 0.8391, 0.2939 / 2.2929: within 0.011 of that
     * solver's (which stops its iteration earlier), and 9.7 % off the exact 2.09 at the disk.
     */
    @Test
    void lazowskaChapter7BatchAndInteractiveExample() {
        double[][] service = {{1.0, 0.1}, {0.09, 0.9}};
        double[][] visits = {{1, 1}, {1, 1}};
        var exact = MeanValueAnalysis.exact(service, new boolean[] {false, false}, visits, new int[] {10, 25}, new double[] {0, 30});
        assertThat(exact.queueLength()[0][0]).isCloseTo(9.717, within(1e-3));
        assertThat(exact.queueLength()[0][1]).isCloseTo(0.8496, within(1e-3));
        assertThat(exact.queueLength()[1][0]).isCloseTo(0.2827, within(1e-3));
        assertThat(exact.queueLength()[1][1]).isCloseTo(2.0900, within(1e-3));
        Station[][] stations = {{Station.queue(1.0), Station.queue(0.1)}, {Station.queue(0.09), Station.queue(0.9)}};
        var approx = MeanValueAnalysis.approximate(stations, visits, new double[] {10, 25}, new double[] {0, 30});
        assertThat(approx.queueLength()[0][0]).isCloseTo(9.7047, within(0.015));
        assertThat(approx.queueLength()[0][1]).isCloseTo(0.8385, within(0.015));
        assertThat(approx.queueLength()[1][0]).isCloseTo(0.2953, within(0.015));
        assertThat(approx.queueLength()[1][1]).isCloseTo(2.303, within(0.015));
    }

    @Test
    void rejectsBadInputNamingIt() {
        assertThatThrownBy(() -> LoadDependentMva.solve(List.of(Station.queue(1)), new double[] {1}, 0, 0))
                .hasMessageContaining("population");
        assertThatThrownBy(() -> Station.queue(-1)).hasMessageContaining("service time");
        assertThatThrownBy(() -> MeanValueAnalysis.exact(new double[][] {{1}}, new boolean[] {false}, new double[][] {{-1}},
                new int[] {1}, new double[] {0})).hasMessageContaining("visit");
    }
}
