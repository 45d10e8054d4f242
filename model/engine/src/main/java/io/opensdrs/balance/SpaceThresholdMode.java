package io.opensdrs.balance;

/** How SDRS reads the space threshold (SPEC §4): a utilization percentage or a free-space floor. */
public enum SpaceThresholdMode {
    /** A datastore is over when used/capacity exceeds the utilization threshold [80 %]. */
    UTILIZATION,
    /** A datastore is over when its free space falls below the free-space threshold [50 GB]. */
    FREE_SPACE
}
