package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectContent;
import io.opensdrs.server.vsphere.vim25.TaskTypes.TaskInfo;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.server.vsphere.vim25.VimRequests;

/** A vCenter task: its {@code info} property, read through the PropertyCollector, and CancelTask. */
final class Task {
    private final Session session;
    private final ManagedObjectReference self;

    Task(Session session, String taskId) {
        this.session = session;
        this.self = new ManagedObjectReference("Task", taskId);
    }

    /** The task's state, progress and fault. */
    TaskStatus info() throws VimFaultException {
        TaskInfo info = session.call(() -> readInfo(PropertyCollector.of(session.vim()), self));
        return status(self.value(), info);
    }

    void cancel() throws VimFaultException {
        session.call(() -> session.vim().invoke("CancelTask", new VimRequests.ThisOnly(self), Void.class));
    }

    /** The task's {@code info}; fails with {@code ManagedObjectNotFound} when vCenter no longer holds the task. */
    static TaskInfo readInfo(PropertyCollector collector, ManagedObjectReference task) throws VimFaultException {
        ObjectContent oc = collector.retrieveOne(task, "info");
        if (oc == null || !(oc.get("info") instanceof TaskInfo info)) {
            throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "task " + task + " is gone");
        }
        return info;
    }

    static TaskStatus status(String taskId, TaskInfo info) {
        String faultType = null;
        String message = null;
        if (info.error != null) {
            faultType = info.error.faultType();
            message = info.error.localizedMessage;
        }
        return new TaskStatus(taskId, info.state, info.progress, faultType, message, info.cancelable);
    }

    static RecentTask recent(ManagedObjectReference task, TaskInfo info) {
        return new RecentTask(task.value(), info.descriptionId, info.entity == null ? null : info.entity.value(),
                info.state, info.queueTime == null ? null : info.queueTime.toGregorianCalendar().toInstant());
    }
}
