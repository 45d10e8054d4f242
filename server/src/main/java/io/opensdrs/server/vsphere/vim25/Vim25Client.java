package io.opensdrs.server.vsphere.vim25;

import io.opensdrs.server.vsphere.vim25.ExtensionTypes.Extension;
import io.opensdrs.server.vsphere.vim25.InventoryTypes.ServiceContent;
import io.opensdrs.server.vsphere.vim25.InventoryTypes.UserSession;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectContent;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.PropertyFilterSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.PropertySpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.RetrieveResult;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.UpdateSet;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.WaitOptions;
import io.opensdrs.server.vsphere.vim25.TaskTypes.TaskInfo;
import io.opensdrs.server.vsphere.vim25.TaskTypes.VirtualMachineRelocateSpec;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The vim25 methods the server calls, each named after its API method and called on the
 * managed object the API defines it on. Stateless apart from the session cookie and the
 * {@link ServiceContent} read at connect time.
 */
public final class Vim25Client {
    /** The API version announced in SOAPAction; vCenter 7.0 and later and vcsim accept it. */
    public static final String API_VERSION = "7.0.3.0";

    private static final ManagedObjectReference SERVICE_INSTANCE =
            new ManagedObjectReference("ServiceInstance", "ServiceInstance");

    private final VimSoapTransport soap;
    private final ServiceContent content;

    private Vim25Client(VimSoapTransport soap, ServiceContent content) {
        this.soap = soap;
        this.content = content;
    }

    /** Connects to {@code https://host/sdk} and reads the ServiceContent; no login yet. */
    public static Vim25Client connect(URI sdk, TlsTrust trust, Duration timeout) throws VimFaultException {
        VimSoapTransport soap = new VimSoapTransport(sdk, trust, timeout, API_VERSION);
        ServiceContent content = soap.call("RetrieveServiceContent",
                new VimRequests.ThisOnly(SERVICE_INSTANCE), ServiceContent.class);
        if (content == null || content.propertyCollector == null) {
            throw new VimFaultException("RetrieveServiceContent", "InvalidResponse", "no ServiceContent from " + sdk);
        }
        return new Vim25Client(soap, content);
    }

    public ServiceContent serviceContent() {
        return content;
    }

    // ------------------------------------------------------------------ SessionManager

    public UserSession login(String userName, String password) throws VimFaultException {
        VimRequests.Login req = new VimRequests.Login();
        req.self = content.sessionManager;
        req.userName = userName;
        req.password = password;
        return soap.call("Login", req, UserSession.class);
    }

    public void logout() throws VimFaultException {
        try {
            soap.call("Logout", new VimRequests.ThisOnly(content.sessionManager), Void.class);
        } finally {
            soap.clearSession();
        }
    }

    /** ServiceInstance.CurrentTime: the cheapest authenticated call, used as keep-alive. */
    public String currentTime() throws VimFaultException {
        return soap.call("CurrentTime", new VimRequests.ThisOnly(SERVICE_INSTANCE), String.class);
    }

    public boolean hasSession() {
        return soap.sessionCookie() != null;
    }

    // ------------------------------------------------------------------ PropertyCollector

    public RetrieveResult retrievePropertiesEx(List<PropertyFilterSpec> specSet, Integer maxObjects)
            throws VimFaultException {
        VimRequests.RetrievePropertiesEx req = new VimRequests.RetrievePropertiesEx();
        req.self = content.propertyCollector;
        req.specSet = new ArrayList<>(specSet);
        req.options.maxObjects = maxObjects;
        return soap.call("RetrievePropertiesEx", req, RetrieveResult.class);
    }

    public RetrieveResult continueRetrievePropertiesEx(String token) throws VimFaultException {
        VimRequests.ContinueRetrievePropertiesEx req = new VimRequests.ContinueRetrievePropertiesEx();
        req.self = content.propertyCollector;
        req.token = token;
        return soap.call("ContinueRetrievePropertiesEx", req, RetrieveResult.class);
    }

    /** RetrievePropertiesEx followed by ContinueRetrievePropertiesEx until no token is left. */
    public List<ObjectContent> retrieveAll(PropertyFilterSpec spec, int pageSize) throws VimFaultException {
        List<ObjectContent> all = new ArrayList<>();
        RetrieveResult r = retrievePropertiesEx(List.of(spec), pageSize);
        while (r != null) {
            all.addAll(r.objects);
            r = r.token == null ? null : continueRetrievePropertiesEx(r.token);
        }
        return all;
    }

    /** The named properties of one object. */
    public ObjectContent retrieveProperties(ManagedObjectReference obj, String... paths) throws VimFaultException {
        PropertyFilterSpec spec = new PropertyFilterSpec();
        spec.propSet.add(new PropertySpec(obj.type(), List.of(paths)));
        spec.objectSet.add(new ObjectSpec(obj, false));
        List<ObjectContent> r = retrieveAll(spec, 1);
        return r.isEmpty() ? null : r.get(0);
    }

    public ManagedObjectReference createPropertyCollector() throws VimFaultException {
        return soap.call("CreatePropertyCollector", new VimRequests.ThisOnly(content.propertyCollector),
                ManagedObjectReference.class);
    }

    public void destroyPropertyCollector(ManagedObjectReference collector) throws VimFaultException {
        soap.call("DestroyPropertyCollector", new VimRequests.ThisOnly(collector), Void.class);
    }

    public ManagedObjectReference createFilter(ManagedObjectReference collector, PropertyFilterSpec spec,
                                               boolean partialUpdates) throws VimFaultException {
        VimRequests.CreateFilter req = new VimRequests.CreateFilter();
        req.self = collector;
        req.spec = spec;
        req.partialUpdates = partialUpdates;
        return soap.call("CreateFilter", req, ManagedObjectReference.class);
    }

    /** Blocks up to maxWaitSeconds; null when nothing changed since {@code version}. */
    public UpdateSet waitForUpdatesEx(ManagedObjectReference collector, String version, int maxWaitSeconds)
            throws VimFaultException {
        VimRequests.WaitForUpdatesEx req = new VimRequests.WaitForUpdatesEx();
        req.self = collector;
        req.version = version;
        req.options = new WaitOptions();
        req.options.maxWaitSeconds = maxWaitSeconds;
        return soap.call("WaitForUpdatesEx", req, UpdateSet.class);
    }

    // ------------------------------------------------------------------ ViewManager

    public ManagedObjectReference createContainerView(ManagedObjectReference container, List<String> types,
                                                      boolean recursive) throws VimFaultException {
        VimRequests.CreateContainerView req = new VimRequests.CreateContainerView();
        req.self = content.viewManager;
        req.container = container;
        req.type = new ArrayList<>(types);
        req.recursive = recursive;
        return soap.call("CreateContainerView", req, ManagedObjectReference.class);
    }

    public void destroyView(ManagedObjectReference view) throws VimFaultException {
        soap.call("DestroyView", new VimRequests.ThisOnly(view), Void.class);
    }

    // ------------------------------------------------------------------ VirtualMachine, Task

    public ManagedObjectReference relocateVMTask(ManagedObjectReference vm, VirtualMachineRelocateSpec spec)
            throws VimFaultException {
        VimRequests.RelocateVM req = new VimRequests.RelocateVM();
        req.self = vm;
        req.spec = spec;
        req.priority = "defaultPriority";
        return soap.call("RelocateVM_Task", req, ManagedObjectReference.class);
    }

    // ------------------------------------------------------------------ Datastore

    public TaskTypes.StoragePlacementResult datastoreEnterMaintenanceMode(ManagedObjectReference datastore) throws VimFaultException {
        return soap.call("DatastoreEnterMaintenanceMode", new VimRequests.ThisOnly(datastore), TaskTypes.StoragePlacementResult.class);
    }

    public ManagedObjectReference datastoreExitMaintenanceModeTask(ManagedObjectReference datastore) throws VimFaultException {
        return soap.call("DatastoreExitMaintenanceMode_Task", new VimRequests.ThisOnly(datastore), ManagedObjectReference.class);
    }

    // ------------------------------------------------------------------ StorageResourceManager

    public ManagedObjectReference configureStorageDrsForPodTask(ManagedObjectReference pod, InventoryTypes.StorageDrsConfigSpec spec,
                                                                boolean modify) throws VimFaultException {
        VimRequests.ConfigureStorageDrsForPod req = new VimRequests.ConfigureStorageDrsForPod();
        req.self = content.storageResourceManager;
        req.pod = pod;
        req.spec = spec;
        req.modify = modify;
        return soap.call("ConfigureStorageDrsForPod_Task", req, ManagedObjectReference.class);
    }

    public TaskInfo taskInfo(ManagedObjectReference task) throws VimFaultException {
        ObjectContent oc = retrieveProperties(task, "info");
        if (oc == null || !(oc.get("info") instanceof TaskInfo info)) {
            throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "task " + task + " is gone");
        }
        return info;
    }

    public void cancelTask(ManagedObjectReference task) throws VimFaultException {
        soap.call("CancelTask", new VimRequests.ThisOnly(task), Void.class);
    }

    // ------------------------------------------------------------------ PerformanceManager

    /** PerformanceManager.perfCounter: every counter this vCenter has, with the key QueryPerf takes. */
    public List<PerformanceTypes.PerfCounterInfo> perfCounter() throws VimFaultException {
        ObjectContent oc = retrieveProperties(content.perfManager, "perfCounter");
        if (oc != null && oc.get("perfCounter") instanceof PerformanceTypes.ArrayOfPerfCounterInfo all) {
            return all.items;
        }
        throw new VimFaultException("RetrievePropertiesEx", "InvalidResponse", "PerformanceManager has no perfCounter");
    }

    public List<PerformanceTypes.PerfEntityMetricBase> queryPerf(List<PerformanceTypes.PerfQuerySpec> specs)
            throws VimFaultException {
        VimRequests.QueryPerf req = new VimRequests.QueryPerf();
        req.self = content.perfManager;
        req.querySpec = new ArrayList<>(specs);
        return soap.callList("QueryPerf", req, PerfAnswerReader::read);
    }

    // ------------------------------------------------------------------ ExtensionManager

    public void registerExtension(Extension extension) throws VimFaultException {
        VimRequests.WithExtension req = new VimRequests.WithExtension();
        req.self = content.extensionManager;
        req.extension = extension;
        soap.call("RegisterExtension", req, Void.class);
    }

    public void updateExtension(Extension extension) throws VimFaultException {
        VimRequests.WithExtension req = new VimRequests.WithExtension();
        req.self = content.extensionManager;
        req.extension = extension;
        soap.call("UpdateExtension", req, Void.class);
    }

    /** The registered extension with this key, or null. */
    public Extension findExtension(String key) throws VimFaultException {
        VimRequests.WithExtensionKey req = new VimRequests.WithExtensionKey();
        req.self = content.extensionManager;
        req.extensionKey = key;
        return soap.call("FindExtension", req, Extension.class);
    }

    public void unregisterExtension(String key) throws VimFaultException {
        VimRequests.WithExtensionKey req = new VimRequests.WithExtensionKey();
        req.self = content.extensionManager;
        req.extensionKey = key;
        soap.call("UnregisterExtension", req, Void.class);
    }
}
