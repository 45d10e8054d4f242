package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ContinueRetrievePropertiesExRequest;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.CreateFilterRequest;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectContent;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.PropertyFilterSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.PropertySpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.RetrievePropertiesExRequest;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.RetrieveResult;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.UpdateSet;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.WaitForUpdatesExRequest;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.WaitOptions;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.server.vsphere.vim25.VimRequests;

import java.util.ArrayList;
import java.util.List;

/**
 * A PropertyCollector: the session's own ({@code ServiceContent.propertyCollector}), which reads,
 * or one created for a watch, which holds a filter and answers WaitForUpdatesEx. Its calls are not
 * retried here: the caller decides what one {@link Session#call} covers.
 */
final class PropertyCollector {
    private final Vim25Client vim;
    private final ManagedObjectReference self;

    private PropertyCollector(Vim25Client vim, ManagedObjectReference self) {
        this.vim = vim;
        this.self = self;
    }

    /** The session's PropertyCollector. */
    static PropertyCollector of(Vim25Client vim) {
        return new PropertyCollector(vim, vim.serviceContent().propertyCollector);
    }

    RetrieveResult retrievePropertiesEx(List<PropertyFilterSpec> specSet, Integer maxObjects) throws VimFaultException {
        RetrievePropertiesExRequest req = new RetrievePropertiesExRequest();
        req.self = self;
        req.specSet = new ArrayList<>(specSet);
        req.options.maxObjects = maxObjects;
        return vim.invoke("RetrievePropertiesEx", req, RetrieveResult.class);
    }

    RetrieveResult continueRetrievePropertiesEx(String token) throws VimFaultException {
        ContinueRetrievePropertiesExRequest req = new ContinueRetrievePropertiesExRequest();
        req.self = self;
        req.token = token;
        return vim.invoke("ContinueRetrievePropertiesEx", req, RetrieveResult.class);
    }

    /** RetrievePropertiesEx followed by ContinueRetrievePropertiesEx until no token is left. */
    List<ObjectContent> retrieveAll(PropertyFilterSpec spec, int pageSize) throws VimFaultException {
        List<ObjectContent> all = new ArrayList<>();
        RetrieveResult r = retrievePropertiesEx(List.of(spec), pageSize);
        while (r != null) {
            all.addAll(r.objects);
            r = r.token == null ? null : continueRetrievePropertiesEx(r.token);
        }
        return all;
    }

    /** The named properties of one object, or null when vCenter returns nothing for it. */
    ObjectContent retrieveOne(ManagedObjectReference obj, String... paths) throws VimFaultException {
        PropertyFilterSpec spec = new PropertyFilterSpec();
        spec.propSet.add(new PropertySpec(obj.type(), List.of(paths)));
        spec.objectSet.add(new ObjectSpec(obj, false));
        List<ObjectContent> r = retrieveAll(spec, 1);
        return r.isEmpty() ? null : r.get(0);
    }

    /** A new collector of this session, for filters of its own. */
    PropertyCollector createPropertyCollector() throws VimFaultException {
        return new PropertyCollector(vim, vim.invoke("CreatePropertyCollector", new VimRequests.ThisOnly(self),
                ManagedObjectReference.class));
    }

    void destroyPropertyCollector() throws VimFaultException {
        vim.invoke("DestroyPropertyCollector", new VimRequests.ThisOnly(self), Void.class);
    }

    ManagedObjectReference createFilter(PropertyFilterSpec spec, boolean partialUpdates) throws VimFaultException {
        CreateFilterRequest req = new CreateFilterRequest();
        req.self = self;
        req.spec = spec;
        req.partialUpdates = partialUpdates;
        return vim.invoke("CreateFilter", req, ManagedObjectReference.class);
    }

    /** Blocks up to maxWaitSeconds; null when nothing changed since {@code version}. */
    UpdateSet waitForUpdatesEx(String version, int maxWaitSeconds) throws VimFaultException {
        WaitForUpdatesExRequest req = new WaitForUpdatesExRequest();
        req.self = self;
        req.version = version;
        req.options = new WaitOptions();
        req.options.maxWaitSeconds = maxWaitSeconds;
        return vim.invoke("WaitForUpdatesEx", req, UpdateSet.class);
    }
}
