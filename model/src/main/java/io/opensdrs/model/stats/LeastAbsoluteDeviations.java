package io.opensdrs.model.stats;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.DecompositionSolver;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;

/**
 * A linear regression y = Wβ + ε fitted by least absolute deviations: the β that minimizes
 * Σ|ε|, the quantity Romano Table 5 scores (its "|Mean|"), where least squares (Romano Eq. 7)
 * minimizes Σε². Iteratively reweighted least squares (Schlossmacher 1973): each step solves
 * the weighted least-squares problem with weights 1/max(|ε_i|, δ) from the previous residuals,
 * and it stops when Σ|ε| no longer falls.
 *
 * <p>IRLS stops near the optimum, not at it, so {@link Result#lowerBound()} certifies how near:
 * by linear-programming duality, min Σ|y − Wβ| = max{yᵀu : Wᵀu = 0, |u_i| ≤ 1}, and the last
 * step's weighted residuals, made feasible, are such a u. No β of this design reaches a sum of
 * absolute residuals below the bound.
 */
public final class LeastAbsoluteDeviations {

    private static final int MAX_ITERATIONS = 200;
    private static final double TOLERANCE = 1e-10;
    private static final int PROJECTION_ROUNDS = 500;

    /**
     * @param coefficients β, one per column of the design
     * @param residuals    y − Wβ
     * @param lowerBound   a certified lower bound on min Σ|y − Wβ| over every β
     */
    public record Result(double[] coefficients, double[] residuals, double lowerBound) {
        public double sumOfAbsoluteResiduals() {
            double s = 0;
            for (double e : residuals) {
                s += Math.abs(e);
            }
            return s;
        }
    }

    private LeastAbsoluteDeviations() {
    }

    /** Fits y on the columns of {@code design} (no constant is added: give it as a column of ones). */
    public static Result fit(double[][] design, double[] y) {
        int n = design.length;
        int k = n == 0 ? 0 : design[0].length;
        if (n != y.length) {
            throw new IllegalArgumentException("design has " + n + " rows but y has " + y.length + " values");
        }
        if (n <= k) {
            throw new IllegalArgumentException("least absolute deviations needs more points than coefficients: "
                    + n + " points, " + k + " coefficients");
        }
        // Columns scaled to a largest magnitude of 1: Romano's terms span 1 to 10^10 (X·R·Z·O).
        double[] scale = new double[k];
        for (double[] row : design) {
            for (int j = 0; j < k; j++) {
                scale[j] = Math.max(scale[j], Math.abs(row[j]));
            }
        }
        for (int j = 0; j < k; j++) {
            if (scale[j] == 0) {
                throw new IllegalArgumentException("design column " + j + " is all zeros");
            }
        }
        double yScale = 0;
        for (double v : y) {
            yScale = Math.max(yScale, Math.abs(v));
        }
        double delta = Math.max(yScale, 1e-300) * 1e-12;
        double[] weights = new double[n];
        java.util.Arrays.fill(weights, 1);
        double[] beta = new double[k];
        double[] residuals = y.clone();
        double previous = Double.POSITIVE_INFINITY;
        for (int it = 0; it < MAX_ITERATIONS; it++) {
            beta = weightedSolve(design, y, weights, scale);
            residuals = residuals(design, y, beta);
            double sum = 0;
            for (double e : residuals) {
                sum += Math.abs(e);
            }
            if (previous - sum <= TOLERANCE * Math.max(sum, 1e-300)) {
                break;
            }
            previous = sum;
            for (int i = 0; i < n; i++) {
                weights[i] = 1 / Math.max(Math.abs(residuals[i]), delta);
            }
        }
        return new Result(beta, residuals, dualBound(design, scale, weights, residuals));
    }

    /**
     * The weighted normal equations make u = w·ε orthogonal to the design (Wᵀ·diag(w)·ε = 0);
     * near the optimum |u_i| ≈ 1 except where a residual is ≈ 0 and its weight huge. Alternating
     * projections — clip u into [−1, 1], project it back onto the design's orthogonal complement —
     * pull those in. Each projected u, scaled into [−1, 1], is dual feasible, and its objective
     * yᵀu = εᵀu (yᵀu = βᵀWᵀu + εᵀu) bounds the optimum from below; the best of them is returned.
     */
    private static double dualBound(double[][] design, double[] scale, double[] weights, double[] residuals) {
        int n = residuals.length;
        int k = scale.length;
        double[][] a = new double[n][k];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k; j++) {
                a[i][j] = design[i][j] / scale[j];
            }
        }
        RealMatrix design01 = new Array2DRowRealMatrix(a, false);
        DecompositionSolver leastSquares = new QRDecomposition(design01).getSolver();
        double[] u = new double[n];
        for (int i = 0; i < n; i++) {
            u[i] = weights[i] * residuals[i];
        }
        double best = Double.NEGATIVE_INFINITY;
        for (int round = 0; round < PROJECTION_ROUNDS; round++) {
            double[] back = design01.operate(leastSquares.solve(new ArrayRealVector(u, false)).toArray());
            double largest = 1;
            double objective = 0;
            for (int i = 0; i < n; i++) {
                u[i] -= back[i];
                largest = Math.max(largest, Math.abs(u[i]));
                objective += residuals[i] * u[i];
            }
            best = Math.max(best, objective / largest);
            for (int i = 0; i < n; i++) {
                u[i] = Math.max(-1, Math.min(1, u[i]));
            }
        }
        return best;
    }

    private static double[] weightedSolve(double[][] design, double[] y, double[] weights, double[] scale) {
        int n = design.length;
        int k = scale.length;
        double[][] a = new double[n][k];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            double w = Math.sqrt(weights[i]);
            for (int j = 0; j < k; j++) {
                a[i][j] = design[i][j] / scale[j] * w;
            }
            b[i] = y[i] * w;
        }
        DecompositionSolver solver = new QRDecomposition(new Array2DRowRealMatrix(a, false)).getSolver();
        if (!solver.isNonSingular()) {
            throw new IllegalArgumentException("the design's columns are linearly dependent: the points cannot tell its "
                    + k + " coefficients apart");
        }
        RealVector solution = solver.solve(new ArrayRealVector(b, false));
        double[] beta = new double[k];
        for (int j = 0; j < k; j++) {
            beta[j] = solution.getEntry(j) / scale[j];
        }
        return beta;
    }

    private static double[] residuals(double[][] design, double[] y, double[] beta) {
        double[] r = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            double fitted = 0;
            for (int j = 0; j < beta.length; j++) {
                fitted += beta[j] * design[i][j];
            }
            r[i] = y[i] - fitted;
        }
        return r;
    }
}
