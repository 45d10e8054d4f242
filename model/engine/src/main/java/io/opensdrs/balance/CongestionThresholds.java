package io.opensdrs.balance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-datastore congestion thresholds for throttling (SPEC §3.2): the latency at a fraction α
 * of peak throughput, L_α = C/(1 − α) (Pesto Eq. 9) — independent of the slope, so a faster
 * device gets the same threshold at more OIOs — optionally capped by a global maximum.
 * α is the administrator's (Pesto Table 4 used 0.8; vSphere SIOC's default is 0.9).
 */
public final class CongestionThresholds {

    public static final double SIOC_DEFAULT_ALPHA = 0.9;

    private CongestionThresholds() {
    }

    /** datastore id → L_α in ms; {@code capMs} ≤ 0 means no cap. */
    public static Map<String, Double> of(ClusterState state, double alpha, double capMs) {
        WorkingPlacement p = new WorkingPlacement(state);
        Map<String, Double> out = new LinkedHashMap<>();
        for (int j = 0; j < p.datastoreCount(); j++) {
            double l = p.model(j).lqLine().latencyAtFractionOfPeak(alpha);
            out.put(p.datastoreId(j), capMs > 0 ? Math.min(l, capMs) : l);
        }
        return out;
    }
}
