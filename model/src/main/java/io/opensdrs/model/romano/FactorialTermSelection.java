package io.opensdrs.model.romano;

import io.opensdrs.model.Observation;
import io.opensdrs.model.stats.PartialFTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Romano's choice of M_W (Romano §4.1, Eqs. 1–2, Table 3): an F-test per term of the full
 * model (the 15 products and, in {@link RomanoModel}, the constant of Eq. 4), keeping the terms
 * significant at 95 %.
 *
 * <p>With 15 tests at p &lt; 0.05 each, about 1 − 0.95^k of fits admit at least one of k
 * spurious terms (≈ 40 % when 10 terms are noise), so the 95 % is applied family-wise with
 * Holm's step-down correction: the i-th smallest p-value must be below 0.05/(15 − i). The
 * paper's Table 3 terms all have p-values far below either threshold.
 */
public final class FactorialTermSelection {

    private final double familyAlpha;

    public FactorialTermSelection(double familyAlpha) {
        if (!(familyAlpha > 0 && familyAlpha < 1)) {
            throw new IllegalArgumentException("significance level must be in (0, 1), got " + familyAlpha);
        }
        this.familyAlpha = familyAlpha;
    }

    public static FactorialTermSelection romanoDefault() {
        return new FactorialTermSelection(0.05);
    }

    /** The significant terms, in {@link RomanoTerm#all()} order. */
    public List<RomanoTerm> select(List<Observation> observations, List<RomanoTerm> candidates) {
        double[][] design = DesignMatrix.of(observations, candidates);
        double[] y = DesignMatrix.latencies(observations);
        double[] p = PartialFTest.pValues(design, y, false);
        Integer[] order = new Integer[p.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
        boolean[] keep = new boolean[p.length];
        for (int rank = 0; rank < order.length; rank++) {
            if (p[order[rank]] <= familyAlpha / (order.length - rank)) {
                keep[order[rank]] = true;
            } else {
                break;
            }
        }
        List<RomanoTerm> selected = new ArrayList<>();
        for (int i = 0; i < keep.length; i++) {
            if (keep[i]) {
                selected.add(candidates.get(i));
            }
        }
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("romano: no term is significant at " + familyAlpha + "; the observations do not explain latency");
        }
        return selected;
    }
}
