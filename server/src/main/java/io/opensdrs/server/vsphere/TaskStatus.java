package io.opensdrs.server.vsphere;

/**
 * A vCenter task as last seen.
 *
 * @param state     {@code queued}, {@code running}, {@code success} or {@code error}
 * @param progress  percent, when vCenter reports it
 * @param faultType the vSphere fault type when the task failed ({@code InsufficientDiskSpace}, ...)
 */
public record TaskStatus(String taskId, String state, Integer progress, String faultType, String faultMessage) {
    public boolean done() {
        return "success".equals(state) || "error".equals(state);
    }

    public boolean succeeded() {
        return "success".equals(state);
    }
}
