package io.opensdrs.balance;

import io.opensdrs.model.pesto.PestoQuantities;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Per-datastore congestion thresholds for throttling (SPEC §3.2): the latency at a fraction α
 * of peak throughput, L_α = C/(1 − α) (Pesto Eq. 9) — independent of the slope, so a faster
 * device gets the same threshold at more OIOs — optionally capped by a global maximum.
 * α is the administrator's (Pesto Table 4 used 0.8; vSphere SIOC's default is 0.9).
 *
 * <p>Where the line's C is 0 — a fit whose least-squares C would have been negative is drawn
 * through the origin ({@link io.opensdrs.model.pesto.LqEstimator}), and Pesto's default model
 * has C = 0 when no datastore has a fitted one — Eq. 9 gives L_α = 0: a line through the origin
 * has throughput 1/m at every Q &gt; 0, so "α of peak" is reached at once and the equation has no
 * threshold to give. A threshold of 0 ms would throttle every IO, so such a datastore gets SIOC's
 * default congestion threshold, {@value #SIOC_DEFAULT_THRESHOLD_MS} ms, with the reason stated.
 */
public final class CongestionThresholds {

    public static final double SIOC_DEFAULT_ALPHA = 0.9;
    /** vSphere Storage I/O Control's default congestion threshold (ms), where Eq. 9 gives none. */
    public static final double SIOC_DEFAULT_THRESHOLD_MS = 30;

    /**
     * One datastore's threshold.
     *
     * @param latencyMs L_α (Eq. 9), or {@link #SIOC_DEFAULT_THRESHOLD_MS}; capped when a cap is set
     * @param fallbackReason why Eq. 9 was not used, null when it was
     */
    public record Threshold(double latencyMs, String fallbackReason) {
    }

    private CongestionThresholds() {
    }

    /** datastore id → threshold; {@code capMs} ≤ 0 means no cap. */
    public static Map<String, Threshold> of(ClusterState state, double alpha, double capMs) {
        WorkingPlacement p = new WorkingPlacement(state);
        Map<String, Threshold> out = new LinkedHashMap<>();
        for (int j = 0; j < p.datastoreCount(); j++) {
            Threshold t = of(p.model(j).lqLine(), alpha);
            out.put(p.datastoreId(j), capMs > 0 && t.latencyMs() > capMs ? new Threshold(capMs, t.fallbackReason()) : t);
        }
        return out;
    }

    /** L_α of one line (Eq. 9), or SIOC's default with the reason when L_α is not a positive latency. */
    public static Threshold of(PestoQuantities line, double alpha) {
        double l = line.latencyAtFractionOfPeak(alpha);
        if (l > 0 && Double.isFinite(l)) {
            return new Threshold(l, null);
        }
        return new Threshold(SIOC_DEFAULT_THRESHOLD_MS, String.format(Locale.ROOT,
                "L_alpha = C/(1 - alpha) = %s ms with C = %s ms (Pesto Eq. 9) is no threshold; SIOC's default %.0f ms instead",
                l, line.interceptMs(), SIOC_DEFAULT_THRESHOLD_MS));
    }
}
