package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.vim25.DatastoreTypes;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.server.vsphere.vim25.VimRequests;

/** A datastore: entering and leaving maintenance mode. */
final class Datastore {
    private final Session session;
    private final ManagedObjectReference self;

    Datastore(Session session, String datastoreId) {
        this.session = session;
        this.self = new ManagedObjectReference("Datastore", datastoreId);
    }

    /**
     * DatastoreEnterMaintenanceMode: vCenter marks the datastore {@code enteringMaintenance} and
     * answers with the task that completes once no virtual machine uses it.
     *
     * @return the task's id, or null when vCenter returns none
     */
    String enterMaintenanceMode() throws VimFaultException {
        DatastoreTypes.StoragePlacementResult r = session.call(() -> session.vim().invoke("DatastoreEnterMaintenanceMode",
                new VimRequests.ThisOnly(self), DatastoreTypes.StoragePlacementResult.class));
        return r == null || r.task == null ? null : r.task.value();
    }

    /** DatastoreExitMaintenanceMode_Task; the task's id. */
    String exitMaintenanceMode() throws VimFaultException {
        return session.call(() -> session.vim().invoke("DatastoreExitMaintenanceMode_Task",
                new VimRequests.ThisOnly(self), ManagedObjectReference.class)).value();
    }
}
