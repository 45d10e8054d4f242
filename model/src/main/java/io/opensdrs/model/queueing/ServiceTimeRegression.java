package io.opensdrs.model.queueing;

import io.opensdrs.model.stats.LeastSquaresFit;

import java.util.ArrayList;
import java.util.List;

/**
 * The load-dependent mean service time of Noorshams et al., fitted by least squares from
 * response times: μ(t, s) = c1·t·s + c2·t + c3·s + c4 (Noorshams Eq. 1), t the number of
 * clients (threads, here outstanding IOs) and s the request size; with a working-set size f,
 * the ln(f) terms of Eq. 2 (c1·t·s·ln f + c2·t·ln f + c3·s·ln f + c4·t·s + c5·t + c6·s + c7·ln f + c8).
 * Terms whose p-value exceeds 0.05 are pruned one at a time, least significant first, and
 * the rest refitted (Noorshams §IV).
 */
public final class ServiceTimeRegression {

    /** A candidate term: t^a · s^b · (ln f)^c with a, b, c ∈ {0, 1}; the constant is implicit. */
    public record Term(int t, int s, int lnF) {
        double value(double threads, double size, double fileSet) {
            double v = 1;
            if (t == 1) {
                v *= threads;
            }
            if (s == 1) {
                v *= size;
            }
            if (lnF == 1) {
                v *= Math.log(fileSet);
            }
            return v;
        }

        @Override
        public String toString() {
            List<String> p = new ArrayList<>();
            if (t == 1) {
                p.add("t");
            }
            if (s == 1) {
                p.add("s");
            }
            if (lnF == 1) {
                p.add("ln f");
            }
            return String.join("·", p);
        }
    }

    private final List<Term> terms;
    private final LeastSquaresFit fit;

    private ServiceTimeRegression(List<Term> terms, LeastSquaresFit fit) {
        this.terms = terms;
        this.fit = fit;
    }

    /** Eq. 1's non-constant terms: t·s, t, s. */
    public static List<Term> equation1Terms() {
        return List.of(new Term(1, 1, 0), new Term(1, 0, 0), new Term(0, 1, 0));
    }

    /** Eq. 2's non-constant terms: Eq. 1's, each also times ln f, and ln f alone. */
    public static List<Term> equation2Terms() {
        return List.of(new Term(1, 1, 1), new Term(1, 0, 1), new Term(0, 1, 1),
                new Term(1, 1, 0), new Term(1, 0, 0), new Term(0, 1, 0), new Term(0, 0, 1));
    }

    /**
     * Fits μ to mean response times. {@code fileSet} may be null when no ln f terms are used.
     * Candidate terms with a factor that does not vary in the data are left out before pruning.
     */
    public static ServiceTimeRegression calibrate(double[] threads, double[] size, double[] fileSet,
                                                  double[] responseTimeMs, List<Term> candidates, double pruneAbove) {
        List<Term> current = new ArrayList<>();
        for (Term term : candidates) {
            if (term.lnF() == 1 && fileSet == null) {
                continue;
            }
            // Every factor must vary: with a constant size, t·s is a multiple of t and the fit is singular.
            boolean identifiable = (term.t() == 0 || varies(new Term(1, 0, 0), threads, size, fileSet))
                    && (term.s() == 0 || varies(new Term(0, 1, 0), threads, size, fileSet))
                    && (term.lnF() == 0 || varies(new Term(0, 0, 1), threads, size, fileSet));
            if (identifiable) {
                current.add(term);
            }
        }
        while (true) {
            if (threads.length <= current.size() + 1) {
                throw new IllegalArgumentException("queueing calibration needs more than " + (current.size() + 1)
                        + " points, got " + threads.length);
            }
            LeastSquaresFit f = current.isEmpty() ? null : LeastSquaresFit.of(design(current, threads, size, fileSet), responseTimeMs, true);
            if (f == null) {
                throw new IllegalArgumentException("queueing: no service-time term varies in the data (need several oio levels)");
            }
            int worst = -1;
            double worstP = pruneAbove;
            for (int i = 0; i < current.size(); i++) {
                double p = f.pValue(i + 1);
                if (p > worstP) {
                    worst = i;
                    worstP = p;
                }
            }
            if (worst < 0 || current.size() == 1) {
                return new ServiceTimeRegression(List.copyOf(current), f);
            }
            current.remove(worst);
        }
    }

    private static boolean varies(Term term, double[] t, double[] s, double[] f) {
        double first = term.value(t[0], s[0], f == null ? 1 : f[0]);
        for (int i = 1; i < t.length; i++) {
            if (term.value(t[i], s[i], f == null ? 1 : f[i]) != first) {
                return true;
            }
        }
        return false;
    }

    private static double[][] design(List<Term> terms, double[] t, double[] s, double[] f) {
        double[][] d = new double[t.length][terms.size()];
        for (int i = 0; i < t.length; i++) {
            for (int j = 0; j < terms.size(); j++) {
                d[i][j] = terms.get(j).value(t[i], s[i], f == null ? 1 : f[i]);
            }
        }
        return d;
    }

    public List<Term> terms() {
        return terms;
    }

    /** c4 (the constant) first, then one coefficient per {@link #terms()} entry. */
    public double[] coefficients() {
        return fit.coefficients();
    }

    public double rSquared() {
        return fit.rSquared();
    }

    public double serviceTimeMs(double threads, double size, double fileSet) {
        double[] row = new double[terms.size()];
        for (int j = 0; j < row.length; j++) {
            row[j] = terms.get(j).value(threads, size, fileSet);
        }
        return fit.predict(row);
    }
}
