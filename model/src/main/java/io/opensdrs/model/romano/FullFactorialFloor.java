package io.opensdrs.model.romano;

import io.opensdrs.model.Observation;
import io.opensdrs.model.stats.LeastAbsoluteDeviations;

import java.util.ArrayList;
import java.util.List;

/**
 * How close any model of Romano's form can come to a set of measurements: the full factorial
 * linear model (the constant of Eq. 4 and the 15 products of {X, R, Z, O}, §5.1's FFLM, which
 * Romano's ANOVA chooses its terms from) fitted to those very measurements by least absolute
 * deviations. Every Romano model — whatever terms the ANOVA keeps and however its coefficients
 * are estimated — is one β of this design, so none scores a mean |ε| (Romano Table 5) below the
 * floor on these points, held-out runs included. B1 prints it beside romano's score: what is left
 * above it is estimation (term choice, least squares, measurement noise), what is below it is
 * the form's.
 */
public final class FullFactorialFloor {

    /**
     * @param meanAbsoluteResidual the fit's mean |ε| in ms (an upper bound on the floor)
     * @param lowerBound           a certified lower bound on the floor, mean |ε| in ms
     * @param terms                the design's terms (those whose factors vary in the data)
     */
    public record Floor(double meanAbsoluteResidual, double lowerBound, List<RomanoTerm> terms, int points) {
    }

    private FullFactorialFloor() {
    }

    public static Floor of(List<Observation> measured) {
        List<RomanoTerm> terms = new ArrayList<>();
        terms.add(RomanoTerm.CONSTANT);
        terms.addAll(RomanoModel.identifiableTerms(measured));
        LeastAbsoluteDeviations.Result fit = LeastAbsoluteDeviations.fit(DesignMatrix.of(measured, terms),
                DesignMatrix.latencies(measured));
        int n = measured.size();
        return new Floor(fit.sumOfAbsoluteResiduals() / n, fit.lowerBound() / n, List.copyOf(terms), n);
    }
}
