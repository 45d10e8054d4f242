package io.opensdrs.balance;

import java.util.Locale;

/**
 * What a recommendation expects of one datastore it touches: the model's predicted mean
 * latency before and after the move (with the model's interval where it has one), the 90th
 * percentile SDRS compares with its threshold (observed before, projected after by the
 * model's relative change), and which model predicted it.
 *
 * <p>{@code idleBefore} / {@code idleAfter}: the datastore carries no VM IO (no outstanding IOs)
 * before / after the move. Its latency is then no measurement and no prediction of anything an IO
 * sees — an idle datastore's observed percentiles are 0, and a model asked for no load answers
 * what its form gives: 0 ms (the queueing model), the intercept (an LQ line), an extrapolation
 * (Romano's regression) — so the sentences say "idle" ({@link #latencyChange}, {@link #p90Change})
 * instead of a number.
 */
public record DatastoreForecast(String datastoreId, String model, Estimate latencyBeforeMs, Estimate latencyAfterMs,
                                double p90BeforeMs, double p90AfterMs, boolean idleBefore, boolean idleAfter) {

    /** What a sentence says for a datastore without VM IO. */
    public static final String IDLE = "idle";

    /** The predicted mean latency before → after: "27.87 → 21.29 ms", "idle → 0.21 [0.20, 0.22] ms", "0.31 ms → idle". */
    public String latencyChange() {
        return change(idleBefore ? null : latencyBeforeMs.toString(), idleAfter ? null : latencyAfterMs.toString());
    }

    /**
     * The p90 before (observed) → after (projected), the same way: "51.12 → 44.54 ms", "idle → 0.21 ms". The
     * projection shifts the observed p90 by the model's predicted change of the mean, floored at 0
     * ({@link WorkingPlacement#percentilesFor}); where the floor is reached the model's fall is larger than the
     * p90 itself, which projects nothing: "0.32 ms → not projected (the model's mean falls 0.49 ms, more than
     * the p90)".
     */
    public String p90Change() {
        if (!idleAfter && !(p90AfterMs > 0)) {
            return (idleBefore ? IDLE : Estimate.ms(p90BeforeMs) + " ms") + " → " + unprojected();
        }
        return change(idleBefore ? null : Estimate.ms(p90BeforeMs), idleAfter ? null : Estimate.ms(p90AfterMs));
    }

    /** A p90 after the move that the shift cannot project (floored at 0): what the model said instead. */
    private String unprojected() {
        double fall = latencyBeforeMs.value() - latencyAfterMs.value();
        return idleBefore || !(fall > 0) ? "not projected"
                : "not projected (the model's mean falls " + Estimate.ms(fall) + " ms, more than the p90)";
    }

    /** "a → b ms" with either side "idle" (null); the unit follows each number. */
    private static String change(String before, String after) {
        if (before != null && after != null) {
            return String.format(Locale.ROOT, "%s → %s ms", before, after);
        }
        return (before == null ? IDLE : before + " ms") + " → " + (after == null ? IDLE : after + " ms");
    }
}
