package io.opensdrs.balance;

import java.util.Locale;

/**
 * A value with bounds: a model's point prediction and its interval, or an exact value
 * (lower = value = upper) when the model has no interval or the value was measured.
 */
public record Estimate(double value, double lower, double upper) {

    public Estimate {
        if (!(lower <= value && value <= upper) && !(Double.isNaN(value))) {
            throw new IllegalArgumentException("estimate bounds must hold lower <= value <= upper, got "
                    + lower + " <= " + value + " <= " + upper);
        }
    }

    public static Estimate exact(double v) {
        return new Estimate(v, v, v);
    }

    public boolean hasInterval() {
        return upper > lower;
    }

    public Estimate scaled(double k) {
        return k >= 0 ? new Estimate(value * k, lower * k, upper * k) : new Estimate(value * k, upper * k, lower * k);
    }

    /**
     * A latency in ms as a sentence prints it: two decimals, or two significant digits below
     * 0.005 ms, so that a latency that is not zero never reads "0.00".
     */
    public static String ms(double v) {
        return v != 0 && Math.abs(v) < 0.005 ? String.format(Locale.ROOT, "%.2g", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    /** "4.89 [1.20, 13.24]"; an interval cut at zero reads "[0, 13.24]", a bound, not a latency of 0.00. */
    @Override
    public String toString() {
        return hasInterval() ? ms(value) + " [" + (lower == 0 ? "0" : ms(lower)) + ", " + ms(upper) + "]" : ms(value);
    }
}
