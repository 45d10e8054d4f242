package io.opensdrs.server.inventory;

import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The server's inventory from vCenter over vim25. A full snapshot starts a PropertyCollector
 * watch (its first WaitForUpdatesEx returns everything, at a version); changes after that version
 * come from the same watch and are diffed against the last snapshot, so that the sync receives
 * whole objects (what {@link VCenterInventorySource} promises) rather than property paths.
 * A version this source did not hand out, or a watch that fails (session lost, collector gone),
 * answers {@code fullResyncRequired}. Present when a vCenter is configured ({@code sdrs.vcenter.url}).
 */
@Component
@ConditionalOnProperty(prefix = "sdrs.vcenter", name = "url")
public class Vim25InventorySource implements VCenterInventorySource {

    private static final Logger log = LoggerFactory.getLogger(Vim25InventorySource.class);

    private final VSphereClient client;
    private VSphereClient.InventoryWatch watch;
    private InventorySnapshot last;

    public Vim25InventorySource(VSphereClient client) {
        this.client = client;
    }

    @Override
    public synchronized InventorySnapshot fullSnapshot() {
        closeWatch();
        try {
            watch = client.watchInventory();
            // The first wait from version "" returns the whole inventory at once.
            Optional<io.opensdrs.server.vsphere.InventorySnapshot> first = watch.awaitChange(Duration.ofSeconds(60));
            io.opensdrs.server.vsphere.InventorySnapshot v = first.isPresent() ? first.get() : client.inventory();
            last = map(v);
            if (first.isEmpty()) {
                closeWatch(); // no version to continue from: the next incremental run resyncs
            }
            return last;
        } catch (VimFaultException e) {
            closeWatch();
            throw new IllegalStateException("vCenter inventory read failed: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized InventoryChanges changesSince(String version) {
        if (watch == null || last == null || !Objects.equals(version, last.version())) {
            return InventoryChanges.resyncRequired(version);
        }
        InventorySnapshot now;
        try {
            Optional<io.opensdrs.server.vsphere.InventorySnapshot> changed = watch.awaitChange(Duration.ZERO);
            if (changed.isEmpty()) {
                return new InventoryChanges(version, false, List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
            }
            now = map(changed.get());
        } catch (VimFaultException e) {
            log.info("inventory watch lost ({}); a full sync follows", e.getMessage());
            closeWatch();
            return InventoryChanges.resyncRequired(version);
        }
        List<InventoryChanges.Removed> removed = new ArrayList<>();
        InventoryChanges c = new InventoryChanges(now.version(), false,
                changed(last.datacenters(), now.datacenters(), InventorySnapshot.DatacenterInfo::moid, InventoryChanges.Kind.DATACENTER, removed),
                changed(last.clusters(), now.clusters(), InventorySnapshot.StoragePodInfo::moid, InventoryChanges.Kind.STORAGE_POD, removed),
                changed(last.datastores(), now.datastores(), InventorySnapshot.DatastoreInfo::moid, InventoryChanges.Kind.DATASTORE, removed),
                changed(last.hosts(), now.hosts(), InventorySnapshot.HostInfo::moid, InventoryChanges.Kind.HOST, removed),
                changed(last.vms(), now.vms(), InventorySnapshot.VmInfo::moid, InventoryChanges.Kind.VM, removed),
                removed);
        last = now;
        return c;
    }

    private static <T> List<T> changed(List<T> before, List<T> after, Function<T, String> id, InventoryChanges.Kind kind,
                                       List<InventoryChanges.Removed> removed) {
        Map<String, T> old = new HashMap<>();
        before.forEach(o -> old.put(id.apply(o), o));
        List<T> out = new ArrayList<>();
        for (T o : after) {
            T prev = old.remove(id.apply(o));
            if (!o.equals(prev)) {
                out.add(o);
            }
        }
        old.keySet().forEach(moid -> removed.add(new InventoryChanges.Removed(kind, moid)));
        return out;
    }

    private void closeWatch() {
        if (watch != null) {
            watch.close();
            watch = null;
        }
    }

    /**
     * vim25 objects to the server's records. A datastore's datacenter is the one listing it
     * (Datacenter.datastore); a pod's and a host's, the datacenter of their datastores — or the
     * only datacenter when they have none (stock vcsim creates empty pods).
     */
    static InventorySnapshot map(io.opensdrs.server.vsphere.InventorySnapshot v) {
        Map<String, String> dcOfDatastore = new LinkedHashMap<>();
        for (var dc : v.datacenters()) {
            dc.datastoreIds().forEach(ds -> dcOfDatastore.put(ds, dc.id()));
        }
        String onlyDc = v.datacenters().size() == 1 ? v.datacenters().get(0).id() : null;
        Function<List<String>, String> dcOf = dss -> dss.stream().map(dcOfDatastore::get).filter(Objects::nonNull)
                .findFirst().orElse(onlyDc);

        List<InventorySnapshot.DatacenterInfo> dcs = v.datacenters().stream()
                .map(d -> new InventorySnapshot.DatacenterInfo(d.id(), d.name())).toList();
        List<InventorySnapshot.StoragePodInfo> pods = v.storagePods().stream()
                .map(p -> new InventorySnapshot.StoragePodInfo(p.id(), p.name(), dcOf.apply(p.datastoreIds()), p.rules())).toList();
        List<InventorySnapshot.DatastoreInfo> dss = v.datastores().stream()
                .map(d -> new InventorySnapshot.DatastoreInfo(d.id(), d.name(), d.url(), dcOf.apply(List.of(d.id())),
                        d.storagePodId(), d.capacityBytes(), d.freeBytes(), d.accessible(),
                        d.maintenanceMode() == null ? "normal" : d.maintenanceMode())).toList();
        List<InventorySnapshot.HostInfo> hosts = v.hosts().stream()
                .map(h -> new InventorySnapshot.HostInfo(h.id(), h.name(), dcOf.apply(h.datastoreIds()), h.datastoreIds())).toList();
        List<InventorySnapshot.VmInfo> vms = v.vms().stream()
                .map(m -> new InventorySnapshot.VmInfo(m.id(), m.name(), m.hostId(), m.disks().stream()
                        .map(d -> new InventorySnapshot.VirtualDiskInfo(d.key(), d.fileName(), d.capacityBytes(), d.datastoreId(),
                                d.perfInstance()))
                        .toList(), m.homeDatastoreId(), m.homeBytes(), m.swapDatastoreId(),
                        m.swapBytes(), m.poweredOn())).toList();
        return new InventorySnapshot(v.version(), dcs, pods, dss, hosts, vms);
    }
}
