package io.opensdrs.balance;

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

    @Override
    public String toString() {
        return hasInterval()
                ? String.format(java.util.Locale.ROOT, "%.2f [%.2f, %.2f]", value, lower, upper)
                : String.format(java.util.Locale.ROOT, "%.2f", value);
    }
}
