package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlType;
import org.w3c.dom.Element;

import javax.xml.XMLConstants;

/** Data types of tasks and their faults (vim25 WSDL names). */
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
}
