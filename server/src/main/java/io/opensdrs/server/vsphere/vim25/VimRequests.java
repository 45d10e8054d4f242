package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

import java.util.ArrayList;
import java.util.List;

/**
 * Request bodies of the vim25 methods this client calls. Each is named after its method
 * ({@code <Method>RequestType} in the WSDL); the marshaller wraps it in an element named
 * after the method. Every request starts with {@code _this}, the object it is called on.
 */
public final class VimRequests {
    private VimRequests() {
    }

    /** A request with nothing but the object it is called on. */
    @XmlType(name = "ThisOnlyRequestType")
    public static class ThisOnly {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;

        public ThisOnly() {
        }

        public ThisOnly(ManagedObjectReference self) {
            this.self = self;
        }
    }

    @XmlType(name = "LoginRequestType", propOrder = {"self", "userName", "password", "locale"})
    public static class Login {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String userName;
        public String password;
        public String locale;
    }

    @XmlType(name = "RetrievePropertiesExRequestType", propOrder = {"self", "specSet", "options"})
    public static class RetrievePropertiesEx {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public List<PropertyCollectorTypes.PropertyFilterSpec> specSet = new ArrayList<>();
        @XmlElement(required = true)
        public PropertyCollectorTypes.RetrieveOptions options = new PropertyCollectorTypes.RetrieveOptions();
    }

    @XmlType(name = "ContinueRetrievePropertiesExRequestType", propOrder = {"self", "token"})
    public static class ContinueRetrievePropertiesEx {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String token;
    }

    @XmlType(name = "CreateFilterRequestType", propOrder = {"self", "spec", "partialUpdates"})
    public static class CreateFilter {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public PropertyCollectorTypes.PropertyFilterSpec spec;
        public boolean partialUpdates;
    }

    @XmlType(name = "WaitForUpdatesExRequestType", propOrder = {"self", "version", "options"})
    public static class WaitForUpdatesEx {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String version;
        public PropertyCollectorTypes.WaitOptions options;
    }

    @XmlType(name = "CreateContainerViewRequestType", propOrder = {"self", "container", "type", "recursive"})
    public static class CreateContainerView {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public ManagedObjectReference container;
        public List<String> type = new ArrayList<>();
        public boolean recursive;
    }

    @XmlType(name = "RelocateVMRequestType", propOrder = {"self", "spec", "priority"})
    public static class RelocateVM {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public TaskTypes.VirtualMachineRelocateSpec spec;
        public String priority;
    }

    @XmlType(name = "ConfigureStorageDrsForPodRequestType", propOrder = {"self", "pod", "spec", "modify"})
    public static class ConfigureStorageDrsForPod {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public ManagedObjectReference pod;
        public InventoryTypes.StorageDrsConfigSpec spec;
        public boolean modify;
    }

    @XmlType(name = "ExtensionRequestType", propOrder = {"self", "extension"})
    public static class WithExtension {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public ExtensionTypes.Extension extension;
    }

    @XmlType(name = "ExtensionKeyRequestType", propOrder = {"self", "extensionKey"})
    public static class WithExtensionKey {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String extensionKey;
    }

    @XmlType(name = "QueryPerfRequestType", propOrder = {"self", "querySpec"})
    public static class QueryPerf {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public List<PerformanceTypes.PerfQuerySpec> querySpec = new ArrayList<>();
    }
}
