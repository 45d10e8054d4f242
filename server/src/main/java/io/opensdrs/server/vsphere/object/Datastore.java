package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.IormConfiguration;
import io.opensdrs.server.vsphere.vim25.DatastoreTypes;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectContent;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.server.vsphere.vim25.VimRequests;

/** A datastore: entering and leaving maintenance mode; its Storage I/O Control settings. */
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

    /** The datastore's iormConfiguration, empty when vCenter holds none; {@code ManagedObjectNotFound} when it is gone. */
    java.util.Optional<IormConfiguration> iormConfiguration() throws VimFaultException {
        ObjectContent oc = session.call(() -> PropertyCollector.of(session.vim()).retrieveOne(self, IORM_CONFIGURATION));
        if (oc == null) {
            throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "datastore " + self.value() + " is gone");
        }
        return oc.get(IORM_CONFIGURATION) instanceof DatastoreTypes.StorageIORMInfo i
                ? java.util.Optional.of(new IormConfiguration(i.enabled, i.congestionThresholdMode, i.congestionThreshold,
                        i.percentOfPeakThroughput))
                : java.util.Optional.empty();
    }

    static final String IORM_CONFIGURATION = "iormConfiguration";
}
