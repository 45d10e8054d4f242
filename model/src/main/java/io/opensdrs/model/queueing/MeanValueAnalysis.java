package io.opensdrs.model.queueing;

/**
 * Mean Value Analysis of closed multi-class networks (Reiser and Lavenberg, J. ACM 27(2), 1980).
 * Class c has N_c clients with think time Z_c and visits V_{k,c} station k.
 *
 * <ul>
 *   <li>{@link #exact}: load-independent FCFS queues and delay stations, over every population
 *       vector n ≤ N (the arrival theorem: an arriving class-c request sees the network at n − e_c):
 *       R_{k,c}(n) = S_{k,c}·(1 + Q_k(n − e_c)) at a queue, S_{k,c} at a delay station;
 *       X_c(n) = n_c / (Z_c + Σ_k V_{k,c} R_{k,c}(n)); Q_k(n) = Σ_c X_c(n) V_{k,c} R_{k,c}(n).</li>
 *   <li>{@link #approximate}: Schweitzer's fixed point (Schweitzer 1979; Bard 1979), which replaces
 *       Q_k(n − e_c) by Q_k(N) − Q_{k,c}(N)/N_c, with each station's visit time taken at the
 *       arrival-instant load 1 + Q_k(N − e_c) ({@link Station#residenceAt}). That is how the
 *       load-dependent stations of Noorshams et al. (§IV-C, Eq. 1) enter a mix of classes:
 *       every class's μ is evaluated at the load all classes put on the station. With one class
 *       at one station the arrival sees N − 1 others, so the response time is μ(N), the
 *       quantity the paper calibrates; the other cases are an approximation (on Lazowska's
 *       batch-and-interactive example, QSP ch. 7, queue lengths are off by up to 10 %;
 *       {@code MeanValueAnalysisTest} checks it against the exact solution).</li>
 * </ul>
 */
public final class MeanValueAnalysis {

    /** Per class c: throughput X_c (per ms) and response time R_c (ms); per station and class the queue length Q_{k,c}. */
    public record Solution(double[] throughputPerMs, double[] responseTimeMs, double[][] queueLength) {
    }

    private MeanValueAnalysis() {
    }

    /**
     * Exact multi-class MVA.
     *
     * @param serviceMs S_{k,c}, mean service time per visit
     * @param delay     delay[k]: station k is a delay (infinite-server) station, else a single FCFS server
     * @param visits    V_{k,c}
     * @param population N_c
     * @param thinkMs   Z_c
     */
    public static Solution exact(double[][] serviceMs, boolean[] delay, double[][] visits, int[] population, double[] thinkMs) {
        int k = serviceMs.length;
        int c = population.length;
        check(k, c, visits, thinkMs);
        if (delay.length != k) {
            throw new IllegalArgumentException("delay flags: need one per station");
        }
        int[] radix = new int[c];
        int states = 1;
        for (int i = 0; i < c; i++) {
            if (population[i] < 0) {
                throw new IllegalArgumentException("population of class " + i + " must be >= 0, got " + population[i]);
            }
            radix[i] = states;
            states = Math.multiplyExact(states, population[i] + 1);
        }
        if (states > 5_000_000) {
            throw new IllegalArgumentException("exact MVA over " + states + " population vectors is too large; use approximate");
        }
        double[][] q = new double[states][];
        q[0] = new double[k];
        int[] n = new int[c];
        double[] x = new double[c];
        double[] resp = new double[c];
        double[][] qc = new double[k][c];
        for (int idx = 1; idx < states; idx++) {
            int rest = idx;
            for (int i = c - 1; i >= 0; i--) {
                n[i] = rest / radix[i];
                rest %= radix[i];
            }
            double[] total = new double[k];
            for (int j = 0; j < c; j++) {
                x[j] = 0;
                resp[j] = 0;
                if (n[j] == 0) {
                    for (int s = 0; s < k; s++) {
                        qc[s][j] = 0;
                    }
                    continue;
                }
                double[] seen = q[idx - radix[j]];
                double[] r = new double[k];
                double sum = 0;
                for (int s = 0; s < k; s++) {
                    r[s] = delay[s] ? serviceMs[s][j] : serviceMs[s][j] * (1 + seen[s]);
                    sum += visits[s][j] * r[s];
                }
                x[j] = n[j] / (thinkMs[j] + sum);
                resp[j] = sum;
                for (int s = 0; s < k; s++) {
                    qc[s][j] = x[j] * visits[s][j] * r[s];
                    total[s] += qc[s][j];
                }
            }
            q[idx] = total;
        }
        double[][] qOut = new double[k][];
        for (int s = 0; s < k; s++) {
            qOut[s] = qc[s].clone();
        }
        return new Solution(x.clone(), resp.clone(), qOut);
    }

    /**
     * Schweitzer–Bard approximate MVA with (possibly load-dependent) stations, one behaviour per
     * station and class ({@code stations[k][c]}); iterates to a relative change below 1e-9.
     */
    public static Solution approximate(Station[][] stations, double[][] visits, double[] population, double[] thinkMs) {
        int k = stations.length;
        int c = population.length;
        check(k, c, visits, thinkMs);
        double[][] q = new double[k][c];
        for (int j = 0; j < c; j++) {
            if (!(population[j] >= 0)) {
                throw new IllegalArgumentException("population of class " + j + " must be >= 0, got " + population[j]);
            }
            double stationsVisited = 0;
            for (int s = 0; s < k; s++) {
                stationsVisited += visits[s][j] > 0 ? 1 : 0;
            }
            for (int s = 0; s < k; s++) {
                q[s][j] = visits[s][j] > 0 ? population[j] / stationsVisited : 0;
            }
        }
        double[] x = new double[c];
        double[] resp = new double[c];
        for (int iter = 0; iter < 10_000; iter++) {
            double[] total = new double[k];
            for (int s = 0; s < k; s++) {
                for (int j = 0; j < c; j++) {
                    total[s] += q[s][j];
                }
            }
            double change = 0;
            double[][] next = new double[k][c];
            for (int j = 0; j < c; j++) {
                if (population[j] == 0) {
                    x[j] = 0;
                    resp[j] = 0;
                    continue;
                }
                double[] r = new double[k];
                double sum = 0;
                for (int s = 0; s < k; s++) {
                    if (visits[s][j] == 0) {
                        continue;
                    }
                    double seen = total[s] - q[s][j] / population[j];
                    r[s] = stations[s][j].residenceAt(1 + seen);
                    sum += visits[s][j] * r[s];
                }
                x[j] = population[j] / (thinkMs[j] + sum);
                resp[j] = sum;
                for (int s = 0; s < k; s++) {
                    next[s][j] = x[j] * visits[s][j] * r[s];
                    change = Math.max(change, Math.abs(next[s][j] - q[s][j]) / Math.max(1e-12, population[j]));
                }
            }
            // damped update: a steep μ(t) can make the plain fixed-point iteration oscillate
            for (int s = 0; s < k; s++) {
                for (int j = 0; j < c; j++) {
                    q[s][j] = 0.5 * q[s][j] + 0.5 * next[s][j];
                }
            }
            if (change < 1e-9) {
                break;
            }
        }
        return new Solution(x.clone(), resp.clone(), q);
    }

    private static void check(int k, int c, double[][] visits, double[] thinkMs) {
        if (k == 0 || c == 0) {
            throw new IllegalArgumentException("need at least one station and one class");
        }
        if (visits.length != k || thinkMs.length != c) {
            throw new IllegalArgumentException("visits must be stations × classes and think times one per class");
        }
        for (double[] v : visits) {
            if (v.length != c) {
                throw new IllegalArgumentException("visits must be stations × classes");
            }
            for (double d : v) {
                if (!(d >= 0)) {
                    throw new IllegalArgumentException("visit ratios must be >= 0, got " + d);
                }
            }
        }
        for (double z : thinkMs) {
            if (!(z >= 0)) {
                throw new IllegalArgumentException("think time must be >= 0 ms, got " + z);
            }
        }
    }
}
