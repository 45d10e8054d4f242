package io.opensdrs.model.romano;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;

import java.util.List;

/** M_W rows (Romano Eq. 6) for a list of observations and terms. */
final class DesignMatrix {

    private DesignMatrix() {
    }

    static double[][] of(List<Observation> observations, List<RomanoTerm> terms) {
        double[][] m = new double[observations.size()][];
        for (int i = 0; i < m.length; i++) {
            m[i] = row(observations.get(i).workload(), terms);
        }
        return m;
    }

    static double[] row(Workload w, List<RomanoTerm> terms) {
        double[] r = new double[terms.size()];
        for (int j = 0; j < r.length; j++) {
            r[j] = terms.get(j).value(w);
        }
        return r;
    }

    static double[] latencies(List<Observation> observations) {
        double[] y = new double[observations.size()];
        for (int i = 0; i < y.length; i++) {
            y[i] = observations.get(i).latencyMs();
        }
        return y;
    }
}
