package io.opensdrs.model.basil;

import io.opensdrs.model.Observation;
import io.opensdrs.model.stats.LineFit;

import java.util.List;

/**
 * BASIL's device metric: P_j = 1 / slope of the least-squares line through the passively
 * observed (outstanding IOs, latency) pairs of datastore j (BASIL §4), and the normalized
 * load N_j = Σ L_i / P_j (BASIL Eq. 5).
 */
public final class DevicePerformance {

    private DevicePerformance() {
    }

    /** P_j in IOs per ms of latency slope (1/slope, slope in ms per outstanding IO). */
    public static double of(List<Observation> observations) {
        double[] q = new double[observations.size()];
        double[] l = new double[observations.size()];
        for (int i = 0; i < q.length; i++) {
            q[i] = observations.get(i).outstandingIos();
            l[i] = observations.get(i).latencyMs();
        }
        LineFit line = LineFit.ordinary(q, l);
        if (!(line.slope() > 0)) {
            throw new IllegalArgumentException("device slope is not positive (" + line.slope() + "); cannot compute P = 1/slope");
        }
        return 1 / line.slope();
    }

    /** N_j = Σ L_i / P_j (BASIL Eq. 5). */
    public static double normalizedLoad(double sumOfWorkloadMetrics, double devicePerformance) {
        return sumOfWorkloadMetrics / devicePerformance;
    }
}
