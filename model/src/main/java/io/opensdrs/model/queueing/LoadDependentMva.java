package io.opensdrs.model.queueing;

import java.util.List;

/**
 * Exact Mean Value Analysis of a closed single-class network with load-dependent stations
 * (Reiser and Lavenberg, "Mean-Value Analysis of Closed Multichain Queuing Networks",
 * J. ACM 27(2), 1980; Lazowska et al., QSP, appendix "Load Dependent Service Centers"). With V_k visits to station k,
 * completion rate r_k(j) with j present, think time Z and marginal probabilities p_k(j | n):
 * <pre>
 *   R_k(n)   = Σ_{j=1..n} j / r_k(j) · p_k(j−1 | n−1)
 *   X(n)     = n / (Z + Σ_k V_k R_k(n))
 *   p_k(j|n) = X(n) V_k / r_k(j) · p_k(j−1 | n−1),  p_k(0|n) = 1 − Σ_{j≥1} p_k(j|n)
 * </pre>
 * Noorshams et al. solve their network by simulation (§IV); for product-form networks of
 * load-dependent stations MVA gives the same means exactly.
 */
public final class LoadDependentMva {

    /** Means at the full population: per station the residence per visit and the queue length, and the throughput. */
    public record Solution(double throughputPerMs, double responseTimeMs, double[] residencePerVisitMs, double[] queueLength) {
    }

    private LoadDependentMva() {
    }

    /**
     * @param stations the stations
     * @param visits   visits per request to each station (V_k ≥ 0)
     * @param population number of clients N ≥ 1
     * @param thinkMs  think time Z ≥ 0 between a completion and the client's next request
     */
    public static Solution solve(List<Station> stations, double[] visits, int population, double thinkMs) {
        int k = stations.size();
        if (k == 0 || visits.length != k) {
            throw new IllegalArgumentException("need one visit ratio per station, got " + visits.length + " for " + k);
        }
        if (population < 1) {
            throw new IllegalArgumentException("population must be >= 1, got " + population);
        }
        if (!(thinkMs >= 0)) {
            throw new IllegalArgumentException("think time must be >= 0 ms, got " + thinkMs);
        }
        double[][] p = new double[k][population + 1];
        for (int i = 0; i < k; i++) {
            p[i][0] = 1;
        }
        double[] r = new double[k];
        double[] q = new double[k];
        double x = 0;
        double response = 0;
        for (int n = 1; n <= population; n++) {
            response = 0;
            for (int i = 0; i < k; i++) {
                double sum = 0;
                for (int j = 1; j <= n; j++) {
                    sum += j / stations.get(i).rate(j) * p[i][j - 1];
                }
                r[i] = sum;
                response += visits[i] * sum;
            }
            x = n / (thinkMs + response);
            for (int i = 0; i < k; i++) {
                double[] next = new double[population + 1];
                double busy = 0;
                for (int j = 1; j <= n; j++) {
                    next[j] = x * visits[i] / stations.get(i).rate(j) * p[i][j - 1];
                    busy += next[j];
                }
                // p(0|n) by complement; clamped, since the subtraction loses precision when a station saturates
                next[0] = Math.max(0, 1 - busy);
                p[i] = next;
                q[i] = x * visits[i] * r[i];
            }
        }
        return new Solution(x, response, r.clone(), q.clone());
    }
}
