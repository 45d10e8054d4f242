package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;

/**
 * The inventory the product reads: a recursive ContainerView of the root folder (Datacenter,
 * StoragePod, Datastore, HostSystem, VirtualMachine), read whole through the session's
 * PropertyCollector or watched through a collector of its own with WaitForUpdatesEx.
 */
final class InventoryCollector {
    private static final Logger log = LoggerFactory.getLogger(InventoryCollector.class);

    private final Session session;
    private final Vim25Client vim;

    InventoryCollector(Session session) {
        this.session = session;
        this.vim = session.vim();
    }

    /** A full read: RetrievePropertiesEx in pages of 500 objects; the view is destroyed afterwards. */
    InventorySnapshot inventory() throws VimFaultException {
        return session.call(() -> {
            ViewManager.ContainerView view = new ViewManager(vim).createContainerView(vim.serviceContent().rootFolder,
                    InventoryAssembler.TYPES, true);
            try {
                InventoryAssembler a = new InventoryAssembler();
                PropertyCollector.of(vim).retrieveAll(InventoryAssembler.filterSpec(view.ref()), 500).forEach(a::put);
                return a.snapshot("");
            } finally {
                view.destroyView();
            }
        });
    }

    /** A collector of its own with one filter over the view: each change arrives by WaitForUpdatesEx. */
    VSphereClient.InventoryWatch watch() throws VimFaultException {
        return session.call(() -> {
            PropertyCollector collector = PropertyCollector.of(vim).createPropertyCollector();
            ViewManager.ContainerView view = new ViewManager(vim).createContainerView(vim.serviceContent().rootFolder,
                    InventoryAssembler.TYPES, true);
            collector.createFilter(InventoryAssembler.filterSpec(view.ref()), false);
            return new Watch(collector, view);
        });
    }

    /**
     * Its calls are not retried after a re-login: the collector and the view belong to the session
     * that made them, so a caller whose watch fails opens a new one.
     */
    private static final class Watch implements VSphereClient.InventoryWatch {
        private final PropertyCollector collector;
        private final ViewManager.ContainerView view;
        private final InventoryAssembler assembler = new InventoryAssembler();
        private String version = "";

        Watch(PropertyCollector collector, ViewManager.ContainerView view) {
            this.collector = collector;
            this.view = view;
        }

        @Override
        public synchronized Optional<InventorySnapshot> awaitChange(Duration maxWait) throws VimFaultException {
            int seconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, maxWait.toSeconds()));
            PropertyCollectorTypes.UpdateSet updates = collector.waitForUpdatesEx(version, seconds);
            if (updates == null) {
                return Optional.empty();
            }
            boolean changed = false;
            // vCenter returns at most maxObjectUpdates objects per call (100 by default, and its policy
            // may cap a larger ask): a truncated set is the first page of the change, and the rest comes
            // from calling again at once with the version it gave; a snapshot of the first page alone
            // would hold only its 100 objects.
            while (true) {
                version = updates.version;
                changed |= assembler.apply(updates);
                if (!Boolean.TRUE.equals(updates.truncated)) {
                    break;
                }
                updates = collector.waitForUpdatesEx(version, 0);
                if (updates == null) {
                    break;
                }
            }
            return changed ? Optional.of(assembler.snapshot(version)) : Optional.empty();
        }

        @Override
        public void close() {
            try {
                view.destroyView();
                collector.destroyPropertyCollector();
            } catch (VimFaultException e) {
                log.debug("closing an inventory watch: {}", e.getMessage());
            }
        }
    }
}
