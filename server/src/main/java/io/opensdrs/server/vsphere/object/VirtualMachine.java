package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes;
import io.opensdrs.server.vsphere.vim25.TaskTypes.TaskInfo;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import io.opensdrs.server.vsphere.vim25.VirtualMachineTypes.DiskLocator;
import io.opensdrs.server.vsphere.vim25.VirtualMachineTypes.VirtualMachineRelocateSpec;
import io.opensdrs.server.vsphere.vim25.VirtualMachineTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A virtual machine: Storage vMotion (RelocateVM_Task) of its disks, its home or all of it, and
 * the tasks vCenter lists as its recent ones.
 */
final class VirtualMachine {
    private final Session session;
    private final ManagedObjectReference self;

    VirtualMachine(Session session, String vmId) {
        this.session = session;
        this.self = new ManagedObjectReference("VirtualMachine", vmId);
    }

    /** RelocateVM_Task at {@code defaultPriority}; the task's id. */
    String relocate(VirtualMachineRelocateSpec spec) throws VimFaultException {
        VirtualMachineTypes.RelocateVMRequest req = new VirtualMachineTypes.RelocateVMRequest();
        req.self = self;
        req.spec = spec;
        req.priority = "defaultPriority";
        return session.call(() -> session.vim().invoke("RelocateVM_Task", req, ManagedObjectReference.class)).value();
    }

    /** The given disks (key → destination datastore id) move; the home, and the VM's host, stay. */
    static VirtualMachineRelocateSpec disks(Map<Integer, String> diskToDatastore) {
        if (diskToDatastore.isEmpty()) {
            throw new IllegalArgumentException("diskToDatastore: no disk to relocate");
        }
        VirtualMachineRelocateSpec spec = new VirtualMachineRelocateSpec();
        diskToDatastore.forEach((key, ds) -> spec.disk.add(new DiskLocator(key, datastore(ds))));
        return spec;
    }

    /** The home and every disk move to one datastore. */
    static VirtualMachineRelocateSpec wholeVm(String datastoreId) {
        VirtualMachineRelocateSpec spec = new VirtualMachineRelocateSpec();
        spec.datastore = datastore(datastoreId);
        return spec;
    }

    /**
     * The home alone moves: {@code spec.datastore} is its destination and every disk has a locator
     * for the datastore it is on ({@code disksStayOn}), so that none moves with the home.
     */
    static VirtualMachineRelocateSpec home(String datastoreId, Map<Integer, String> disksStayOn) {
        VirtualMachineRelocateSpec spec = wholeVm(datastoreId);
        disksStayOn.forEach((key, ds) -> spec.disk.add(new DiskLocator(key, datastore(ds))));
        return spec;
    }

    private static ManagedObjectReference datastore(String id) {
        return new ManagedObjectReference("Datastore", id);
    }

    /**
     * The tasks of the VM's {@code recentTask} property, each with its {@code info}, in the order
     * vCenter lists them. A task vCenter drops between the two reads is left out.
     */
    List<RecentTask> recentTasks() throws VimFaultException {
        return session.call(() -> {
            PropertyCollector collector = PropertyCollector.of(session.vim());
            PropertyCollectorTypes.ObjectContent oc = collector.retrieveOne(self, "recentTask");
            if (oc == null) {
                throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "VM " + self.value() + " is gone");
            }
            List<RecentTask> tasks = new ArrayList<>();
            if (oc.get("recentTask") instanceof PropertyCollectorTypes.ArrayOfManagedObjectReference refs) {
                for (ManagedObjectReference ref : refs.items) {
                    TaskInfo info;
                    try {
                        info = Task.readInfo(collector, ref);
                    } catch (VimFaultException gone) {
                        if ("ManagedObjectNotFound".equals(gone.faultType())) {
                            continue; // dropped from the list between the two reads
                        }
                        throw gone;
                    }
                    tasks.add(Task.recent(ref, info));
                }
            }
            return tasks;
        });
    }
}
