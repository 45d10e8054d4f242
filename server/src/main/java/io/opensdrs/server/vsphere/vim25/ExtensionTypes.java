package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

import javax.xml.datatype.XMLGregorianCalendar;
import java.util.ArrayList;
import java.util.List;

/** Data types of the ExtensionManager (vim25 WSDL names). */
public final class ExtensionTypes {
    private ExtensionTypes() {
    }

    @XmlType(name = "Extension", propOrder = {"description", "key", "company", "type", "version", "subjectName",
            "server", "client", "lastHeartbeatTime", "shownInSolutionManager"})
    public static class Extension {
        public Description description;
        public String key;
        public String company;
        public String type;
        public String version;
        public String subjectName;
        public List<ExtensionServerInfo> server = new ArrayList<>();
        public List<ExtensionClientInfo> client = new ArrayList<>();
        public XMLGregorianCalendar lastHeartbeatTime;
        public Boolean shownInSolutionManager;
    }

    @XmlType(name = "ExtensionServerInfo", propOrder = {"url", "description", "company", "type", "adminEmail",
            "serverThumbprint"})
    public static class ExtensionServerInfo {
        public String url;
        public Description description;
        public String company;
        public String type;
        public List<String> adminEmail = new ArrayList<>();
        public String serverThumbprint;
    }

    @XmlType(name = "ExtensionClientInfo", propOrder = {"version", "description", "company", "type", "url"})
    public static class ExtensionClientInfo {
        public String version;
        public Description description;
        public String company;
        public String type;
        public String url;
    }

    @XmlType(name = "ExtensionRequestType", propOrder = {"self", "extension"})
    public static class ExtensionRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public Extension extension;
    }

    @XmlType(name = "ExtensionKeyRequestType", propOrder = {"self", "extensionKey"})
    public static class ExtensionKeyRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public String extensionKey;
    }
}
