package io.opensdrs.bench;

import java.util.Arrays;

/**
 * Residual statistics of one model as Romano Table 5 prints them (ε = prediction −
 * measurement, ms): min, first quartile, median, mean, mean |ε|, third quartile, max; plus
 * how many measurements fell outside the model's 95 % interval, for models that give one
 * (Romano §5.2: about 5 % should).
 *
 * @param withInterval measurements whose prediction carried an interval
 * @param outside of those, measurements outside it
 */
public record ResidualSummary(int count, double min, double q1, double median, double mean, double meanAbsolute,
                              double q3, double max, int withInterval, int outside) {

    public static ResidualSummary of(double[] residuals, int withInterval, int outside) {
        if (residuals.length == 0) {
            return new ResidualSummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, withInterval, outside);
        }
        double[] s = residuals.clone();
        Arrays.sort(s);
        double sum = 0;
        double abs = 0;
        for (double r : s) {
            sum += r;
            abs += Math.abs(r);
        }
        return new ResidualSummary(s.length, s[0], quantile(s, 0.25), quantile(s, 0.5), sum / s.length,
                abs / s.length, quantile(s, 0.75), s[s.length - 1], withInterval, outside);
    }

    /** R's default (type 7) quantile, as R's summary() behind Table 5 computes it. */
    static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /** Share of measurements outside the interval, or NaN when the model gives none. */
    public double outsideShare() {
        return withInterval == 0 ? Double.NaN : (double) outside / withInterval;
    }

    /** Share inside the interval (the coverage), or NaN when the model gives none. */
    public double coverage() {
        return withInterval == 0 ? Double.NaN : 1 - outsideShare();
    }
}
