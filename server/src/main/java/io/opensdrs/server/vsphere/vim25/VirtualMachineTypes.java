package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;

import java.util.ArrayList;
import java.util.List;

/** Data types of a VirtualMachine (vim25 WSDL names): its devices and files, and storage vMotion (RelocateVM_Task). */
public final class VirtualMachineTypes {
    private VirtualMachineTypes() {
    }

    @XmlType(name = "VirtualDevice")
    @XmlSeeAlso({VirtualDisk.class, VirtualController.class})
    public static class VirtualDevice {
        public int key;
        public Description deviceInfo;
        public VirtualDeviceBackingInfo backing;
        public Integer controllerKey;
        public Integer unitNumber;
    }

    @XmlType(name = "VirtualDisk")
    public static class VirtualDisk extends VirtualDevice {
        public Long capacityInKB;
        public Long capacityInBytes;
    }

    /** VirtualMachine.runtime.powerState. */
    @XmlType(name = "VirtualMachinePowerState")
    @jakarta.xml.bind.annotation.XmlEnum
    public enum VirtualMachinePowerState {
        poweredOff, poweredOn, suspended
    }

    /**
     * A controller's bus number names its disks' performance-counter instances ({@code scsi0:1} is the
     * disk at unit 1 of the SCSI controller on bus 0). Its subtypes say which kind of bus it is.
     */
    @XmlType(name = "VirtualController")
    @XmlSeeAlso({VirtualSCSIController.class, ParaVirtualSCSIController.class, VirtualLsiLogicController.class,
            VirtualLsiLogicSASController.class, VirtualBusLogicController.class, VirtualIDEController.class,
            VirtualSATAController.class, VirtualAHCIController.class, VirtualNVMEController.class})
    public static class VirtualController extends VirtualDevice {
        public Integer busNumber;
    }

    @XmlType(name = "VirtualSCSIController")
    public static class VirtualSCSIController extends VirtualController {
    }

    @XmlType(name = "ParaVirtualSCSIController")
    public static class ParaVirtualSCSIController extends VirtualSCSIController {
    }

    @XmlType(name = "VirtualLsiLogicController")
    public static class VirtualLsiLogicController extends VirtualSCSIController {
    }

    @XmlType(name = "VirtualLsiLogicSASController")
    public static class VirtualLsiLogicSASController extends VirtualSCSIController {
    }

    @XmlType(name = "VirtualBusLogicController")
    public static class VirtualBusLogicController extends VirtualSCSIController {
    }

    @XmlType(name = "VirtualIDEController")
    public static class VirtualIDEController extends VirtualController {
    }

    @XmlType(name = "VirtualSATAController")
    public static class VirtualSATAController extends VirtualController {
    }

    @XmlType(name = "VirtualAHCIController")
    public static class VirtualAHCIController extends VirtualSATAController {
    }

    @XmlType(name = "VirtualNVMEController")
    public static class VirtualNVMEController extends VirtualController {
    }

    @XmlType(name = "VirtualDeviceBackingInfo")
    @XmlSeeAlso(VirtualDeviceFileBackingInfo.class)
    public static class VirtualDeviceBackingInfo {
    }

    @XmlType(name = "VirtualDeviceFileBackingInfo")
    @XmlSeeAlso(VirtualDiskFlatVer2BackingInfo.class)
    public static class VirtualDeviceFileBackingInfo extends VirtualDeviceBackingInfo {
        public String fileName;
        public ManagedObjectReference datastore;
    }

    @XmlType(name = "VirtualDiskFlatVer2BackingInfo")
    public static class VirtualDiskFlatVer2BackingInfo extends VirtualDeviceFileBackingInfo {
        public String diskMode;
        public Boolean thinProvisioned;
        public String uuid;
    }

    @XmlType(name = "ArrayOfVirtualDevice")
    public static class ArrayOfVirtualDevice {
        @XmlElement(name = "VirtualDevice")
        public List<VirtualDevice> items = new ArrayList<>();
    }

    /** VirtualMachine.layoutEx: the files of the VM, each with its datastore path, type and size. */
    @XmlType(name = "VirtualMachineFileLayoutEx")
    public static class VirtualMachineFileLayoutEx {
        public List<VirtualMachineFileLayoutExFileInfo> file = new ArrayList<>();
    }

    /** One file of a VM: {@code [datastore] path}, a VirtualMachineFileLayoutExFileType and its size in bytes. */
    @XmlType(name = "VirtualMachineFileLayoutExFileInfo")
    public static class VirtualMachineFileLayoutExFileInfo {
        public int key;
        public String name;
        public String type;
        public Long size;
    }

    @XmlType(name = "VirtualMachineRelocateSpecDiskLocator", propOrder = {"diskId", "datastore"})
    public static class DiskLocator {
        public int diskId;
        public ManagedObjectReference datastore;

        public DiskLocator() {
        }

        public DiskLocator(int diskId, ManagedObjectReference datastore) {
            this.diskId = diskId;
            this.datastore = datastore;
        }
    }

    @XmlType(name = "VirtualMachineRelocateSpec", propOrder = {"datastore", "pool", "host", "disk"})
    public static class VirtualMachineRelocateSpec {
        public ManagedObjectReference datastore;
        public ManagedObjectReference pool;
        public ManagedObjectReference host;
        public List<DiskLocator> disk = new ArrayList<>();
    }

    @XmlType(name = "RelocateVMRequestType", propOrder = {"self", "spec", "priority"})
    public static class RelocateVMRequest {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;
        public VirtualMachineRelocateSpec spec;
        public String priority;
    }
}
