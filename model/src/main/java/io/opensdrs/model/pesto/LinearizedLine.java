package io.opensdrs.model.pesto;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Workload;

/**
 * Any datastore model read as a Pesto LQ line L = m·Q + C (Pesto Eq. 1) for Pesto's 4 KiB
 * random-read injector workload: the secant between OIO 2 and 32, the range Pesto's injector
 * covers (§5.1). It is {@link DatastoreModel#lqLine}'s default, so that Pesto's derived
 * quantities (peak IOPS Eq. 4, L_α Eq. 9, Q_max Eq. 12, Q_α Eq. 13, the default-model slope
 * §5.1.3) apply to every model; a Pesto model gives its own fitted line instead.
 */
public final class LinearizedLine {

    /** Smallest slope kept, so that quantities stay finite for a model that is flat in O. */
    static final double MIN_SLOPE_MS = 1e-6;

    private LinearizedLine() {
    }

    public static PestoQuantities secant(DatastoreModel model) {
        double l2 = model.predict(Workload.randomRead4k(2)).latencyMs();
        double l32 = model.predict(Workload.randomRead4k(32)).latencyMs();
        double slope = Math.max(MIN_SLOPE_MS, (l32 - l2) / 30.0);
        return new PestoQuantities(slope, l2 - 2 * slope);
    }
}
