package io.opensdrs.server.migration;

import java.util.List;

/**
 * One storage vMotion's life: QUEUED, ISSUING (committed before RelocateVM_Task is called),
 * RUNNING (vCenter's task id recorded), VERIFYING (task succeeded; checking the inventory), then
 * SUCCEEDED, FAILED or CANCELLED.
 */
public enum ActionState {
    QUEUED, ISSUING, RUNNING, VERIFYING, SUCCEEDED, FAILED, CANCELLED;

    /** States that count against the in-flight limits. */
    public static final List<ActionState> IN_FLIGHT = List.of(ISSUING, RUNNING, VERIFYING);

    public boolean terminal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
}
