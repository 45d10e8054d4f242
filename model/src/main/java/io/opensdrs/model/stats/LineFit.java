package io.opensdrs.model.stats;

import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * A straight line y = slope·x + intercept fitted by (optionally weighted) least squares.
 *
 * <p>Commons Math has no weighted line fit, so the weighted case uses the closed form
 * (weighted means, slope = Σw(x−x̄)(y−ȳ)/Σw(x−x̄)²), which also works for two points where
 * Commons' OLS needs more rows than coefficients. {@link #rSquared()} is always the plain
 * coefficient of determination of the line on the unweighted points, so a quality gate such
 * as Pesto's R² ≥ 0.93 means the same thing whichever estimator drew the line.
 */
public record LineFit(double slope, double intercept, double rSquared, int points) {

    /** Ordinary least squares (Commons Math {@link SimpleRegression}). */
    public static LineFit ordinary(double[] x, double[] y) {
        requireShape(x, y);
        SimpleRegression regression = new SimpleRegression(true);
        for (int i = 0; i < x.length; i++) {
            regression.addData(x[i], y[i]);
        }
        return new LineFit(regression.getSlope(), regression.getIntercept(), regression.getRSquare(), x.length);
    }

    /** Least squares with per-point weights (each ≥ 0, not all zero). */
    public static LineFit weighted(double[] x, double[] y, double[] weights) {
        requireShape(x, y);
        if (weights.length != x.length) {
            throw new IllegalArgumentException("need one weight per point: " + weights.length + " weights, " + x.length + " points");
        }
        double sw = 0;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weights must be finite and >= 0, got " + weights[i]);
            }
            sw += weights[i];
            mx += weights[i] * x[i];
            my += weights[i] * y[i];
        }
        if (!(sw > 0)) {
            throw new IllegalArgumentException("weights are all zero");
        }
        mx /= sw;
        my /= sw;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < x.length; i++) {
            sxx += weights[i] * (x[i] - mx) * (x[i] - mx);
            sxy += weights[i] * (x[i] - mx) * (y[i] - my);
        }
        if (!(sxx > 0)) {
            throw new IllegalArgumentException("the weighted points have no spread in x");
        }
        double slope = sxy / sxx;
        double intercept = my - slope * mx;
        return new LineFit(slope, intercept, rSquaredOf(x, y, slope, intercept), x.length);
    }

    /** {@link #ordinary} under the constraint intercept ≥ 0 (see {@link #nonNegativeIntercept}). */
    public static LineFit ordinaryNonNegativeIntercept(double[] x, double[] y) {
        return nonNegativeIntercept(ordinary(x, y), x, y, null);
    }

    /** {@link #weighted} under the constraint intercept ≥ 0 (see {@link #nonNegativeIntercept}). */
    public static LineFit weightedNonNegativeIntercept(double[] x, double[] y, double[] weights) {
        return nonNegativeIntercept(weighted(x, y, weights), x, y, weights);
    }

    /**
     * The least-squares line with intercept ≥ 0, from the unconstrained fit {@code free} of the same
     * points and weights (null: equal weights). The squared error is a convex quadratic in
     * (slope, intercept), so when its unconstrained minimum has intercept &lt; 0 the minimum under
     * intercept ≥ 0 lies on the boundary intercept = 0: the line through the origin,
     * slope = Σw·x·y / Σw·x². Its {@link #rSquared()} is that line's own, which is lower, so a
     * quality gate applied to the result judges the line actually used.
     */
    private static LineFit nonNegativeIntercept(LineFit free, double[] x, double[] y, double[] weights) {
        if (free.intercept() >= 0) {
            return free;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            double w = weights == null ? 1 : weights[i];
            sxy += w * x[i] * y[i];
            sxx += w * x[i] * x[i];
        }
        if (!(sxx > 0)) {
            throw new IllegalArgumentException("the points have no spread away from x = 0; a line through the origin is undefined");
        }
        double slope = sxy / sxx;
        return new LineFit(slope, 0, rSquaredOf(x, y, slope, 0), x.length);
    }

    /** 1 − SSE/SST of a given line on the points. */
    public static double rSquaredOf(double[] x, double[] y, double slope, double intercept) {
        double mean = 0;
        for (double v : y) {
            mean += v;
        }
        mean /= y.length;
        double sse = 0;
        double sst = 0;
        for (int i = 0; i < x.length; i++) {
            double r = y[i] - (slope * x[i] + intercept);
            sse += r * r;
            sst += (y[i] - mean) * (y[i] - mean);
        }
        return sst == 0 ? (sse == 0 ? 1 : 0) : 1 - sse / sst;
    }

    public double at(double x) {
        return slope * x + intercept;
    }

    private static void requireShape(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " vs " + y.length);
        }
        if (x.length < 2) {
            throw new IllegalArgumentException("a line needs at least 2 points, got " + x.length);
        }
        double first = x[0];
        boolean varies = false;
        for (double v : x) {
            varies |= v != first;
        }
        if (!varies) {
            throw new IllegalArgumentException("all points have the same x (" + first + "); a line needs at least 2 distinct values");
        }
    }
}
