package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.server.vsphere.vim25.VimRequests;

import java.util.ArrayList;
import java.util.List;

/** The ViewManager, which makes the container views a PropertyCollector traverses. */
final class ViewManager {
    private final Vim25Client vim;

    ViewManager(Vim25Client vim) {
        this.vim = vim;
    }

    ContainerView createContainerView(ManagedObjectReference container, List<String> types, boolean recursive)
            throws VimFaultException {
        PropertyCollectorTypes.CreateContainerViewRequest req = new PropertyCollectorTypes.CreateContainerViewRequest();
        req.self = vim.serviceContent().viewManager;
        req.container = container;
        req.type = new ArrayList<>(types);
        req.recursive = recursive;
        return new ContainerView(vim, vim.invoke("CreateContainerView", req, ManagedObjectReference.class));
    }

    /** A view of the objects of the given types in a container; it lives until destroyed or the session ends. */
    record ContainerView(Vim25Client vim, ManagedObjectReference ref) {
        void destroyView() throws VimFaultException {
            vim.invoke("DestroyView", new VimRequests.ThisOnly(ref), Void.class);
        }
    }
}
