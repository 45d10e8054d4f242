package io.opensdrs.model.stats;

/**
 * How a regression's residual variance grows with the fitted value: Harvey's multiplicative
 * heteroscedasticity (A. C. Harvey, "Estimating Regression Models with Multiplicative
 * Heteroscedasticity", Econometrica 44(3), 1976), σ²(ŷ) = exp(γ0)·ŷ^γ1, with γ fitted by least
 * squares of ln eᵢ² on ln ŷᵢ and γ0 corrected by −E[ln χ²₁] = 1.2704 (ln e² of a normal
 * residual is ln σ² + ln χ²₁).
 *
 * <p>Why: latency is queueing time, and its errors scale with it (Pesto Eq. 1: L = m·O + C; an
 * error in the slope m is an error proportional to O). A single σ̂ for a whole test vector —
 * what the ordinary least-squares interval assumes — is set by the slowest points (1 MiB IOs
 * at 16 outstanding, hundreds of ms) and spans ±40 ms around a 20-ms prediction; the interval
 * covers 95 % of the test vector on average while being far too wide where latencies are
 * small and too narrow where they are large.
 *
 * <p>Fitted values at or below zero (an extrapolation the regression allows) are read at the
 * smallest positive fitted value; with fewer than three usable residuals the variance is the
 * constant σ̂² (no heteroscedasticity can be estimated).
 */
public final class ResidualVariance {
    /** −E[ln χ²₁] = γ + ln 2 (Euler–Mascheroni γ). */
    private static final double LOG_CHI2_BIAS = 0.5772156649015329 + Math.log(2);

    private final double gamma0;
    private final double gamma1;
    private final double floor;
    private final double constant;
    /** |eᵢ| / σ(ŷᵢ), sorted; null for constant variance. */
    private final double[] standardized;

    private ResidualVariance(double gamma0, double gamma1, double floor, double constant, double[] standardized) {
        this.gamma0 = gamma0;
        this.gamma1 = gamma1;
        this.floor = floor;
        this.constant = constant;
        this.standardized = standardized;
    }

    /**
     * @param fitted    ŷᵢ of the fit's observations
     * @param residuals eᵢ = yᵢ − ŷᵢ
     * @param constantVariance σ̂², used when no dependence on ŷ can be estimated
     */
    public static ResidualVariance fit(double[] fitted, double[] residuals, double constantVariance) {
        double floor = smallestPositive(fitted, residuals);
        // A residual of exactly zero has ln e² = −∞; read it as a tiny fraction of σ̂.
        double tiny = Math.max(1e-12, 1e-8 * constantVariance);
        int n = fitted.length;
        if (n < 3 || !Double.isFinite(floor)) {
            return constant(constantVariance);
        }
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            double x = Math.log(Math.max(fitted[i], floor));
            double y = Math.log(Math.max(residuals[i] * residuals[i], tiny));
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double den = n * sxx - sx * sx;
        if (!(den > 1e-12 * n * n)) {
            return constant(constantVariance);
        }
        double g1 = (n * sxy - sx * sy) / den;
        double g0 = (sy - g1 * sx) / n + LOG_CHI2_BIAS;
        return withStandardized(g0, g1, floor, fitted, residuals);
    }

    /**
     * Harvey's form with the exponent fixed at γ1 = 2, errors proportional to the fitted value:
     * σ²(ŷ) = s²·ŷ², s² = Σ(eᵢ/ŷᵢ)² / (n − p). For a fit from a few points (an injector run of
     * ten or thirty levels), where ln eᵢ² is too noisy to estimate γ1 — its standard error is
     * about 1 at thirty points, so the estimate can come out negative and the interval narrow
     * where latency is large.
     *
     * @param parameters the regression's coefficient count p
     */
    public static ResidualVariance proportional(double[] fitted, double[] residuals, int parameters) {
        double floor = smallestPositive(fitted, residuals);
        int n = fitted.length;
        if (n <= parameters || !Double.isFinite(floor)) {
            throw new IllegalArgumentException("proportional residual variance needs more than " + parameters
                    + " points with a positive fitted value, got " + n);
        }
        double s2 = 0;
        for (int i = 0; i < n; i++) {
            double r = residuals[i] / Math.max(fitted[i], floor);
            s2 += r * r;
        }
        s2 /= n - parameters;
        return withStandardized(Math.log(Math.max(s2, 1e-300)), 2, floor, fitted, residuals);
    }

    /** The smallest positive fitted value (∞ when none is), after checking the two arrays pair up. */
    private static double smallestPositive(double[] fitted, double[] residuals) {
        if (fitted.length != residuals.length) {
            throw new IllegalArgumentException(fitted.length + " fitted values, " + residuals.length + " residuals");
        }
        double floor = Double.POSITIVE_INFINITY;
        for (double f : fitted) {
            if (f > 0) {
                floor = Math.min(floor, f);
            }
        }
        return floor;
    }

    /** σ²(ŷ) = exp(γ0)·ŷ^γ1 with the fit's residuals standardized by it, for {@link #quantile}. */
    private static ResidualVariance withStandardized(double g0, double g1, double floor, double[] fitted, double[] residuals) {
        ResidualVariance v = new ResidualVariance(g0, g1, floor, Double.NaN, null);
        double[] z = new double[fitted.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = Math.abs(residuals[i]) / Math.sqrt(v.at(fitted[i]));
        }
        java.util.Arrays.sort(z);
        return new ResidualVariance(g0, g1, floor, Double.NaN, z);
    }

    /** No dependence on the fitted value: σ²(ŷ) = σ̂². */
    public static ResidualVariance constant(double variance) {
        return new ResidualVariance(Double.NaN, Double.NaN, Double.NaN, variance, null);
    }

    /** σ²(ŷ). */
    public double at(double fittedValue) {
        if (!Double.isNaN(constant)) {
            return constant;
        }
        return Math.exp(gamma0 + gamma1 * Math.log(Math.max(fittedValue, floor)));
    }

    /**
     * The two-sided {@code confidence} quantile of the standardized residuals |eᵢ| / σ(ŷᵢ) — the
     * multiple of σ(ŷ) that held that share of the fit's own residuals — or NaN for constant
     * variance (then the t quantile applies). Latency residuals are heavy-tailed (on the four
     * emulated devices the 95 % point of |z| is 1.8–3.0, not 1.96), so a normal quantile would
     * under-cover where the tails are heavy and over-cover elsewhere.
     */
    public double quantile(double confidence) {
        if (standardized == null) {
            return Double.NaN;
        }
        // The smallest order statistic with at least that share at or below it.
        int k = (int) Math.ceil(confidence * standardized.length) - 1;
        return standardized[Math.max(0, Math.min(standardized.length - 1, k))];
    }

    /** γ1: 0 for constant variance (also when no dependence could be estimated), 2 for errors proportional to ŷ. */
    public double exponent() {
        return Double.isNaN(constant) ? gamma1 : 0;
    }
}
