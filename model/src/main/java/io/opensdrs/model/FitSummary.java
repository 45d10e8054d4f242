package io.opensdrs.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a fit produced: the model's name, its coefficient of determination on the fitted
 * points, the fitted parameters by name (in the paper's notation) and the number of points.
 */
public record FitSummary(String model, double rSquared, Map<String, Double> parameters, int points) {

    public FitSummary {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    public double parameter(String name) {
        Double v = parameters.get(name);
        if (v == null) {
            throw new IllegalArgumentException("model " + model + " has no parameter " + name);
        }
        return v;
    }
}
