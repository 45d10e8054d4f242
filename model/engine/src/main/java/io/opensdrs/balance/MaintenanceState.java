package io.opensdrs.balance;

/** A datastore's maintenance mode: it stays {@link #ENTERING} until every disk has left (SPEC §4). */
public enum MaintenanceState {
    NORMAL,
    ENTERING,
    IN_MAINTENANCE
}
