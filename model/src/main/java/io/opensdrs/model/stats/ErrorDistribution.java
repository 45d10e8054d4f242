package io.opensdrs.model.stats;

import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

import java.util.Collection;

/** Summary of absolute relative errors: count, mean, median, 90th percentile, max, and how many exceed a limit. */
public record ErrorDistribution(int count, double mean, double median, double p90, double max, int overLimit, double limit) {

    /** @param relativeErrors signed relative errors (0.05 = 5 %); their absolute values are summarised */
    public static ErrorDistribution of(Collection<Double> relativeErrors, double limit) {
        DescriptiveStatistics s = new DescriptiveStatistics();
        int over = 0;
        for (double e : relativeErrors) {
            s.addValue(Math.abs(e));
            if (Math.abs(e) > limit) {
                over++;
            }
        }
        if (s.getN() == 0) {
            return new ErrorDistribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, limit);
        }
        return new ErrorDistribution((int) s.getN(), s.getMean(), s.getPercentile(50), s.getPercentile(90), s.getMax(), over, limit);
    }
}
