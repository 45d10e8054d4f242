package io.opensdrs.server.vsphere;

import java.time.Instant;

/**
 * A task vCenter lists as recent for an entity.
 *
 * @param descriptionId what the task does, e.g. {@code VirtualMachine.relocate} (vcsim:
 *                      {@code VirtualMachine.relocateVm})
 * @param queueTime     when vCenter queued it, by vCenter's clock (null when not reported)
 */
public record RecentTask(String taskId, String descriptionId, String entityId, String state, Instant queueTime) {

    /** A storage vMotion (RelocateVM_Task), whatever the vCenter version calls it. */
    public boolean isRelocation() {
        return descriptionId != null && descriptionId.toLowerCase(java.util.Locale.ROOT).startsWith("virtualmachine.relocate");
    }
}
