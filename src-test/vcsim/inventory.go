package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/esx"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/types"
)

const gib = float64(1 << 30)

// Inventory is the JSON world description given with -inventory (see README.md).
type Inventory struct {
	Datacenter  string          `json:"datacenter"`
	Datastores  []DatastoreSpec `json:"datastores"`
	StoragePods []PodSpec       `json:"storagePods"`
	Hosts       []HostSpec      `json:"hosts"`
	VMs         []VMSpec        `json:"vms"`
	// Clusters gives settings of the host clusters the hosts name; a cluster left out keeps the defaults.
	Clusters []ClusterSpec `json:"clusters,omitempty"`
}

// ClusterSpec holds a host cluster's settings: VmSwapPlacement is configurationEx.vmSwapPlacement,
// "vmDirectory" (the default) or "hostLocal" (swap files on each host's swap datastore).
type ClusterSpec struct {
	Name            string `json:"name"`
	VmSwapPlacement string `json:"vmSwapPlacement,omitempty"`
}

type DatastoreSpec struct {
	Name       string  `json:"name"`
	CapacityGB float64 `json:"capacityGB"`
}

type PodSpec struct {
	Name       string          `json:"name"`
	Datastores []DatastoreSpec `json:"datastores"`
}

type HostSpec struct {
	Name       string   `json:"name"`
	Cluster    string   `json:"cluster,omitempty"`
	Datastores []string `json:"datastores,omitempty"`
	// LocalSwapDatastore is config.localSwapDatastore: where the host keeps the swap files of VMs whose swap
	// placement is host-local; one of the datastores it mounts.
	LocalSwapDatastore string `json:"localSwapDatastore,omitempty"`
}

type VMSpec struct {
	Name      string     `json:"name"`
	Host      string     `json:"host"`
	Datastore string     `json:"datastore,omitempty"`
	PowerOn   bool       `json:"powerOn,omitempty"`
	Disks     []DiskSpec `json:"disks"`
	// MemoryMB is the VM's memory (the stock default, 32, when 0); a powered-on VM's swap file in its home
	// is MemoryMB less MemoryReservationMB.
	MemoryMB            int64 `json:"memoryMB,omitempty"`
	MemoryReservationMB int64 `json:"memoryReservationMB,omitempty"`
	// SwapPlacement is config.swapPlacement: "inherit" (the default: the cluster's), "vmDirectory" or "hostLocal".
	SwapPlacement string `json:"swapPlacement,omitempty"`
}

type DiskSpec struct {
	Name      string  `json:"name"`
	SizeGB    float64 `json:"sizeGB"`
	Datastore string  `json:"datastore"`
}

func gbToBytes(gb float64) int64 {
	// whole KB, as vSphere disk capacities are
	return int64(math.Round(gb*gib/1024)) * 1024
}

func loadInventory(file string) (*Inventory, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	inv := new(Inventory)
	if err := dec.Decode(inv); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := inv.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return inv, nil
}

func (inv *Inventory) allDatastores() []DatastoreSpec {
	all := append([]DatastoreSpec(nil), inv.Datastores...)
	for _, p := range inv.StoragePods {
		all = append(all, p.Datastores...)
	}
	return all
}

// mounts returns the datastore names a host mounts (all of them when not listed).
func (inv *Inventory) mounts(h HostSpec) []string {
	if h.Datastores != nil {
		return h.Datastores
	}
	var names []string
	for _, d := range inv.allDatastores() {
		names = append(names, d.Name)
	}
	return names
}

func (inv *Inventory) validate() error {
	if inv.Datacenter == "" {
		inv.Datacenter = "DC0"
	}
	ds := map[string]float64{}
	for _, d := range inv.allDatastores() {
		if d.Name == "" || strings.ContainsAny(d.Name, "[]/") {
			return fmt.Errorf("invalid datastore name %q", d.Name)
		}
		if _, dup := ds[d.Name]; dup {
			return fmt.Errorf("duplicate datastore %q", d.Name)
		}
		if d.CapacityGB <= 0 {
			return fmt.Errorf("datastore %q: capacityGB must be > 0", d.Name)
		}
		ds[d.Name] = d.CapacityGB
	}
	pods := map[string]bool{}
	for _, p := range inv.StoragePods {
		if p.Name == "" || pods[p.Name] {
			return fmt.Errorf("invalid or duplicate storage pod name %q", p.Name)
		}
		pods[p.Name] = true
	}
	hosts := map[string]map[string]bool{}
	mounted := map[string]bool{}
	for _, h := range inv.Hosts {
		if h.Name == "" || hosts[h.Name] != nil {
			return fmt.Errorf("invalid or duplicate host name %q", h.Name)
		}
		hosts[h.Name] = map[string]bool{}
		for _, n := range inv.mounts(h) {
			if _, ok := ds[n]; !ok {
				return fmt.Errorf("host %q mounts unknown datastore %q", h.Name, n)
			}
			hosts[h.Name][n] = true
			mounted[n] = true
		}
		if h.LocalSwapDatastore != "" && !hosts[h.Name][h.LocalSwapDatastore] {
			return fmt.Errorf("host %q: localSwapDatastore %q is not a datastore it mounts", h.Name, h.LocalSwapDatastore)
		}
	}
	clusters := map[string]bool{}
	for _, c := range inv.Clusters {
		named := false
		for _, h := range inv.Hosts {
			named = named || h.Cluster == c.Name
		}
		if c.Name == "" || clusters[c.Name] || !named {
			return fmt.Errorf("clusters: %q is empty, given twice or the cluster of no host", c.Name)
		}
		clusters[c.Name] = true
		switch types.VirtualMachineConfigInfoSwapPlacementType(c.VmSwapPlacement) {
		case "", types.VirtualMachineConfigInfoSwapPlacementTypeVmDirectory, types.VirtualMachineConfigInfoSwapPlacementTypeHostLocal:
		default:
			return fmt.Errorf("cluster %q: vmSwapPlacement must be vmDirectory or hostLocal, not %q", c.Name, c.VmSwapPlacement)
		}
	}
	for n := range ds {
		if !mounted[n] {
			return fmt.Errorf("datastore %q is mounted on no host", n)
		}
	}
	used := map[string]float64{}
	vms := map[string]bool{}
	for _, vm := range inv.VMs {
		if vm.Name == "" || vms[vm.Name] || strings.ContainsAny(vm.Name, "[]/") {
			return fmt.Errorf("invalid or duplicate VM name %q", vm.Name)
		}
		vms[vm.Name] = true
		if vm.MemoryMB < 0 || vm.MemoryMB > math.MaxInt32 {
			return fmt.Errorf("vm %q: memoryMB must be between 0 and %d", vm.Name, math.MaxInt32)
		}
		if vm.MemoryReservationMB < 0 || vm.MemoryReservationMB > vm.MemoryMB {
			return fmt.Errorf("vm %q: memoryReservationMB must be between 0 and memoryMB (%d)", vm.Name, vm.MemoryMB)
		}
		switch types.VirtualMachineConfigInfoSwapPlacementType(vm.SwapPlacement) {
		case "", types.VirtualMachineConfigInfoSwapPlacementTypeInherit, types.VirtualMachineConfigInfoSwapPlacementTypeVmDirectory,
			types.VirtualMachineConfigInfoSwapPlacementTypeHostLocal:
		default:
			return fmt.Errorf("vm %q: swapPlacement must be inherit, vmDirectory or hostLocal, not %q", vm.Name, vm.SwapPlacement)
		}
		m, ok := hosts[vm.Host]
		if !ok {
			return fmt.Errorf("vm %q: unknown host %q", vm.Name, vm.Host)
		}
		home := vm.Datastore
		if home == "" {
			if len(vm.Disks) == 0 {
				return fmt.Errorf("vm %q: no datastore and no disks", vm.Name)
			}
			home = vm.Disks[0].Datastore
		}
		if !m[home] {
			return fmt.Errorf("vm %q: home datastore %q not mounted on host %q", vm.Name, home, vm.Host)
		}
		names := map[string]bool{}
		for _, d := range vm.Disks {
			if d.Name == "" || names[d.Name] || strings.ContainsAny(d.Name, "[]/") {
				return fmt.Errorf("vm %q: invalid or duplicate disk name %q", vm.Name, d.Name)
			}
			names[d.Name] = true
			if d.SizeGB <= 0 {
				return fmt.Errorf("vm %q disk %q: sizeGB must be > 0", vm.Name, d.Name)
			}
			if !m[d.Datastore] {
				return fmt.Errorf("vm %q disk %q: datastore %q not mounted on host %q", vm.Name, d.Name, d.Datastore, vm.Host)
			}
			used[d.Datastore] += d.SizeGB
		}
	}
	for n, u := range used {
		if gbToBytes(u) > gbToBytes(ds[n]) {
			return fmt.Errorf("datastore %q: disks (%.3f GB) exceed capacity (%.3f GB)", n, u, ds[n])
		}
	}
	return nil
}

// build creates the inventory through the simulator's own API, as a client would.
func (inv *Inventory) build(ctx context.Context, c *vim25.Client, model *simulator.Model, dsRoot string, dirs *[]string) error {
	root := object.NewRootFolder(c)
	dc, err := root.CreateDatacenter(ctx, inv.Datacenter)
	if err != nil {
		return err
	}
	folders, err := dc.Folders(ctx)
	if err != nil {
		return err
	}

	clusters := map[string]*object.ClusterComputeResource{}
	hosts := map[string]*object.HostSystem{}
	for _, h := range inv.Hosts {
		spec := types.HostConnectSpec{HostName: h.Name}
		var task *object.Task
		if h.Cluster != "" {
			cl, ok := clusters[h.Cluster]
			if !ok {
				cl, err = folders.HostFolder.CreateCluster(ctx, h.Cluster, types.ClusterConfigSpecEx{})
				if err != nil {
					return err
				}
				clusters[h.Cluster] = cl
			}
			task, err = cl.AddHost(ctx, spec, true, nil, nil)
		} else {
			task, err = folders.HostFolder.AddStandaloneHost(ctx, spec, true, nil, nil)
		}
		if err != nil {
			return err
		}
		info, err := task.WaitForResult(ctx, nil)
		if err != nil {
			return fmt.Errorf("host %q: %w", h.Name, err)
		}
		hosts[h.Name] = object.NewHostSystem(c, info.Result.(types.ManagedObjectReference))
	}

	// Datastores: one local directory each, mounted on every host that lists it.
	dsRefs := map[string]types.ManagedObjectReference{}
	dsDirs := map[string]string{}
	for _, d := range inv.allDatastores() {
		dir, err := os.MkdirTemp(dsRoot, "opensdrs-vcsim-"+d.Name+"-")
		if err != nil {
			return err
		}
		*dirs = append(*dirs, dir)
		dsDirs[d.Name] = dir
		var mountedOn []types.ManagedObjectReference
		for _, h := range inv.Hosts {
			if !contains(inv.mounts(h), d.Name) {
				continue
			}
			dss, err := hosts[h.Name].ConfigManager().DatastoreSystem(ctx)
			if err != nil {
				return err
			}
			ds, err := dss.CreateLocalDatastore(ctx, d.Name, dir)
			if err != nil {
				return fmt.Errorf("datastore %q on host %q: %w", d.Name, h.Name, err)
			}
			dsRefs[d.Name] = ds.Reference()
			mountedOn = append(mountedOn, hosts[h.Name].Reference())
		}
		setDatastore(dsRefs[d.Name], gbToBytes(d.CapacityGB), mountedOn)
	}

	for _, h := range inv.Hosts {
		if h.LocalSwapDatastore != "" {
			setLocalSwapDatastore(hosts[h.Name].Reference(), dsRefs[h.LocalSwapDatastore])
		}
	}
	for _, cs := range inv.Clusters {
		if cs.VmSwapPlacement != "" {
			setSwapPlacement(clusters[cs.Name].Reference(), cs.VmSwapPlacement)
		}
	}

	for _, p := range inv.StoragePods {
		pod, err := folders.DatastoreFolder.CreateStoragePod(ctx, p.Name)
		if err != nil {
			return err
		}
		var refs []types.ManagedObjectReference
		for _, d := range p.Datastores {
			refs = append(refs, dsRefs[d.Name])
		}
		if len(refs) != 0 {
			task, err := pod.MoveInto(ctx, refs)
			if err != nil {
				return err
			}
			if err := task.Wait(ctx); err != nil {
				return fmt.Errorf("storage pod %q: %w", p.Name, err)
			}
		}
	}

	for _, v := range inv.VMs {
		host := hosts[v.Host]
		pool, err := host.ResourcePool(ctx)
		if err != nil {
			return err
		}
		home := v.Datastore
		if home == "" {
			home = v.Disks[0].Datastore
		}
		var devices object.VirtualDeviceList
		scsi, err := devices.CreateSCSIController("pvscsi")
		if err != nil {
			return err
		}
		devices = append(devices, scsi)
		for _, d := range v.Disks {
			if err := os.MkdirAll(filepath.Join(dsDirs[d.Datastore], v.Name), 0o700); err != nil {
				return err
			}
			disk := devices.CreateDisk(scsi.(types.BaseVirtualController), dsRefs[d.Datastore],
				fmt.Sprintf("[%s] %s/%s.vmdk", d.Datastore, v.Name, d.Name))
			disk.CapacityInKB = gbToBytes(d.SizeGB) / 1024
			// thick (lazy zeroed): the datastore accounts for the full capacity
			disk.Backing.(*types.VirtualDiskFlatVer2BackingInfo).ThinProvisioned = types.NewBool(false)
			disk.StorageIOAllocation = &types.StorageIOAllocationInfo{Limit: types.NewInt64(-1)}
			devices = append(devices, disk)
		}
		nic := esx.EthernetCard
		devices = append(devices, &nic)
		config := types.VirtualMachineConfigSpec{
			Name:     v.Name,
			GuestId:  string(types.VirtualMachineGuestOsIdentifierOtherGuest),
			Files:    &types.VirtualMachineFileInfo{VmPathName: fmt.Sprintf("[%s] %s/%s.vmx", home, v.Name, v.Name)},
			MemoryMB: v.MemoryMB,
		}
		if v.MemoryReservationMB > 0 {
			alloc := types.DefaultResourceConfigSpec().MemoryAllocation
			alloc.Reservation = types.NewInt64(v.MemoryReservationMB)
			config.MemoryAllocation = &alloc
		}
		config.DeviceChange, err = devices.ConfigSpec(types.VirtualDeviceConfigSpecOperationAdd)
		if err != nil {
			return err
		}
		task, err := folders.VmFolder.CreateVM(ctx, config, pool, host)
		if err != nil {
			return err
		}
		info, err := task.WaitForResult(ctx, nil)
		if err != nil {
			return fmt.Errorf("vm %q: %w", v.Name, err)
		}
		setSwapPlacement(info.Result.(types.ManagedObjectReference), v.SwapPlacement)
		if v.PowerOn {
			vm := object.NewVirtualMachine(c, info.Result.(types.ManagedObjectReference))
			task, err := vm.PowerOn(ctx)
			if err != nil {
				return err
			}
			if err := task.Wait(ctx); err != nil {
				return fmt.Errorf("vm %q power on: %w", v.Name, err)
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// setDatastore sets a datastore's capacity (free space = capacity) and its host mounts.
// The stock simulator gives every local datastore 10 TB, and lists only the first host
// in datastore.host when the same directory is mounted on several hosts.
func setDatastore(ref types.ManagedObjectReference, capacity int64, hosts []types.ManagedObjectReference) {
	ctx := simulator.SpoofContext()
	ds := ctx.Map.Get(ref).(*simulator.Datastore)
	ctx.WithLock(ds, func() {
		used := ds.Summary.Capacity - ds.Summary.FreeSpace
		ds.Summary.Capacity = capacity
		ds.Summary.FreeSpace = capacity - used
		info := ds.Info.GetDatastoreInfo()
		info.FreeSpace = ds.Summary.FreeSpace
		info.MaxFileSize = capacity
		info.MaxMemoryFileSize = capacity
		if hosts == nil {
			return
		}
		var mounts []types.DatastoreHostMount
		for _, h := range hosts {
			mounts = append(mounts, types.DatastoreHostMount{
				Key: h,
				MountInfo: types.HostMountInfo{
					Path:       info.Url,
					AccessMode: string(types.HostMountModeReadWrite),
					Mounted:    types.NewBool(true),
					Accessible: types.NewBool(true),
				},
			})
		}
		ds.Host = mounts
	})
}

// finishWorld gives every virtual disk a real sparse backing file of the disk's
// size, fixes the layout sizes, vm.datastore, datastore.vm and pod summaries.
func finishWorld() error {
	ctx := simulator.SpoofContext()
	for _, e := range ctx.Map.All("VirtualMachine") {
		vm, ok := e.(*simulator.VirtualMachine)
		if !ok || vm.Runtime.Host == nil {
			continue
		}
		var err error
		ctx.WithLock(vm, func() { err = sparseDisks(ctx, vm) })
		if err != nil {
			return err
		}
		for _, ref := range vm.Datastore {
			ds := ctx.Map.Get(ref).(*simulator.Datastore)
			ctx.WithLock(ds, func() {
				if simulator.FindReference(ds.Vm, vm.Self) == nil {
					ds.Vm = append(ds.Vm, vm.Self)
				}
			})
		}
	}
	for _, e := range ctx.Map.All("Datastore") {
		updatePodSummary(ctx, e.(*simulator.Datastore))
	}
	return nil
}

// isDiskData says whether a layoutEx file type is a virtual disk's descriptor or extent.
func isDiskData(fileType string) bool {
	return fileType == string(types.VirtualMachineFileLayoutExFileTypeDiskDescriptor) ||
		fileType == string(types.VirtualMachineFileLayoutExFileTypeDiskExtent)
}

func sparseDisks(ctx *simulator.Context, vm *simulator.VirtualMachine) error {
	host := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem)
	local := func(dsPath string) string {
		var p object.DatastorePath
		if !p.FromString(dsPath) {
			return ""
		}
		e := ctx.Map.FindByName(p.Datastore, host.Datastore)
		if e == nil {
			return ""
		}
		return filepath.Join(datastoreDir(e.(*simulator.Datastore)), p.Path)
	}
	for _, dev := range object.VirtualDeviceList(vm.Config.Hardware.Device).SelectByType((*types.VirtualDisk)(nil)) {
		d := dev.(*types.VirtualDisk)
		b := backingOf(d)
		if b == nil {
			continue
		}
		files := diskFiles(b.FileName)
		flat := local(files[1])
		if flat == "" {
			continue
		}
		if fileSize(flat) < diskCapacity(d) {
			if err := os.Truncate(flat, diskCapacity(d)); err != nil {
				return fmt.Errorf("sparse backing for %s: %w", b.FileName, err)
			}
		}
	}
	normalizeLayoutEx(ctx, vm)
	if vm.LayoutEx != nil {
		for i := range vm.LayoutEx.File {
			f := &vm.LayoutEx.File[i]
			if p := local(f.Name); p != "" {
				f.Size = fileSize(p)
				f.UniqueSize = f.Size
			}
		}
	}
	refreshStorage(ctx, vm)
	return nil
}
