package io.opensdrs.server.vsphere;

/**
 * A vCenter task as last seen.
 *
 * @param state     {@code queued}, {@code running}, {@code success} or {@code error}
 * @param progress  percent, when vCenter reports it
 * @param faultType the vSphere fault type when the task failed ({@code InsufficientDiskSpace}, ...)
 * @param cancelable whether vCenter accepts CancelTask for it (TaskInfo.cancelable; null when not reported)
 */
public record TaskStatus(String taskId, String state, Integer progress, String faultType, String faultMessage,
                         Boolean cancelable) {

    public TaskStatus(String taskId, String state, Integer progress, String faultType, String faultMessage) {
        this(taskId, state, progress, faultType, faultMessage, null);
    }

    public boolean done() {
        return "success".equals(state) || "error".equals(state);
    }

    public boolean succeeded() {
        return "success".equals(state);
    }
}
