package io.opensdrs.server.stats;

import java.util.Arrays;

/**
 * Several quantiles of one or more streams with the P² algorithm (Jain and Chlamtac, CACM 1985),
 * as Pesto §5.2 keeps its workload percentiles: five markers per quantile, constant memory, no
 * stored history.
 *
 * <p>Why not Commons Math's {@code PSquarePercentile}: the server folds every disk's window into
 * many estimators at once (scopes × windows × panes × metrics × quantiles), and
 * {@code PSquarePercentile} keeps its markers as objects in lists and allocates per increment.
 * This class keeps all markers of all quantiles of all streams in flat arrays and allocates
 * nothing per sample. It is the project's one P² implementation.
 *
 * <p>Why several streams in one object: a subject's six metrics arrive together, one value each
 * per sample, so their estimators always have the same count; P²'s desired marker positions
 * depend only on the count and the quantile, not on the data, so they are kept once for all
 * streams. Each stream's estimates are exactly those of a separate single-stream P²;
 * {@code P2QuantilesTest} checks them against exact percentiles and against one stream alone.
 *
 * <p>Not thread-safe: callers lock the subject that owns it.
 */
final class P2Quantiles {

    private final double[] p;          // the quantiles, as fractions in (0, 1)
    private final int streams;
    private final int perStream;       // 5 markers per quantile
    private final double[] height;     // q_i: marker heights, [stream][quantile][marker]
    private final double[] position;   // n_i: actual marker positions (0-based), same layout
    private final double[] desired;    // n'_i: desired marker positions, [quantile][marker], shared
    private final double[] step;       // dn'_i: increment of n'_i per observation, [quantile][marker]
    private long count;

    P2Quantiles(double... fractions) {
        this(1, fractions);
    }

    P2Quantiles(int streams, double... fractions) {
        if (streams < 1) {
            throw new IllegalArgumentException("streams must be >= 1");
        }
        this.p = fractions.clone();
        this.streams = streams;
        this.perStream = 5 * p.length;
        this.height = new double[streams * perStream];
        this.position = new double[streams * perStream];
        this.desired = new double[perStream];
        this.step = new double[perStream];
        for (int j = 0; j < p.length; j++) {
            int b = 5 * j;
            step[b + 1] = p[j] / 2;
            step[b + 2] = p[j];
            step[b + 3] = (1 + p[j]) / 2;
            step[b + 4] = 1;
        }
    }

    void reset() {
        count = 0;
    }

    long count() {
        return count;
    }

    int streams() {
        return streams;
    }

    /** One observation of a single-stream estimator. */
    void add(double x) {
        if (streams != 1) {
            throw new IllegalStateException("add(double) on a " + streams + "-stream estimator");
        }
        if (count < 5) {
            initial(0, x);
            if (count == 4) {
                initialPositions();
            }
            count++;
            return;
        }
        advanceDesired();
        count++;
        for (int j = 0; j < p.length; j++) {
            update(5 * j, 5 * j, x);
        }
    }

    /** One observation of every stream: stream {@code s} gets {@code xs[offset + s]}. */
    void add(double[] xs, int offset) {
        if (count < 5) {
            for (int s = 0; s < streams; s++) {
                initial(s, xs[offset + s]);
            }
            if (count == 4) {
                initialPositions();
            }
            count++;
            return;
        }
        advanceDesired();
        count++;
        int quantiles = p.length;
        for (int s = 0; s < streams; s++) {
            double x = xs[offset + s];
            int base = s * perStream;
            for (int j = 0; j < quantiles; j++) {
                update(base + 5 * j, 5 * j, x);
            }
        }
    }

    /** The first five observations are the initial markers, kept sorted. */
    private void initial(int stream, double x) {
        int c = (int) count;
        for (int j = 0; j < p.length; j++) {
            int b = stream * perStream + 5 * j;
            int i = c;
            while (i > 0 && height[b + i - 1] > x) {
                height[b + i] = height[b + i - 1];
                i--;
            }
            height[b + i] = x;
        }
    }

    private void initialPositions() {
        for (int i = 0; i < position.length; i++) {
            position[i] = i % 5;
        }
        for (int j = 0; j < p.length; j++) {
            int b = 5 * j;
            double pj = p[j];
            desired[b] = 0;
            desired[b + 1] = 2 * pj;
            desired[b + 2] = 4 * pj;
            desired[b + 3] = 2 + 2 * pj;
            desired[b + 4] = 4;
        }
    }

    private void advanceDesired() {
        double[] d = desired;
        double[] inc = step;
        for (int i = 0; i < d.length; i++) {
            d[i] += inc[i];
        }
    }

    /**
     * @param b index of the quantile's first marker in height/position
     * @param db index of the same quantile's first marker in desired
     */
    private void update(int b, int db, double x) {
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
        for (int i = 1; i <= 3; i++) {
            int at = b + i;
            double d = desired[db + i] - n[at];
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

    /** The estimate of quantile {@code j} of a single-stream estimator; NaN when empty. */
    double estimate(int j) {
        return estimate(0, j);
    }

    /**
     * The estimate of quantile {@code j} (index into the constructor's fractions) of stream
     * {@code stream}; NaN when empty.
     */
    double estimate(int stream, int j) {
        if (count == 0) {
            return Double.NaN;
        }
        int b = stream * perStream + 5 * j;
        if (count < 5) {
            // exact, nearest-rank on the few values seen
            double[] seen = Arrays.copyOfRange(height, b, b + (int) count);
            int rank = (int) Math.ceil(p[j] * count) - 1;
            return seen[Math.max(0, Math.min(seen.length - 1, rank))];
        }
        return height[b + 2];
    }
}
