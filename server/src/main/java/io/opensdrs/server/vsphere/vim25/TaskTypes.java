package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlType;
import org.w3c.dom.Element;

import javax.xml.XMLConstants;

import java.util.ArrayList;
import java.util.List;

/** Data types of tasks, faults and storage vMotion (vim25 WSDL names). */
public final class TaskTypes {
    private TaskTypes() {
    }

    @XmlType(name = "TaskInfo")
    public static class TaskInfo {
        public String key;
        public ManagedObjectReference task;
        public String name;
        public String descriptionId;
        public ManagedObjectReference entity;
        public String entityName;
        /** {@code queued}, {@code running}, {@code success} or {@code error}. */
        public String state;
        public Boolean cancelled;
        public Boolean cancelable;
        public LocalizedMethodFault error;
        public Object result;
        public Integer progress;
        /** When vCenter queued, started and completed the task (vCenter's clock). */
        public javax.xml.datatype.XMLGregorianCalendar queueTime;
        public javax.xml.datatype.XMLGregorianCalendar startTime;
        public javax.xml.datatype.XMLGregorianCalendar completeTime;
        public Long eventChainId;
    }

    /**
     * A fault as vCenter reports it inside a TaskInfo. vSphere has hundreds of fault types;
     * the fault is kept as its XML element and its type read from its xsi:type, rather than
     * a class per fault type.
     */
    @XmlType(name = "LocalizedMethodFault")
    public static class LocalizedMethodFault {
        @XmlAnyElement
        public Element fault;
        public String localizedMessage;

        /** The vSphere fault type, e.g. {@code InsufficientDiskSpace}. */
        public String faultType() {
            if (fault == null) {
                return "SystemError";
            }
            String t = fault.getAttributeNS(XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI, "type");
            return t.isEmpty() ? "SystemError" : t.substring(t.indexOf(':') + 1);
        }
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

    @XmlType(name = "VirtualMachineRelocateSpecDiskLocator", propOrder = {"diskId", "datastore"})
    public static class DiskLocator {
        public int diskId;
        public ManagedObjectReference datastore;

        public DiskLocator() {
        }

        public DiskLocator(int diskId, ManagedObjectReference datastore) {
            this.diskId = diskId;
            this.datastore = datastore;
        }
    }

    @XmlType(name = "VirtualMachineRelocateSpec", propOrder = {"datastore", "pool", "host", "disk"})
    public static class VirtualMachineRelocateSpec {
        public ManagedObjectReference datastore;
        public ManagedObjectReference pool;
        public ManagedObjectReference host;
        public List<DiskLocator> disk = new ArrayList<>();
    }
}
