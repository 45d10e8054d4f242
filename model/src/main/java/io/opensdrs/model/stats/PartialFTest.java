package io.opensdrs.model.stats;

import org.apache.commons.math3.distribution.FDistribution;

/**
 * The ANOVA F-test of one term in a linear model: does dropping it raise the residual sum of
 * squares more than noise would? F = ((SSE_reduced − SSE_full)/1) / (SSE_full/(n − p)),
 * p = 1 − F_{1,n−p}(F) (Romano Eqs. 1–2).
 *
 * <p>Each term is tested given all the others (the "Type III" partial test), so the answer
 * does not depend on the order the terms were listed in.
 */
public final class PartialFTest {

    private PartialFTest() {
    }

    /** p-values, one per column of {@code design}, of dropping that column from the full model. */
    public static double[] pValues(double[][] design, double[] y, boolean withIntercept) {
        LeastSquaresFit full = LeastSquaresFit.of(design, y, withIntercept);
        double sseFull = full.residualSumOfSquares();
        int df = full.residualDegreesOfFreedom();
        FDistribution f = new FDistribution(1, df);
        int terms = design[0].length;
        double[] p = new double[terms];
        for (int drop = 0; drop < terms; drop++) {
            double sseReduced = terms == 1
                    ? (withIntercept ? centredSumOfSquares(y) : sumOfSquares(y))
                    : LeastSquaresFit.of(without(design, drop), y, withIntercept).residualSumOfSquares();
            double statistic = Math.max(0, sseReduced - sseFull) / (sseFull / df);
            p[drop] = 1 - f.cumulativeProbability(statistic);
        }
        return p;
    }

    private static double sumOfSquares(double[] y) {
        double s = 0;
        for (double v : y) {
            s += v * v;
        }
        return s;
    }

    private static double centredSumOfSquares(double[] y) {
        double mean = 0;
        for (double v : y) {
            mean += v / y.length;
        }
        double s = 0;
        for (double v : y) {
            s += (v - mean) * (v - mean);
        }
        return s;
    }

    static double[][] without(double[][] design, int column) {
        double[][] reduced = new double[design.length][design[0].length - 1];
        for (int i = 0; i < design.length; i++) {
            for (int j = 0, k = 0; j < design[i].length; j++) {
                if (j != column) {
                    reduced[i][k++] = design[i][j];
                }
            }
        }
        return reduced;
    }
}
