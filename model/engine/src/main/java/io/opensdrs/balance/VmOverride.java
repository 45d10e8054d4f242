package io.opensdrs.balance;

/** Per-VM automation override (SPEC §4: excluded, manual, automated; default = cluster's). */
public enum VmOverride {
    /** The cluster's (or subsystem's) level applies. */
    DEFAULT,
    /** Never auto-applied, whatever the cluster says. */
    MANUAL,
    /** Auto-applied, whatever the cluster says. */
    AUTOMATED,
    /** Storage DRS leaves the VM alone: never moved by balancing; a fault in maintenance mode. */
    EXCLUDED
}
