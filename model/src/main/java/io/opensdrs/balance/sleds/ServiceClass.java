package io.opensdrs.balance.sleds;

/**
 * A SLEDS service class and its SLO (Chambliss et al., SLEDS §3, SPEC §3.5): a delivery bound
 * (mean response time per window) that holds while the class's streams stay within a demand
 * bound (IOPS and bytes/s per stream).
 */
public record ServiceClass(String id, double deliveryBoundMs, double demandBoundIops, double demandBoundBytesPerSecond) {

    public ServiceClass {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("service class id must not be blank");
        }
        if (!(deliveryBoundMs > 0) || !(demandBoundIops > 0) || !(demandBoundBytesPerSecond > 0)) {
            throw new IllegalArgumentException("service class " + id + ": delivery and demand bounds must be > 0");
        }
    }
}
