package main

import (
	"fmt"
	"hash/crc32"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// A powered-on VM's swap file, as ESXi keeps it: "<name>-<hash>.vswp", of the VM's memory less its memory
// reservation, created at power-on (which fails when there is no room for it) and deleted at power-off and
// suspend. With the default swap placement it is in the VM's home directory: it is what makes a VM's home
// large (gigabytes, against the kilobytes of its .vmx and logs), so it counts in the home datastore's free
// space and moves with the home. With host-local placement (the VM's config.swapPlacement, or its cluster's
// configurationEx.vmSwapPlacement when the VM inherits) it is in the root of the host's swap datastore
// (config.localSwapDatastore), stays there when the home moves, and makes vm.datastore name that datastore
// too; when the host has none, or it lacks the room or is entering or in maintenance mode, ESXi puts it in
// the home directory after all. A datastore holding the VM's files that is entering or in maintenance mode
// refuses the power-on (InvalidDatastoreState).

// swapBytes is the size ESXi gives a VM's swap file: configured memory less the memory reservation.
func swapBytes(vm *simulator.VirtualMachine) int64 {
	mem := int64(vm.Config.Hardware.MemoryMB)
	if a := vm.Config.MemoryAllocation; a != nil && a.Reservation != nil {
		mem -= *a.Reservation
	}
	if mem < 0 {
		return 0
	}
	return mem * mib
}

// swapPaths lists where the VM's swap file may go, in ESXi's order of preference: with host-local placement
// the root of the host's swap datastore, when it has one; then the home directory. The file is named after the
// VM and a hash of its UUID.
func swapPaths(ctx *simulator.Context, vm *simulator.VirtualMachine) []object.DatastorePath {
	var home object.DatastorePath
	if !home.FromString(vm.Config.Files.VmPathName) {
		return nil
	}
	dir := home.Path
	if path.Ext(dir) == ".vmx" {
		dir = path.Dir(dir)
	}
	name := fmt.Sprintf("%s-%08x.vswp", vm.Name, crc32.ChecksumIEEE([]byte(vm.Config.Uuid)))
	var paths []object.DatastorePath
	if swapPlacement(ctx, vm) == types.VirtualMachineConfigInfoSwapPlacementTypeHostLocal {
		if host, ok := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem); ok && host.Config != nil && host.Config.LocalSwapDatastore != nil {
			if ds, ok := ctx.Map.Get(*host.Config.LocalSwapDatastore).(*simulator.Datastore); ok {
				paths = append(paths, object.DatastorePath{Datastore: ds.Name, Path: name})
			}
		}
	}
	return append(paths, object.DatastorePath{Datastore: home.Datastore, Path: path.Join(dir, name)})
}

// swapPlacement is the VM's config.swapPlacement, or, when it inherits, the configurationEx.vmSwapPlacement of
// its host's cluster (or of the standalone host's compute resource).
func swapPlacement(ctx *simulator.Context, vm *simulator.VirtualMachine) types.VirtualMachineConfigInfoSwapPlacementType {
	own := types.VirtualMachineConfigInfoSwapPlacementType(vm.Config.SwapPlacement)
	if own != "" && own != types.VirtualMachineConfigInfoSwapPlacementTypeInherit {
		return own
	}
	if host, ok := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem); ok && host.Parent != nil {
		var cfg types.BaseComputeResourceConfigInfo
		switch cr := ctx.Map.Get(*host.Parent).(type) {
		case *simulator.ClusterComputeResource:
			cfg = cr.ConfigurationEx
		case *mo.ComputeResource:
			cfg = cr.ConfigurationEx
		}
		if cfg != nil && cfg.GetComputeResourceConfigInfo().VmSwapPlacement != "" {
			return types.VirtualMachineConfigInfoSwapPlacementType(cfg.GetComputeResourceConfigInfo().VmSwapPlacement)
		}
	}
	return types.VirtualMachineConfigInfoSwapPlacementTypeVmDirectory
}

// setSwapPlacement sets what the inventory gives a cluster (configurationEx.vmSwapPlacement) or a VM
// (config.swapPlacement, "inherit" when not given, as vCenter creates VMs); the stock simulator keeps neither.
func setSwapPlacement(ref types.ManagedObjectReference, placement string) {
	ctx := simulator.SpoofContext()
	obj := ctx.Map.Get(ref)
	ctx.WithLock(obj, func() {
		switch o := obj.(type) {
		case *simulator.ClusterComputeResource:
			o.ConfigurationEx.GetComputeResourceConfigInfo().VmSwapPlacement = placement
			ctx.Update(o, []types.PropertyChange{{Name: "configurationEx", Val: o.ConfigurationEx}})
		case *simulator.VirtualMachine:
			if placement == "" {
				placement = string(types.VirtualMachineConfigInfoSwapPlacementTypeInherit)
			}
			o.Config.SwapPlacement = placement
			ctx.Update(o, []types.PropertyChange{{Name: "config.swapPlacement", Val: placement}})
		}
	})
}

// setLocalSwapDatastore sets a host's config.localSwapDatastore, as the inventory gives it.
func setLocalSwapDatastore(ref, ds types.ManagedObjectReference) {
	ctx := simulator.SpoofContext()
	host := ctx.Map.Get(ref).(*simulator.HostSystem)
	ctx.WithLock(host, func() {
		host.Config.LocalSwapDatastore = &ds
		ctx.Update(host, []types.PropertyChange{{Name: "config.localSwapDatastore", Val: &ds}})
	})
}

// swapEntry is the index of the VM's swap file in layoutEx.file, or -1.
func swapEntry(vm *simulator.VirtualMachine) int {
	if vm.LayoutEx == nil {
		return -1
	}
	for i, f := range vm.LayoutEx.File {
		if f.Type == string(types.VirtualMachineFileLayoutExFileTypeSwap) {
			return i
		}
	}
	return -1
}

// createSwap makes the swap file of a VM about to run where swapPaths first finds the room (free space less
// what running relocations reserved), or raises NoDiskSpace on its home datastore; the caller holds the VM's lock.
func (r *relocator) createSwap(ctx *simulator.Context, vm *simulator.VirtualMachine) types.BaseMethodFault {
	n := swapBytes(vm)
	if n == 0 || swapEntry(vm) >= 0 || vm.Runtime.Host == nil {
		return nil
	}
	var fault types.BaseMethodFault
	for _, sp := range swapPaths(ctx, vm) {
		var ds *simulator.Datastore
		ds, fault = r.makeSwapFile(ctx, vm, sp, n)
		if fault == nil {
			r.listSwap(ctx, vm, sp, n, ds)
			return nil
		}
	}
	return fault
}

// makeSwapFile creates the swap file at sp and takes its room from the datastore.
func (r *relocator) makeSwapFile(ctx *simulator.Context, vm *simulator.VirtualMachine, sp object.DatastorePath, n int64) (
	*simulator.Datastore, types.BaseMethodFault) {
	ds := findDatastore(ctx, vm, sp.Datastore)
	if ds == nil {
		return nil, &types.InvalidDatastorePath{DatastorePath: sp.String()}
	}
	var fault types.BaseMethodFault
	ctx.WithLock(ds, func() {
		r.mu.Lock()
		free := ds.Summary.FreeSpace - r.reserved[ds.Self]
		r.mu.Unlock()
		if maintenanceModeOf(ds) != maintenanceNormal {
			fault = &types.InvalidDatastoreState{DatastoreName: ds.Name} // no VM powers on onto it
			return
		}
		if free < n {
			fault = &types.NoDiskSpace{FileFault: types.FileFault{File: sp.String()}, Datastore: ds.Name}
			return
		}
		local := filepath.Join(datastoreDir(ds), sp.Path)
		f, err := os.OpenFile(local, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			err = f.Truncate(n) // sparse: the simulated datastore accounts for it, the host's disk does not
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			_ = os.Remove(local)
			cf := &types.CannotAccessFile{FileFault: types.FileFault{File: sp.String()}}
			cf.FaultMessage = []types.LocalizableMessage{{Key: "opensdrs.vcsim.swap", Message: err.Error()}}
			fault = cf
			return
		}
		addFreeSpace(ctx, ds, -n)
	})
	return ds, fault
}

// listSwap lists a new swap file in the VM's layouts and storage usage.
func (r *relocator) listSwap(ctx *simulator.Context, vm *simulator.VirtualMachine, sp object.DatastorePath, n int64, ds *simulator.Datastore) {
	if vm.LayoutEx == nil {
		vm.LayoutEx = &types.VirtualMachineFileLayoutEx{}
	}
	key := int32(0)
	for _, f := range vm.LayoutEx.File {
		if f.Key >= key {
			key = f.Key + 1
		}
	}
	vm.LayoutEx.File = append(vm.LayoutEx.File, types.VirtualMachineFileLayoutExFileInfo{
		Key: key, Name: sp.String(), Type: string(types.VirtualMachineFileLayoutExFileTypeSwap),
		Size: n, UniqueSize: n, Accessible: types.NewBool(true)})
	r.swapChanged(ctx, vm, sp.String(), ds)
}

// removeSwap deletes the swap file of a VM that no longer runs and gives its room back; the caller holds the VM's lock.
func (r *relocator) removeSwap(ctx *simulator.Context, vm *simulator.VirtualMachine) {
	i := swapEntry(vm)
	if i < 0 || vm.Runtime.Host == nil {
		return
	}
	entry := vm.LayoutEx.File[i]
	vm.LayoutEx.File = append(vm.LayoutEx.File[:i:i], vm.LayoutEx.File[i+1:]...)
	var p object.DatastorePath
	ds := (*simulator.Datastore)(nil)
	if p.FromString(entry.Name) {
		ds = findDatastore(ctx, vm, p.Datastore)
	}
	if ds != nil {
		local := filepath.Join(datastoreDir(ds), p.Path)
		size := fileSize(local)
		if err := os.Remove(local); err == nil {
			ctx.WithLock(ds, func() { addFreeSpace(ctx, ds, size) })
		}
	}
	r.swapChanged(ctx, vm, "", ds)
}

// swapChanged publishes the VM's layouts and storage usage after its swap file came or went.
func (r *relocator) swapChanged(ctx *simulator.Context, vm *simulator.VirtualMachine, swapFile string, ds *simulator.Datastore) {
	changes := []types.PropertyChange{}
	if vm.Layout != nil {
		vm.Layout.SwapFile = swapFile
		changes = append(changes, types.PropertyChange{Name: "layout", Val: vm.Layout})
	}
	vm.LayoutEx.Timestamp = time.Now()
	refreshStorage(ctx, vm)
	changes = append(changes,
		types.PropertyChange{Name: "datastore", Val: vm.Datastore},
		types.PropertyChange{Name: "layoutEx", Val: vm.LayoutEx},
		types.PropertyChange{Name: "storage", Val: vm.Storage},
		types.PropertyChange{Name: "summary.storage", Val: vm.Summary.Storage},
	)
	ctx.Update(vm, changes)
	if ds != nil {
		// a swap file on the host's swap datastore is the VM's only file there: the VM comes and goes in its
		// datastore.vm with it, and a datastore entering maintenance mode waits for it to go
		ctx.WithLock(ds, func() {
			if c := listVmOn(ds, vm, simulator.FindReference(vm.Datastore, ds.Self) != nil); c != nil {
				ctx.Update(ds, c)
			}
		})
		updatePodSummary(ctx, ds)
	}
}

// addFreeSpace changes a datastore's free space by n bytes; the caller holds the datastore's lock.
func addFreeSpace(ctx *simulator.Context, ds *simulator.Datastore, n int64) {
	ds.Summary.FreeSpace += n
	ds.Info.GetDatastoreInfo().FreeSpace = ds.Summary.FreeSpace
	ctx.Update(ds, []types.PropertyChange{{Name: "summary.freeSpace", Val: ds.Summary.FreeSpace}})
}

// reconcileSwaps gives every running VM its swap file and takes it from every VM that stopped: power-off,
// suspend, guest shutdown and reset all end in the stock simulator, which keeps no swap file.
func (r *relocator) reconcileSwaps() {
	ctx := simulator.SpoofContext()
	for _, e := range ctx.Map.All("VirtualMachine") {
		vm, ok := e.(*simulator.VirtualMachine)
		if !ok {
			continue
		}
		if r.relocating(vm) {
			continue // its files are being copied: settled once the relocation has committed
		}
		ctx.WithLock(vm, func() {
			if vm.Config == nil || vm.Config.Template {
				return
			}
			if vm.Runtime.PowerState == types.VirtualMachinePowerStatePoweredOn {
				_ = r.createSwap(ctx, vm) // running already: nothing to refuse, and no room means no file
			} else {
				r.removeSwap(ctx, vm)
			}
		})
	}
}

// PoweringVM changes the behaviour of simulator.VirtualMachine for PowerOnVM_Task only: the swap file is
// made first, and a home datastore without room for it fails the power-on, as on ESXi.
type PoweringVM struct {
	*simulator.VirtualMachine
	r       *relocator
	session *simulator.Session
}

// PowerOnVMTask overrides simulator.VirtualMachine.PowerOnVMTask.
func (vm *PoweringVM) PowerOnVMTask(ctx *simulator.Context, req *types.PowerOnVM_Task) soap.HasFault {
	routes.leave(ctx, vm.session, vm.Self)
	if vm.Runtime.PowerState != types.VirtualMachinePowerStatePoweredOn && !vm.Config.Template {
		var fault types.BaseMethodFault
		if vm.r.relocating(vm.VirtualMachine) {
			// vCenter runs one operation on a VM at a time; a swap file made now would miss the copy
			vm.r.mu.Lock()
			fault = &types.TaskInProgress{Task: vm.r.busy[vm.Self]}
			vm.r.mu.Unlock()
		} else if f := vm.onDatastoreInMaintenance(ctx); f != nil {
			fault = f
		} else {
			fault = vm.r.createSwap(ctx, vm.VirtualMachine)
		}
		if fault != nil {
			task, tctx := startTask(ctx, vm.VirtualMachine, "powerOn")
			finishTask(tctx, task, fault)
			return &methods.PowerOnVM_TaskBody{Res: &types.PowerOnVM_TaskResponse{Returnval: task.Self}}
		}
	}
	// A stock power-on that fails (host in maintenance) leaves the VM off: reconcileSwaps removes the file.
	return vm.VirtualMachine.PowerOnVMTask(ctx, req)
}

// onDatastoreInMaintenance refuses a power-on while a datastore holding the VM's files is entering or in maintenance
// mode, as vCenter does ("no virtual machines can be powered on" there, DatastoreEnterMaintenanceMode).
func (vm *PoweringVM) onDatastoreInMaintenance(ctx *simulator.Context) types.BaseMethodFault {
	for _, ref := range vm.Datastore {
		if ds, ok := ctx.Map.Get(ref).(*simulator.Datastore); ok {
			if f := inMaintenance(ctx, ds); f != nil {
				return f
			}
		}
	}
	return nil
}

// relocating says whether a relocation of the VM is running.
func (r *relocator) relocating(vm *simulator.VirtualMachine) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, busy := r.busy[vm.Self]
	return busy
}
