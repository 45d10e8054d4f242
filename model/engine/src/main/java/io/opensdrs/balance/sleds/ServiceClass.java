package io.opensdrs.balance.sleds;

/**
 * A SLEDS service class and its SLO (Chambliss et al., SLEDS §3, SPEC §3.5): a delivery bound
 * (the mean response time of its streams per window) that holds while the class's streams stay
 * within a demand bound (IOPS and bytes/s of its streams together: "bounds on demand apply to the
 * whole group"), and may be missed in at most {@code allowedMissPct} of the windows ("the delivery
 * guarantees may be missed in at most a specified, small, percentage of windows").
 */
public record ServiceClass(String id, double deliveryBoundMs, double demandBoundIops, double demandBoundBytesPerSecond,
                           double allowedMissPct) {

    /** The share of windows a class may miss its delivery bound in when its SLO does not say. */
    public static final double DEFAULT_ALLOWED_MISS_PCT = 5;

    public ServiceClass {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("service class id must not be blank");
        }
        if (!(deliveryBoundMs > 0) || !(demandBoundIops > 0) || !(demandBoundBytesPerSecond > 0)) {
            throw new IllegalArgumentException("service class " + id + ": delivery and demand bounds must be > 0");
        }
        if (!(allowedMissPct >= 0 && allowedMissPct <= 100)) {
            throw new IllegalArgumentException("service class " + id + ": allowedMissPct must be from 0 to 100");
        }
    }

    /** A class that may miss its delivery bound in {@link #DEFAULT_ALLOWED_MISS_PCT} of the windows. */
    public ServiceClass(String id, double deliveryBoundMs, double demandBoundIops, double demandBoundBytesPerSecond) {
        this(id, deliveryBoundMs, demandBoundIops, demandBoundBytesPerSecond, DEFAULT_ALLOWED_MISS_PCT);
    }
}
