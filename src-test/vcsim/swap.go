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
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// A powered-on VM's swap file, as ESXi keeps it with the default swap placement: "<name>-<hash>.vswp" in
// the VM's home directory, of the VM's memory less its memory reservation, created at power-on (which
// fails when the home datastore lacks the room) and deleted at power-off and suspend. It is what makes
// a VM's home large (gigabytes, against the kilobytes of its .vmx and logs), so it counts in the home
// datastore's free space and moves with the home.

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

// swapPath is the swap file's datastore path: the home directory, the VM's name and a hash of its UUID.
func swapPath(vm *simulator.VirtualMachine) (object.DatastorePath, bool) {
	var home object.DatastorePath
	if !home.FromString(vm.Config.Files.VmPathName) {
		return home, false
	}
	dir := home.Path
	if path.Ext(dir) == ".vmx" {
		dir = path.Dir(dir)
	}
	name := fmt.Sprintf("%s-%08x.vswp", vm.Name, crc32.ChecksumIEEE([]byte(vm.Config.Uuid)))
	return object.DatastorePath{Datastore: home.Datastore, Path: path.Join(dir, name)}, true
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

// createSwap makes the swap file of a VM about to run, or raises NoDiskSpace on its home datastore when the
// room (free space less what running relocations reserved) is short; the caller holds the VM's lock.
func (r *relocator) createSwap(ctx *simulator.Context, vm *simulator.VirtualMachine) types.BaseMethodFault {
	n := swapBytes(vm)
	sp, ok := swapPath(vm)
	if n == 0 || !ok || swapEntry(vm) >= 0 || vm.Runtime.Host == nil {
		return nil
	}
	ds := findDatastore(ctx, vm, sp.Datastore)
	if ds == nil {
		return &types.InvalidDatastorePath{DatastorePath: sp.String()}
	}
	var fault types.BaseMethodFault
	ctx.WithLock(ds, func() {
		r.mu.Lock()
		free := ds.Summary.FreeSpace - r.reserved[ds.Self]
		r.mu.Unlock()
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
	if fault != nil {
		return fault
	}
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
	return nil
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
		types.PropertyChange{Name: "layoutEx", Val: vm.LayoutEx},
		types.PropertyChange{Name: "storage", Val: vm.Storage},
		types.PropertyChange{Name: "summary.storage", Val: vm.Summary.Storage},
	)
	ctx.Update(vm, changes)
	if ds != nil {
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

// relocating says whether a relocation of the VM is running.
func (r *relocator) relocating(vm *simulator.VirtualMachine) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, busy := r.busy[vm.Self]
	return busy
}
