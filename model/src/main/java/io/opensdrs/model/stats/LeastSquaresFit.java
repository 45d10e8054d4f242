package io.opensdrs.model.stats;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * A multiple linear regression y = Wβ + ε fitted by ordinary least squares (Romano Eqs. 4
 * and 7, Noorshams Eqs. 1–3), with the per-coefficient t-tests and the prediction interval
 * for a new observation that ordinary least-squares theory gives.
 */
public final class LeastSquaresFit {

    private final double[] beta;
    private final double[] standardErrors;
    private final RealMatrix unscaledCovariance;
    private final double errorVariance;
    private final double residualSumOfSquares;
    private final double rSquared;
    private final int observations;
    private final boolean intercept;
    private final double[] residuals;
    private final double[] fitted;

    private LeastSquaresFit(OLSMultipleLinearRegression ols, double[] y, boolean intercept) {
        this.beta = ols.estimateRegressionParameters();
        this.standardErrors = ols.estimateRegressionParametersStandardErrors();
        this.unscaledCovariance = MatrixUtils.createRealMatrix(ols.estimateRegressionParametersVariance());
        this.errorVariance = ols.estimateErrorVariance();
        this.residualSumOfSquares = ols.calculateResidualSumOfSquares();
        this.rSquared = ols.calculateRSquared();
        this.observations = y.length;
        this.intercept = intercept;
        this.residuals = ols.estimateResiduals();
        this.fitted = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            fitted[i] = y[i] - residuals[i];
        }
    }

    /**
     * Fits y on the columns of {@code design}.
     *
     * @param withIntercept whether to add a constant column (Romano's model has none: every
     *     term holds O, Eq. 17)
     */
    public static LeastSquaresFit of(double[][] design, double[] y, boolean withIntercept) {
        int columns = design.length == 0 ? 0 : design[0].length + (withIntercept ? 1 : 0);
        if (design.length <= columns) {
            throw new IllegalArgumentException("least squares needs more points than coefficients: "
                    + design.length + " points, " + columns + " coefficients");
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(!withIntercept);
        ols.newSampleData(y, design);
        return new LeastSquaresFit(ols, y.clone(), withIntercept);
    }

    /** β in the order of the design columns, preceded by the constant when there is one. */
    public double[] coefficients() {
        return beta.clone();
    }

    /** eᵢ = yᵢ − ŷᵢ of the fitted observations, in their order. */
    public double[] residuals() {
        return residuals.clone();
    }

    /** ŷᵢ of the fitted observations, in their order. */
    public double[] fittedValues() {
        return fitted.clone();
    }

    public double residualSumOfSquares() {
        return residualSumOfSquares;
    }

    /** σ̂² = SSE / (n − p). */
    public double errorVariance() {
        return errorVariance;
    }

    public int residualDegreesOfFreedom() {
        return observations - beta.length;
    }

    public double rSquared() {
        return rSquared;
    }

    /** Two-sided p-value of the t-test that coefficient {@code i} is zero. */
    public double pValue(int i) {
        double t = beta[i] / standardErrors[i];
        TDistribution dist = new TDistribution(residualDegreesOfFreedom());
        return 2 * dist.cumulativeProbability(-Math.abs(t));
    }

    public double predict(double[] row) {
        RealVector x = augmented(row);
        return x.dotProduct(MatrixUtils.createRealVector(beta));
    }

    /**
     * The prediction interval for one new observation at {@code row}:
     * ŷ ± t(1−(1−c)/2; n−p) · σ̂ · √(1 + xᵀ(WᵀW)⁻¹x). This is what makes "95 % of measured
     * latencies fall inside" true; Romano Eq. 19 as printed (± 1.96σ/√n) is the interval for
     * the mean and would cover far fewer single measurements.
     */
    public double[] predictionInterval(double[] row, double confidence) {
        return predictionInterval(row, confidence, ResidualVariance.constant(errorVariance));
    }

    /**
     * As {@link #predictionInterval(double[], double)} with the new observation's own variance
     * taken from {@code variance} at ŷ instead of the constant σ̂²:
     * ŷ ± q · √(σ²(ŷ) + σ̂²·xᵀ(WᵀW)⁻¹x), q the larger of the t quantile and the standardized
     * residuals' own ({@link ResidualVariance#quantile}).
     */
    public double[] predictionInterval(double[] row, double confidence, ResidualVariance variance) {
        RealVector x = augmented(row);
        double yHat = x.dotProduct(MatrixUtils.createRealVector(beta));
        double leverage = unscaledCovariance.operate(x).dotProduct(x);
        // Never narrower than normal theory: a 95 % point read from a thousand residuals is itself
        // uncertain (±0.1 at n = 1225), and in-sample residuals understate new ones.
        double q = variance.quantile(confidence);
        double t = Double.isNaN(q) ? tQuantile(confidence) : Math.max(q, tQuantile(confidence));
        double half = t * Math.sqrt(variance.at(yHat) + errorVariance * leverage);
        return new double[] {yHat - half, yHat + half};
    }

    /** t quantile for a confidence, cached: the balancing engine asks for thousands of intervals per run. */
    private double tQuantile(double confidence) {
        double[] cached = tCache;
        if (cached != null && cached[0] == confidence) {
            return cached[1];
        }
        double t = new TDistribution(residualDegreesOfFreedom()).inverseCumulativeProbability(1 - (1 - confidence) / 2);
        tCache = new double[] {confidence, t};
        return t;
    }

    /** {confidence, t}; replaced whole, so a reader never sees a half-updated pair. */
    private volatile double[] tCache;

    private RealVector augmented(double[] row) {
        if (row.length + (intercept ? 1 : 0) != beta.length) {
            throw new IllegalArgumentException("row has " + row.length + " terms, model has " + beta.length);
        }
        double[] full = new double[beta.length];
        int offset = intercept ? 1 : 0;
        if (intercept) {
            full[0] = 1;
        }
        System.arraycopy(row, 0, full, offset, row.length);
        return MatrixUtils.createRealVector(full);
    }
}
