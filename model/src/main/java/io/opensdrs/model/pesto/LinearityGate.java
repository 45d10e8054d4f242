package io.opensdrs.model.pesto;

import io.opensdrs.model.stats.LineFit;

/**
 * Pesto's check on an injector run (§5.1): a run whose LQ line explains less than R² = 0.93
 * of the latency variation is discarded rather than trusted as a device model.
 */
public record LinearityGate(double minRSquared) {

    /** The threshold Pesto uses. */
    public static final LinearityGate PESTO = new LinearityGate(0.93);

    public LinearityGate {
        if (!(minRSquared >= 0 && minRSquared <= 1)) {
            throw new IllegalArgumentException("minimum R² (--min-r2) must be in [0, 1], got " + minRSquared);
        }
    }

    public boolean accepts(LineFit fit) {
        return fit.rSquared() >= minRSquared;
    }

    /** @throws IllegalArgumentException naming R² when the run fails the gate */
    public void check(LineFit fit) {
        if (!accepts(fit)) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "LQ fit rejected: R² = %.3f < %.2f (Pesto §5.1 discards such injector runs; --min-r2 0 keeps them)",
                    fit.rSquared(), minRSquared));
        }
    }
}
