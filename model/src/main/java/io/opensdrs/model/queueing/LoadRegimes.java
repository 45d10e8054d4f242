package io.opensdrs.model.queueing;

import java.util.Map;

/**
 * A station's service time in two load regimes (Noorshams §IV-D.2: "case s1, where the number of
 * threads is less than or equal to 30, and case s2, where the number of threads is greater than
 * 30", each queue fitted per case): μ₁ for loads up to the threshold, μ₂ above it, each a
 * {@link ServiceTimeRegression}. A regime without enough measurements to fit (fewer than two
 * load levels, or too few points for the terms) is left out and the other covers all loads.
 */
final class LoadRegimes {

    /** The paper's threshold between its regimes s1 and s2, in requests at the station. */
    static final double THRESHOLD = 30;

    private final ServiceTimeRegression light;
    private final ServiceTimeRegression heavy;

    private LoadRegimes(ServiceTimeRegression light, ServiceTimeRegression heavy) {
        this.light = light;
        this.heavy = heavy;
    }

    /**
     * @param split whether to fit the two regimes; the paper splits by threads for random reads only
     *     (§IV-D.2), its other classes' cases are cached and uncached data, which the ln f terms carry
     */
    static LoadRegimes calibrate(double[] load, double[] size, double[] fileSet, double[] responseMs, double pruneAbove,
                                 boolean split) {
        ServiceTimeRegression all = ServiceTimeRegression.calibrate(load, size, fileSet, responseMs,
                ServiceTimeRegression.equation2Terms(), pruneAbove);
        if (!split) {
            return new LoadRegimes(all, all);
        }
        ServiceTimeRegression light = subset(load, size, fileSet, responseMs, pruneAbove, true);
        ServiceTimeRegression heavy = subset(load, size, fileSet, responseMs, pruneAbove, false);
        return new LoadRegimes(light != null && heavy != null ? light : all, light != null && heavy != null ? heavy : all);
    }

    private static ServiceTimeRegression subset(double[] load, double[] size, double[] fileSet, double[] y, double pruneAbove,
                                                boolean light) {
        int n = 0;
        java.util.Set<Double> levels = new java.util.HashSet<>();
        for (double a : load) {
            if ((a <= THRESHOLD) == light) {
                n++;
                levels.add(a);
            }
        }
        if (levels.size() < 2) {
            return null;
        }
        double[][] cols = new double[4][n];
        int i = 0;
        for (int j = 0; j < load.length; j++) {
            if ((load[j] <= THRESHOLD) == light) {
                cols[0][i] = load[j];
                cols[1][i] = size[j];
                cols[2][i] = fileSet[j];
                cols[3][i] = y[j];
                i++;
            }
        }
        try {
            return ServiceTimeRegression.calibrate(cols[0], cols[1], cols[2], cols[3], ServiceTimeRegression.equation2Terms(), pruneAbove);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    double serviceTimeMs(double load, double size, double fileSet) {
        return (load <= THRESHOLD ? light : heavy).serviceTimeMs(load, size, fileSet);
    }

    boolean split() {
        return light != heavy;
    }

    void describe(String prefix, Map<String, Double> out) {
        describe(split() ? prefix + "s1." : prefix, light, out);
        if (split()) {
            describe(prefix + "s2.", heavy, out);
        }
    }

    static void describe(String prefix, ServiceTimeRegression reg, Map<String, Double> out) {
        double[] c = reg.coefficients();
        out.put(prefix + "const", c[0]);
        for (int i = 0; i < reg.terms().size(); i++) {
            out.put(prefix + reg.terms().get(i), c[i + 1]);
        }
    }
}
