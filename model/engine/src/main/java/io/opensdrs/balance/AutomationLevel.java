package io.opensdrs.balance;

/** SDRS automation level of a cluster or of one of its subsystems (SPEC §4). */
public enum AutomationLevel {
    /** Recommendations only: an administrator applies them. */
    MANUAL,
    /** Recommendations are applied without asking. */
    AUTOMATED
}
