package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.vim25.DatastoreTypes;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.ObjectSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.PropertyFilterSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.PropertySpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes.TraversalSpec;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes;
import io.opensdrs.server.vsphere.vim25.VirtualMachineTypes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns PropertyCollector results — full reads and WaitForUpdatesEx changes alike — into an
 * {@link InventorySnapshot}. It holds the properties last seen per object, so that an
 * update set (only what changed) can be applied and a whole snapshot assembled again.
 */
final class InventoryAssembler {
    static final List<String> TYPES = List.of("Datacenter", "StoragePod", "Datastore", "HostSystem", "VirtualMachine");

    /**
     * The VM's configuration file, {@code [datastore] vm/vm.vmx}: its datastore is the VM's home.
     * The summary's copy, because vCenter (and the simulator) report its change on a relocation.
     */
    static final String VM_PATH_NAME = "summary.config.vmPathName";

    /**
     * The VM's files with their sizes: what its home holds besides the VMDKs. The whole object, not
     * {@code layoutEx.file}: vCenter reports a relocation's change of it as one change of {@code layoutEx}.
     */
    static final String LAYOUT_EX = "layoutEx";

    /** VirtualMachineFileLayoutExFileType values that are virtual-disk data, which moves with its disk, not with the home. */
    private static final Set<String> DISK_FILE_TYPES = Set.of("diskDescriptor", "diskExtent",
            "digestDescriptor", "digestExtent", "diskReplicationState");

    private final Map<ManagedObjectReference, Map<String, Object>> objects = new LinkedHashMap<>();

    /** The filter over a recursive container view of the root folder, with every property we read. */
    static PropertyFilterSpec filterSpec(ManagedObjectReference containerView) {
        PropertyFilterSpec spec = new PropertyFilterSpec();
        ObjectSpec os = new ObjectSpec(containerView, true);
        os.selectSet.add(new TraversalSpec("view", "ContainerView", "view"));
        spec.objectSet.add(os);
        spec.propSet.add(new PropertySpec("Datacenter", List.of("name", "datastore")));
        spec.propSet.add(new PropertySpec("StoragePod", List.of("name", "childEntity", "summary", StoragePod.STORAGE_DRS_CONFIG)));
        spec.propSet.add(new PropertySpec("Datastore", List.of("name", "summary")));
        spec.propSet.add(new PropertySpec("HostSystem", List.of("name", "datastore")));
        spec.propSet.add(new PropertySpec("VirtualMachine",
                List.of("name", "runtime.host", "runtime.powerState", "datastore", "config.hardware.device", VM_PATH_NAME, LAYOUT_EX)));
        return spec;
    }

    void clear() {
        objects.clear();
    }

    void put(PropertyCollectorTypes.ObjectContent oc) {
        Map<String, Object> props = objects.computeIfAbsent(oc.obj, k -> new HashMap<>());
        for (PropertyCollectorTypes.DynamicProperty p : oc.propSet) {
            props.put(p.name, p.val);
        }
    }

    /** Applies one update set; returns whether anything changed. */
    boolean apply(PropertyCollectorTypes.UpdateSet updates) {
        boolean changed = false;
        for (PropertyCollectorTypes.PropertyFilterUpdate fu : updates.filterSet) {
            for (PropertyCollectorTypes.ObjectUpdate ou : fu.objectSet) {
                changed = true;
                if ("leave".equals(ou.kind)) {
                    objects.remove(ou.obj);
                    continue;
                }
                Map<String, Object> props = objects.computeIfAbsent(ou.obj, k -> new HashMap<>());
                for (PropertyCollectorTypes.PropertyChange pc : ou.changeSet) {
                    if ("remove".equals(pc.op) || "indirectRemove".equals(pc.op)) {
                        props.remove(pc.name);
                    } else {
                        props.put(pc.name, pc.val);
                    }
                }
            }
        }
        return changed;
    }

    InventorySnapshot snapshot(String version) {
        List<InventorySnapshot.Datacenter> dcs = new ArrayList<>();
        List<InventorySnapshot.StoragePod> pods = new ArrayList<>();
        List<InventorySnapshot.Datastore> datastores = new ArrayList<>();
        List<InventorySnapshot.Host> hosts = new ArrayList<>();
        List<InventorySnapshot.Vm> vms = new ArrayList<>();
        Map<String, String> podOf = new HashMap<>();
        for (var e : objects.entrySet()) {
            if (e.getKey().type().equals("StoragePod")) {
                for (String ds : ids(e.getValue().get("childEntity"), "Datastore")) {
                    podOf.put(ds, e.getKey().value());
                }
            }
        }
        for (var e : objects.entrySet()) {
            ManagedObjectReference ref = e.getKey();
            Map<String, Object> p = e.getValue();
            String name = p.get("name") instanceof String s ? s : ref.value();
            switch (ref.type()) {
                case "Datacenter" -> dcs.add(new InventorySnapshot.Datacenter(ref.value(), name, ids(p.get("datastore"), "Datastore")));
                case "StoragePod" -> {
                    long cap = 0;
                    long free = 0;
                    if (p.get("summary") instanceof StorageDrsTypes.StoragePodSummary s) {
                        cap = s.capacity;
                        free = s.freeSpace;
                    }
                    pods.add(new InventorySnapshot.StoragePod(ref.value(), name,
                            ids(p.get("childEntity"), "Datastore"), cap, free, StoragePod.rules(p.get(StoragePod.STORAGE_DRS_CONFIG))));
                }
                case "Datastore" -> {
                    DatastoreTypes.DatastoreSummary s = p.get("summary") instanceof DatastoreTypes.DatastoreSummary ds
                            ? ds : new DatastoreTypes.DatastoreSummary();
                    datastores.add(new InventorySnapshot.Datastore(ref.value(), name, s.url, s.type, s.capacity,
                            s.freeSpace, s.accessible, s.maintenanceMode == null ? "normal" : s.maintenanceMode,
                            podOf.get(ref.value())));
                }
                case "HostSystem" -> hosts.add(new InventorySnapshot.Host(ref.value(), name, ids(p.get("datastore"), "Datastore")));
                case "VirtualMachine" -> vms.add(vm(ref, name, p));
                default -> {
                }
            }
        }
        Comparator<String> byId = Comparator.naturalOrder();
        dcs.sort(Comparator.comparing(InventorySnapshot.Datacenter::id, byId));
        pods.sort(Comparator.comparing(InventorySnapshot.StoragePod::id, byId));
        datastores.sort(Comparator.comparing(InventorySnapshot.Datastore::id, byId));
        hosts.sort(Comparator.comparing(InventorySnapshot.Host::id, byId));
        vms.sort(Comparator.comparing(InventorySnapshot.Vm::id, byId));
        return new InventorySnapshot(version == null ? "" : version, dcs, pods, datastores, hosts, vms);
    }

    private InventorySnapshot.Vm vm(ManagedObjectReference ref, String name, Map<String, Object> p) {
        String host = p.get("runtime.host") instanceof ManagedObjectReference h ? h.value() : null;
        List<InventorySnapshot.VirtualDisk> disks = new ArrayList<>();
        if (p.get("config.hardware.device") instanceof VirtualMachineTypes.ArrayOfVirtualDevice devices) {
            Map<Integer, VirtualMachineTypes.VirtualController> controllers = new HashMap<>();
            for (VirtualMachineTypes.VirtualDevice d : devices.items) {
                if (d instanceof VirtualMachineTypes.VirtualController c) {
                    controllers.put(c.key, c);
                }
            }
            for (VirtualMachineTypes.VirtualDevice d : devices.items) {
                if (d instanceof VirtualMachineTypes.VirtualDisk disk
                        && disk.backing instanceof VirtualMachineTypes.VirtualDeviceFileBackingInfo file) {
                    long bytes = disk.capacityInBytes != null ? disk.capacityInBytes
                            : disk.capacityInKB != null ? disk.capacityInKB * 1024 : 0;
                    boolean thin = file instanceof VirtualMachineTypes.VirtualDiskFlatVer2BackingInfo flat
                            && Boolean.TRUE.equals(flat.thinProvisioned);
                    disks.add(new InventorySnapshot.VirtualDisk(disk.key,
                            disk.deviceInfo == null ? "disk-" + disk.key : disk.deviceInfo.label,
                            file.fileName, file.datastore == null ? null : file.datastore.value(), bytes, thin,
                            perfInstance(disk, controllers)));
                }
            }
        }
        List<String> on = ids(p.get("datastore"), "Datastore");
        String home = datastoreOfPath(p.get(VM_PATH_NAME), on);
        VirtualMachineTypes.VirtualMachineFileLayoutExFileInfo swap = swapApart(p.get(LAYOUT_EX), p.get(VM_PATH_NAME));
        return new InventorySnapshot.Vm(ref.value(), name, host, on, disks, home, homeBytes(p.get(LAYOUT_EX), home, swap),
                swap == null ? null : datastoreOfPath(swap.name, on), swap == null || swap.size == null ? 0 : swap.size,
                poweredOn(p.get("runtime.powerState")));
    }

    /** Running unless vCenter says powered off or suspended (an unread state counts as running). */
    private static boolean poweredOn(Object powerState) {
        String state = powerState instanceof VirtualMachineTypes.VirtualMachinePowerState s ? s.name()
                : powerState instanceof org.w3c.dom.Element e ? e.getTextContent().trim() : String.valueOf(powerState);
        return !"poweredOff".equals(state) && !"suspended".equals(state);
    }

    /**
     * The instance naming the disk in vCenter's {@code virtualDisk} counters: its controller's kind and
     * bus number, and its unit ({@code scsi0:1}, {@code ide0:0}, {@code sata0:2}, {@code nvme0:0}). Null
     * when the controller is not among the VM's devices or of a kind vCenter names otherwise.
     */
    static String perfInstance(VirtualMachineTypes.VirtualDisk disk, Map<Integer, VirtualMachineTypes.VirtualController> controllers) {
        VirtualMachineTypes.VirtualController c = disk.controllerKey == null ? null : controllers.get(disk.controllerKey);
        if (c == null || c.busNumber == null || disk.unitNumber == null) {
            return null;
        }
        String kind = c instanceof VirtualMachineTypes.VirtualSCSIController ? "scsi"
                : c instanceof VirtualMachineTypes.VirtualIDEController ? "ide"
                : c instanceof VirtualMachineTypes.VirtualSATAController ? "sata"
                : c instanceof VirtualMachineTypes.VirtualNVMEController ? "nvme" : null;
        return kind == null ? null : kind + c.busNumber + ":" + disk.unitNumber;
    }

    /**
     * The VM's swap file (layoutEx type {@code swap}) when it is not in the home's directory: the host
     * keeps it on its swap datastore (host-local swap placement), which may be the home's datastore too.
     * Null when it is in the home or the VM has none (not running).
     */
    private static VirtualMachineTypes.VirtualMachineFileLayoutExFileInfo swapApart(Object layoutEx, Object vmPathName) {
        if (!(layoutEx instanceof VirtualMachineTypes.VirtualMachineFileLayoutEx layout) || !(vmPathName instanceof String vmx)
                || vmx.lastIndexOf('/') < 0) {
            return null;
        }
        String homeDir = vmx.substring(0, vmx.lastIndexOf('/') + 1);
        for (VirtualMachineTypes.VirtualMachineFileLayoutExFileInfo f : layout.file) {
            if ("swap".equals(f.type) && f.name != null) {
                return f.name.startsWith(homeDir) ? null : f;
            }
        }
        return null;
    }

    /**
     * The bytes a move of the home copies: the VM's files on its home datastore that are not
     * virtual-disk data — configuration, NVRAM, logs, swap, snapshot and suspend state — less a swap
     * file kept outside the home directory ({@code swapApart}), which stays where it is.
     */
    private long homeBytes(Object layoutEx, String homeDatastoreId, VirtualMachineTypes.VirtualMachineFileLayoutExFileInfo swapApart) {
        if (homeDatastoreId == null || !(layoutEx instanceof VirtualMachineTypes.VirtualMachineFileLayoutEx layout)) {
            return 0;
        }
        Object homeName = objects.getOrDefault(new ManagedObjectReference("Datastore", homeDatastoreId), Map.of()).get("name");
        long bytes = 0;
        for (VirtualMachineTypes.VirtualMachineFileLayoutExFileInfo f : layout.file) {
            if (f.size != null && f.size > 0 && f.name != null && !DISK_FILE_TYPES.contains(f.type)
                    && f.name.startsWith("[" + homeName + "]") && f != swapApart) {
                bytes += f.size;
            }
        }
        return bytes;
    }

    /**
     * The datastore named in {@code [name] path}, among those holding the VM's files (names are
     * unique within a datacenter, and the VM's datastores are in its own).
     */
    private String datastoreOfPath(Object datastorePath, List<String> vmDatastores) {
        if (!(datastorePath instanceof String path) || !path.startsWith("[") || path.indexOf(']') < 0) {
            return null;
        }
        String name = path.substring(1, path.indexOf(']'));
        for (String id : vmDatastores) {
            Map<String, Object> ds = objects.get(new ManagedObjectReference("Datastore", id));
            if (ds != null && name.equals(ds.get("name"))) {
                return id;
            }
        }
        return null;
    }

    private static List<String> ids(Object val, String type) {
        List<String> out = new ArrayList<>();
        if (val instanceof PropertyCollectorTypes.ArrayOfManagedObjectReference refs) {
            for (ManagedObjectReference r : refs.items) {
                if (r.type().equals(type)) {
                    out.add(r.value());
                }
            }
        }
        return out;
    }
}
