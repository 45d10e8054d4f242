package io.opensdrs.model;

/** A two-sided interval [lower, upper] at a stated confidence level (e.g. 0.95). */
public record Interval(double lower, double upper, double confidence) {

    public Interval {
        if (lower > upper) {
            throw new IllegalArgumentException("interval lower " + lower + " > upper " + upper);
        }
    }

    public boolean contains(double value) {
        return value >= lower && value <= upper;
    }
}
