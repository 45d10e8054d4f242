package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** Data types of the ServiceInstance and its SessionManager (vim25 WSDL names). */
public final class ServiceInstanceTypes {
    private ServiceInstanceTypes() {
    }

    @XmlType(name = "ServiceContent")
    public static class ServiceContent {
        public ManagedObjectReference rootFolder;
        public ManagedObjectReference propertyCollector;
        public ManagedObjectReference viewManager;
        public AboutInfo about;
        public ManagedObjectReference sessionManager;
        public ManagedObjectReference taskManager;
        public ManagedObjectReference extensionManager;
        public ManagedObjectReference eventManager;
        public ManagedObjectReference storageResourceManager;
        public ManagedObjectReference perfManager;
    }

    @XmlType(name = "AboutInfo")
    public static class AboutInfo {
        public String name;
        public String fullName;
        public String vendor;
        public String version;
        public String build;
        public String apiType;
        public String apiVersion;
        public String instanceUuid;
    }

    @XmlType(name = "UserSession")
    public static class UserSession {
        public String key;
        public String userName;
        public String fullName;
    }

    @XmlType(name = "LoginRequestType", propOrder = {"self", "userName", "password", "locale"})
    public static class LoginRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String userName;
        public String password;
        public String locale;
    }
}
