package io.opensdrs.server.stats;

import java.util.Arrays;

/**
 * Several quantiles of one stream with the P² algorithm (Jain and Chlamtac, CACM 1985), as
 * Pesto §5.2 keeps its workload percentiles: five markers per quantile, constant memory, no
 * stored history.
 *
 * <p>Why not the model module's {@code PercentileTracker} (Commons Math {@code PSquarePercentile})?
 * The server folds every sample into 144 quantile estimators (2 scopes × 2 windows × 2 panes ×
 * 6 metrics × 3 quantiles) and must sustain 150,000 samples/s (B4); {@code PSquarePercentile}
 * keeps its markers as objects in lists and allocates per increment. This class keeps all markers
 * of all quantiles in three flat arrays and allocates nothing per sample. The estimates are the
 * same algorithm; {@code P2QuantilesTest} checks them against exact percentiles.
 *
 * <p>Not thread-safe: callers lock the subject that owns it.
 */
final class P2Quantiles {

    private final double[] p;          // the quantiles, as fractions in (0, 1)
    private final double[] height;     // q_i: marker heights, 5 per quantile
    private final double[] position;   // n_i: actual marker positions (0-based)
    private final double[] desired;    // n'_i: desired marker positions
    private long count;

    P2Quantiles(double... fractions) {
        this.p = fractions.clone();
        this.height = new double[5 * p.length];
        this.position = new double[5 * p.length];
        this.desired = new double[5 * p.length];
    }

    void reset() {
        count = 0;
    }

    long count() {
        return count;
    }

    void add(double x) {
        if (count < 5) {
            // the first five observations are the initial markers, kept sorted
            int c = (int) count;
            for (int j = 0; j < p.length; j++) {
                int b = 5 * j;
                int i = c;
                while (i > 0 && height[b + i - 1] > x) {
                    height[b + i] = height[b + i - 1];
                    i--;
                }
                height[b + i] = x;
                if (c == 4) {
                    double pj = p[j];
                    for (int m = 0; m < 5; m++) {
                        position[b + m] = m;
                    }
                    desired[b] = 0;
                    desired[b + 1] = 2 * pj;
                    desired[b + 2] = 4 * pj;
                    desired[b + 3] = 2 + 2 * pj;
                    desired[b + 4] = 4;
                }
            }
            count++;
            return;
        }
        count++;
        for (int j = 0; j < p.length; j++) {
            update(5 * j, p[j], x);
        }
    }

    private void update(int b, double pj, double x) {
        double[] q = height;
        double[] n = position;
        int k;
        if (x < q[b]) {
            q[b] = x;
            k = 0;
        } else if (x >= q[b + 4]) {
            q[b + 4] = x;
            k = 3;
        } else {
            k = 0;
            while (k < 3 && x >= q[b + k + 1]) {
                k++;
            }
        }
        for (int i = k + 1; i < 5; i++) {
            n[b + i] += 1;
        }
        desired[b + 1] += pj / 2;
        desired[b + 2] += pj;
        desired[b + 3] += (1 + pj) / 2;
        desired[b + 4] += 1;
        for (int i = 1; i <= 3; i++) {
            int at = b + i;
            double d = desired[at] - n[at];
            if ((d >= 1 && n[at + 1] - n[at] > 1) || (d <= -1 && n[at - 1] - n[at] < -1)) {
                double s = d >= 0 ? 1 : -1;
                double parabolic = q[at] + s / (n[at + 1] - n[at - 1])
                        * ((n[at] - n[at - 1] + s) * (q[at + 1] - q[at]) / (n[at + 1] - n[at])
                        + (n[at + 1] - n[at] - s) * (q[at] - q[at - 1]) / (n[at] - n[at - 1]));
                if (q[at - 1] < parabolic && parabolic < q[at + 1]) {
                    q[at] = parabolic;
                } else {
                    int o = s > 0 ? at + 1 : at - 1;
                    q[at] = q[at] + s * (q[o] - q[at]) / (n[o] - n[at]);
                }
                n[at] += s;
            }
        }
    }

    /** The estimate of quantile {@code j} (index into the constructor's fractions); NaN when empty. */
    double estimate(int j) {
        if (count == 0) {
            return Double.NaN;
        }
        int b = 5 * j;
        if (count < 5) {
            // exact, nearest-rank on the few values seen
            double[] seen = Arrays.copyOfRange(height, b, b + (int) count);
            int rank = (int) Math.ceil(p[j] * count) - 1;
            return seen[Math.max(0, Math.min(seen.length - 1, rank))];
        }
        return height[b + 2];
    }
}
