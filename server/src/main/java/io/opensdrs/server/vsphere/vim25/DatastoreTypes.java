package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.List;

/**
 * Data types of a Datastore (vim25 WSDL names): its summary, what DatastoreEnterMaintenanceMode
 * answers, and its Storage I/O Control settings with the StorageResourceManager's
 * ConfigureDatastoreIORM_Task, which changes them.
 */
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

    /** Datastore.iormConfiguration; the deprecated reservation and statistics fields are not read. */
    @XmlType(name = "StorageIORMInfo", propOrder = {"enabled", "congestionThresholdMode", "congestionThreshold", "percentOfPeakThroughput"})
    public static class StorageIORMInfo {
        public boolean enabled;
        public String congestionThresholdMode;
        public int congestionThreshold;
        public Integer percentOfPeakThroughput;
    }

    /**
     * What ConfigureDatastoreIORM_Task changes: only the elements sent (the WSDL's are all optional),
     * so {@code enabled} is left out to keep SIOC on or off as the administrator has it.
     */
    @XmlType(name = "StorageIORMConfigSpec", propOrder = {"congestionThresholdMode", "congestionThreshold"})
    public static class StorageIORMConfigSpec {
        public String congestionThresholdMode;
        public Integer congestionThreshold;
    }

    @XmlType(name = "ConfigureDatastoreIORMRequestType", propOrder = {"self", "datastore", "spec"})
    public static class ConfigureDatastoreIORMRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public ManagedObjectReference datastore;
        public StorageIORMConfigSpec spec;
    }
}
