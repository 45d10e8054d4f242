package io.opensdrs.model.basil;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * BASIL Eqs. 2–3: for two observations that differ only in one characteristic v, the
 * latency ratio is L1/L2 = (K + v1)/(K + v2), so K = (v1 − v2·L1/L2)/(L1/L2 − 1). BASIL takes
 * the median over all such pairs, because single pairs give outliers (BASIL §3).
 */
final class PairwiseConstantEstimator {

    /** The four characteristics in Eq. 1's order. */
    static final List<ToDoubleFunction<Workload>> CHARACTERISTICS = List.of(
            Workload::outstandingIos, Workload::ioSizeKb, Workload::readFraction, Workload::randomFraction);

    private PairwiseConstantEstimator() {
    }

    /**
     * The median K for characteristic {@code index} (0 = OIO … 3 = random), or NaN when no
     * pair of observations differs in it alone.
     */
    static double median(List<Observation> observations, int index) {
        List<Double> ks = new ArrayList<>();
        ToDoubleFunction<Workload> varied = CHARACTERISTICS.get(index);
        for (int i = 0; i < observations.size(); i++) {
            for (int j = i + 1; j < observations.size(); j++) {
                Workload a = observations.get(i).workload();
                Workload b = observations.get(j).workload();
                if (!othersEqual(a, b, index) || varied.applyAsDouble(a) == varied.applyAsDouble(b)) {
                    continue;
                }
                double ratio = observations.get(i).latencyMs() / observations.get(j).latencyMs();
                if (ratio == 1) {
                    continue;
                }
                ks.add((varied.applyAsDouble(a) - varied.applyAsDouble(b) * ratio) / (ratio - 1));
            }
        }
        if (ks.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = ks.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static boolean othersEqual(Workload a, Workload b, int except) {
        for (int c = 0; c < CHARACTERISTICS.size(); c++) {
            if (c != except && CHARACTERISTICS.get(c).applyAsDouble(a) != CHARACTERISTICS.get(c).applyAsDouble(b)) {
                return false;
            }
        }
        return true;
    }

    static String nameOf(int index) {
        return Arrays.asList("oio", "io_size_kb", "read_pct", "random_pct").get(index);
    }
}
