package io.opensdrs.balance;

/**
 * Something Storage DRS could not do, with the reason: a disk that cannot leave a datastore
 * entering maintenance, a datastore that stays over its space threshold, a rule already
 * broken in the inventory. {@code diskId} may be null when the fault concerns the whole VM,
 * {@code vmId} when it concerns a datastore.
 */
public record Fault(String vmId, String diskId, String datastoreId, ReasonCode reason, String message) {
}
