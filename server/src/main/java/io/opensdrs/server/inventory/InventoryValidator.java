package io.opensdrs.server.inventory;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks what vCenter answered before any of it is stored (SPEC §5: vCenter answers are external
 * input too). A bad snapshot or change set is refused whole and the stored inventory is left as it was.
 */
final class InventoryValidator {

    private static final Set<String> MAINTENANCE_MODES = Set.of("normal", "enteringMaintenance", "inMaintenance");

    private InventoryValidator() {
    }

    static Optional<String> check(List<InventorySnapshot.DatacenterInfo> dcs, List<InventorySnapshot.StoragePodInfo> pods,
                                  List<InventorySnapshot.DatastoreInfo> dss, List<InventorySnapshot.HostInfo> hosts,
                                  List<InventorySnapshot.VmInfo> vms) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < dcs.size(); i++) {
            var d = dcs.get(i);
            Optional<String> e = ids("datacenters[" + i + "]", d.moid(), d.name(), seen);
            if (e.isPresent()) {
                return e;
            }
        }
        for (int i = 0; i < pods.size(); i++) {
            var p = pods.get(i);
            String f = "clusters[" + i + "]";
            Optional<String> e = ids(f, p.moid(), p.name(), seen).or(() -> blank(f + ".datacenterMoid", p.datacenterMoid()));
            if (e.isPresent()) {
                return e;
            }
        }
        for (int i = 0; i < dss.size(); i++) {
            var d = dss.get(i);
            String f = "datastores[" + i + "]";
            Optional<String> e = ids(f, d.moid(), d.name(), seen).or(() -> blank(f + ".datacenterMoid", d.datacenterMoid()));
            if (e.isPresent()) {
                return e;
            }
            if (d.capacityBytes() < 0) {
                return Optional.of(f + ".capacityBytes must be >= 0");
            }
            if (d.freeBytes() < 0 || d.freeBytes() > d.capacityBytes()) {
                return Optional.of(f + ".freeBytes must be in 0..capacityBytes");
            }
            if (!MAINTENANCE_MODES.contains(d.maintenanceMode())) {
                return Optional.of(f + ".maintenanceMode must be one of " + MAINTENANCE_MODES);
            }
        }
        for (int i = 0; i < hosts.size(); i++) {
            var h = hosts.get(i);
            Optional<String> e = ids("hosts[" + i + "]", h.moid(), h.name(), seen);
            if (e.isPresent()) {
                return e;
            }
        }
        for (int i = 0; i < vms.size(); i++) {
            var v = vms.get(i);
            String f = "vms[" + i + "]";
            Optional<String> e = ids(f, v.moid(), v.name(), seen);
            if (e.isPresent()) {
                return e;
            }
            if (v.homeDatastoreMoid() != null && (v.homeDatastoreMoid().isBlank() || v.homeDatastoreMoid().length() > 64)) {
                return Optional.of(f + ".homeDatastoreMoid must be a datastore moid of 1 to 64 characters, or absent when unknown");
            }
            if (v.homeBytes() < 0) {
                return Optional.of(f + ".homeBytes must be >= 0");
            }
            if (v.swapDatastoreMoid() != null && (v.swapDatastoreMoid().isBlank() || v.swapDatastoreMoid().length() > 64)) {
                return Optional.of(f + ".swapDatastoreMoid must be a datastore moid of 1 to 64 characters, or absent when the swap file is in the home");
            }
            if (v.swapBytes() < 0) {
                return Optional.of(f + ".swapBytes must be >= 0");
            }
            Set<Integer> keys = new HashSet<>();
            for (int j = 0; j < v.disks().size(); j++) {
                var disk = v.disks().get(j);
                String g = f + ".disks[" + j + "]";
                if (!keys.add(disk.key())) {
                    return Optional.of(g + ".key " + disk.key() + " appears twice");
                }
                if (disk.sizeBytes() < 0) {
                    return Optional.of(g + ".sizeBytes must be >= 0");
                }
                Optional<String> de = blank(g + ".fileName", disk.fileName()).or(() -> blank(g + ".datastoreMoid", disk.datastoreMoid()));
                if (de.isPresent()) {
                    return de;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> ids(String f, String moid, String name, Set<String> seen) {
        Optional<String> e = blank(f + ".moid", moid).or(() -> blank(f + ".name", name));
        if (e.isPresent()) {
            return e;
        }
        if (moid.length() > 64) {
            return Optional.of(f + ".moid must be at most 64 characters");
        }
        if (name.length() > 255) {
            return Optional.of(f + ".name must be at most 255 characters");
        }
        if (!seen.add(moid)) {
            return Optional.of(f + ".moid " + moid + " appears twice");
        }
        return Optional.empty();
    }

    private static Optional<String> blank(String f, String v) {
        return v == null || v.isBlank() ? Optional.of(f + " must not be empty") : Optional.empty();
    }
}
