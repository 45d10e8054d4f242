package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlType;
import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.List;

/** Data types of a Datastore (vim25 WSDL names): its summary and what DatastoreEnterMaintenanceMode answers. */
public final class DatastoreTypes {
    private DatastoreTypes() {
    }

    @XmlType(name = "DatastoreSummary")
    public static class DatastoreSummary {
        public ManagedObjectReference datastore;
        public String name;
        public String url;
        public long capacity;
        public long freeSpace;
        public Long uncommitted;
        public boolean accessible;
        public Boolean multipleHostAccess;
        public String type;
        public String maintenanceMode;
    }

    /**
     * What DatastoreEnterMaintenanceMode returns: the task that completes once the datastore is
     * empty. vCenter's own Storage DRS recommendations and faults (present only when it runs for
     * the pod) are not read: this server makes its own.
     */
    @XmlType(name = "StoragePlacementResult")
    public static class StoragePlacementResult {
        @XmlAnyElement
        public List<Element> vcenterStorageDrs = new ArrayList<>();
        public ManagedObjectReference task;
    }
}
