package main

// Faithful storage vMotion for govmomi's simulator.
//
// Stock vcsim (govmomi v0.46.3, simulator/virtual_machine.go) implements
// RelocateVM_Task by rewriting the VM's "datastore" property only. Here the VM
// object is wrapped, the way simulator/example_extend_test.go shows, with a
// type that overrides RelocateVMTask. The wrapper is handed to the dispatcher
// per call through Registry.Handler instead of being stored with Map.Put: more
// than 30 places in the simulator do Map.Get(ref).(*simulator.VirtualMachine),
// and a wrapper stored in the registry would make each of them panic. Every
// other method of the VM therefore reaches the stock object unchanged.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

const mib = int64(1024 * 1024)

// relocator holds the state shared by all relocations of one simulator.
type relocator struct {
	// rateMBps is the simulated copy rate in MiB/s; <= 0 means instantaneous.
	rateMBps float64
	// hold keeps a copied relocation from committing until the storage says its copy is done (relocate_hold.go).
	hold *relocationHold

	mu       sync.Mutex
	reserved map[types.ManagedObjectReference]int64                        // bytes promised to running relocations, per destination datastore
	busy     map[types.ManagedObjectReference]types.ManagedObjectReference // VM -> relocation task in flight
	forced   map[string]bool                                               // datastore name -> made inaccessible through the admin endpoint

	// maintenanceMu guards entering (maintenance.go); never held with mu, and taken before any object lock
	maintenanceMu sync.Mutex
	entering      map[types.ManagedObjectReference]enteringTask // datastore -> its running DatastoreEnterMaintenanceMode task
}

func newRelocator(rateMBps float64, hold time.Duration) *relocator {
	return &relocator{
		rateMBps: rateMBps,
		hold:     newRelocationHold(hold),
		reserved: map[types.ManagedObjectReference]int64{},
		busy:     map[types.ManagedObjectReference]types.ManagedObjectReference{},
		forced:   map[string]bool{},
		entering: map[types.ManagedObjectReference]enteringTask{},
	}
}

// install routes RelocateVM_Task calls on VirtualMachine objects to RelocatingVM,
// and CreateLocalDatastore and StoragePod.MoveIntoFolder_Task to datastores.go.
func (r *relocator) install(reg *simulator.Registry) {
	prev := reg.Handler
	reg.Handler = func(ctx *simulator.Context, m *simulator.Method) (mo.Reference, types.BaseMethodFault) {
		if m.Name == "RelocateVM_Task" && m.This.Type == "VirtualMachine" {
			if vm, ok := ctx.Map.Get(m.This).(*simulator.VirtualMachine); ok {
				w := &RelocatingVM{VirtualMachine: vm, r: r}
				w.session = routes.enter(ctx, w) // RelocateVMTask leaves
				return w, nil
			}
		}
		if m.Name == "PowerOnVM_Task" && m.This.Type == "VirtualMachine" {
			if vm, ok := ctx.Map.Get(m.This).(*simulator.VirtualMachine); ok {
				w := &PoweringVM{VirtualMachine: vm, r: r}
				w.session = routes.enter(ctx, w) // PowerOnVMTask leaves
				return w, nil
			}
		}
		if w, ok := routeDatastoreCalls(ctx, m); ok {
			return w, nil
		}
		if w, ok := routeStorageDrsCalls(ctx, m); ok {
			return w, nil
		}
		if w, ok := r.routeMaintenanceCalls(ctx, m); ok {
			return w, nil
		}
		if prev != nil {
			return prev(ctx, m)
		}
		return nil, nil
	}
}

// RelocatingVM changes the behaviour of simulator.VirtualMachine for RelocateVM_Task only.
type RelocatingVM struct {
	*simulator.VirtualMachine
	r       *relocator
	session *simulator.Session
}

// RelocateVMTask overrides simulator.VirtualMachine.RelocateVMTask.
func (vm *RelocatingVM) RelocateVMTask(ctx *simulator.Context, req *types.RelocateVM_Task) soap.HasFault {
	routes.leave(ctx, vm.session, vm.Self)
	task, tctx := startTask(ctx, vm.VirtualMachine, "relocateVm")

	go func() {
		fault := vm.r.run(tctx, vm.VirtualMachine, task, req.Spec)
		finishTask(tctx, task, fault)
	}()

	return &methods.RelocateVM_TaskBody{
		Res: &types.RelocateVM_TaskResponse{Returnval: task.Self},
	}
}

// startTask creates a task on obj and marks it running, with progress 0; the returned context is the
// task's own, since the task outlives the request (its own locking identity).
func startTask(ctx *simulator.Context, obj mo.Reference, name string) (*simulator.Task, *simulator.Context) {
	task := simulator.CreateTask(obj, name, nil)
	c := *ctx
	tctx := &c
	tctx.Map.AtomicUpdate(tctx, task, []types.PropertyChange{
		{Name: "info.startTime", Val: time.Now()},
		{Name: "info.state", Val: types.TaskInfoStateRunning},
		{Name: "info.progress", Val: int32(0)},
	})
	return task, tctx
}

// finishTask ends a task started by startTask: success with progress 100, or the fault.
func finishTask(ctx *simulator.Context, task *simulator.Task, fault types.BaseMethodFault) {
	state := types.TaskInfoStateSuccess
	var lmf interface{}
	changes := []types.PropertyChange{}
	if fault != nil {
		state = types.TaskInfoStateError
		lmf = types.LocalizedMethodFault{Fault: fault, LocalizedMessage: faultMessage(fault)}
	} else {
		changes = append(changes, types.PropertyChange{Name: "info.progress", Val: int32(100)})
	}
	changes = append(changes,
		types.PropertyChange{Name: "info.completeTime", Val: time.Now()},
		types.PropertyChange{Name: "info.state", Val: state},
		types.PropertyChange{Name: "info.result", Val: nil},
		types.PropertyChange{Name: "info.error", Val: lmf},
	)
	ctx.Map.AtomicUpdate(ctx, task, changes)
}

// faultMessage returns the message vCenter shows for the faults raised here.
func faultMessage(f types.BaseMethodFault) string {
	switch x := f.(type) {
	case *types.NoDiskSpace:
		return fmt.Sprintf("Insufficient disk space on datastore '%s'.", x.Datastore)
	case *types.InaccessibleDatastore:
		return fmt.Sprintf("Unable to access datastore '%s': %s", x.Name, x.Detail)
	case *types.DatastoreNotWritableOnHost:
		return fmt.Sprintf("Datastore '%s' is not accessible from the host.", x.Name)
	case *types.InvalidDatastoreState:
		return fmt.Sprintf("The operation is not allowed in the current state of the datastore '%s' (entering or in maintenance mode).", x.DatastoreName)
	case *types.RequestCanceled:
		return "The task was canceled by a user."
	case *types.TaskInProgress:
		return "Another task is already in progress."
	case *types.InvalidArgument:
		return fmt.Sprintf("A specified parameter was not correct: %s", x.InvalidProperty)
	}
	if mf, ok := f.(interface{ GetMethodFault() *types.MethodFault }); ok {
		for _, m := range mf.GetMethodFault().FaultMessage {
			if m.Message != "" {
				return m.Message
			}
		}
	}
	return fmt.Sprintf("%T", f)
}

// moveFile is one file to move: datastore-relative paths on each side.
type moveFile struct {
	src, dst       *simulator.Datastore
	srcRel, dstRel string
	size           int64
}

type moveDisk struct {
	key      int32
	src, dst *simulator.Datastore
	oldName  string // "[ds] dir/name.vmdk"
	newName  string
	capacity int64
}

type plan struct {
	host      types.ManagedObjectReference
	homeSrc   *simulator.Datastore
	homeDst   *simulator.Datastore
	homeDir   string // datastore-relative directory of the VM home
	moveHome  bool
	disks     []moveDisk
	files     []moveFile
	need      map[types.ManagedObjectReference]int64
	copyBytes int64
	swapBytes int64 // a running VM's swap file, moving with its home
	involved  []*simulator.Datastore
}

func (p *plan) empty() bool { return !p.moveHome && len(p.disks) == 0 }

// run executes one relocation and returns its fault, or nil.
func (r *relocator) run(ctx *simulator.Context, vm *simulator.VirtualMachine, task *simulator.Task, spec types.VirtualMachineRelocateSpec) types.BaseMethodFault {
	r.mu.Lock()
	if t, ok := r.busy[vm.Self]; ok {
		r.mu.Unlock()
		return &types.TaskInProgress{Task: t}
	}
	r.busy[vm.Self] = task.Self
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.busy, vm.Self)
		r.mu.Unlock()
	}()

	// 1. Plan and validate; nothing is changed before this succeeds.
	var p *plan
	var fault types.BaseMethodFault
	ctx.WithLock(vm, func() { p, fault = r.makePlan(ctx, vm, spec) })
	if fault != nil {
		return fault
	}
	if fault = r.reserve(p); fault != nil {
		return fault
	}
	released := false
	release := func() {
		if !released {
			r.unreserve(p)
			released = true
		}
	}
	defer release()

	// 2. The copy: progress over a time proportional to the bytes copied.
	r.simulateCopy(ctx, task, p.copyBytes)
	if !p.empty() {
		r.hold.wait(task.Self, vm.Self)
	}

	// 3. Commit: move files and update properties, or change nothing.
	if !p.empty() {
		ctx.WithLock(vm, func() { fault = r.commit(ctx, vm, p, release) })
		if fault != nil {
			return fault
		}
	}
	release()

	// 4. Whatever is not storage (host, pool, folder, device changes) stays stock.
	if spec.Host != nil || spec.Pool != nil || spec.Folder != nil || len(spec.DeviceChange) != 0 {
		rest := types.VirtualMachineRelocateSpec{Host: spec.Host, Pool: spec.Pool, Folder: spec.Folder, DeviceChange: spec.DeviceChange}
		res := vm.RelocateVMTask(ctx, &types.RelocateVM_Task{This: vm.Self, Spec: rest})
		ref := res.(*methods.RelocateVM_TaskBody).Res.Returnval
		t := ctx.Map.Get(ref).(*simulator.Task)
		t.Wait()
		if t.Info.Error != nil {
			return t.Info.Error.Fault
		}
	} else if !p.empty() {
		postMigrated(ctx, vm, p)
	}
	return nil
}

func datastoreDir(ds *simulator.Datastore) string {
	return ds.Info.GetDatastoreInfo().Url
}

// accessible reports whether a datastore can be used, and why not.
func (r *relocator) accessible(ds *simulator.Datastore) (bool, string) {
	r.mu.Lock()
	forced := r.forced[ds.Name]
	r.mu.Unlock()
	if forced {
		return false, "datastore marked inaccessible"
	}
	fi, err := os.Stat(datastoreDir(ds))
	if err != nil {
		return false, "datastore directory is not accessible: " + err.Error()
	}
	if !fi.IsDir() {
		return false, "datastore directory is not a directory"
	}
	if !ds.Summary.Accessible {
		return false, "datastore summary.accessible is false"
	}
	return true, ""
}

func inaccessible(ds *simulator.Datastore, detail string) types.BaseMethodFault {
	ref := ds.Self
	return &types.InaccessibleDatastore{
		InvalidDatastore: types.InvalidDatastore{Datastore: &ref, Name: ds.Name},
		Detail:           detail,
	}
}

func backingOf(d *types.VirtualDisk) *types.VirtualDeviceFileBackingInfo {
	if b, ok := d.Backing.(types.BaseVirtualDeviceFileBackingInfo); ok {
		return b.GetVirtualDeviceFileBackingInfo()
	}
	return nil
}

func diskCapacity(d *types.VirtualDisk) int64 {
	if d.CapacityInBytes > 0 {
		return d.CapacityInBytes
	}
	return d.CapacityInKB * 1024
}

// diskFiles lists the files of a disk: descriptor and flat extent (as the stock simulator creates them).
func diskFiles(rel string) []string {
	return []string{rel, strings.Replace(rel, ".vmdk", "-flat.vmdk", 1)}
}

func (r *relocator) makePlan(ctx *simulator.Context, vm *simulator.VirtualMachine, spec types.VirtualMachineRelocateSpec) (*plan, types.BaseMethodFault) {
	p := &plan{need: map[types.ManagedObjectReference]int64{}}
	if vm.Runtime.Host == nil {
		return nil, &types.InvalidState{}
	}
	p.host = *vm.Runtime.Host
	if spec.Host != nil {
		p.host = *spec.Host
	}
	host, ok := ctx.Map.Get(p.host).(*simulator.HostSystem)
	if !ok {
		return nil, &types.ManagedObjectNotFound{Obj: p.host}
	}
	curHost := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem)

	lookup := func(ref types.ManagedObjectReference, prop string) (*simulator.Datastore, types.BaseMethodFault) {
		ds, ok := ctx.Map.Get(ref).(*simulator.Datastore)
		if !ok {
			return nil, &types.InvalidArgument{InvalidProperty: prop}
		}
		return ds, nil
	}
	byName := func(name string) *simulator.Datastore {
		if e := ctx.Map.FindByName(name, curHost.Datastore); e != nil {
			return e.(*simulator.Datastore)
		}
		return nil
	}

	var home object.DatastorePath
	if !home.FromString(vm.Config.Files.VmPathName) {
		return nil, &types.InvalidDatastorePath{DatastorePath: vm.Config.Files.VmPathName}
	}
	p.homeSrc = byName(home.Datastore)
	if p.homeSrc == nil {
		return nil, &types.InvalidDatastorePath{DatastorePath: vm.Config.Files.VmPathName}
	}
	p.homeDir = home.Path
	if path.Ext(p.homeDir) == ".vmx" {
		p.homeDir = path.Dir(p.homeDir)
	}
	p.homeDst = p.homeSrc
	if spec.Datastore != nil {
		ds, f := lookup(*spec.Datastore, "spec.datastore")
		if f != nil {
			return nil, f
		}
		p.homeDst = ds
	}
	p.moveHome = p.homeDst.Self != p.homeSrc.Self

	locators := map[int32]types.ManagedObjectReference{}
	for _, l := range spec.Disk {
		locators[l.DiskId] = l.Datastore
	}

	disks := object.VirtualDeviceList(vm.Config.Hardware.Device).SelectByType((*types.VirtualDisk)(nil))
	known := map[int32]bool{}
	// Disk files that stay where they are, per datastore: they are not part of a home move.
	staying := map[string]bool{}
	moving := map[string]bool{}
	for _, dev := range disks {
		d := dev.(*types.VirtualDisk)
		known[d.Key] = true
		b := backingOf(d)
		if b == nil {
			continue
		}
		var dp object.DatastorePath
		if !dp.FromString(b.FileName) {
			return nil, &types.InvalidDatastorePath{DatastorePath: b.FileName}
		}
		src := byName(dp.Datastore)
		if src == nil {
			return nil, &types.InvalidDatastorePath{DatastorePath: b.FileName}
		}
		dst := p.homeDst
		if ref, ok := locators[d.Key]; ok {
			ds, f := lookup(ref, "spec.disk.datastore")
			if f != nil {
				return nil, f
			}
			dst = ds
		} else if spec.Datastore == nil {
			dst = src
		}
		if dst.Self == src.Self {
			for _, f := range diskFiles(dp.Path) {
				staying[src.Name+"\x00"+f] = true
			}
			continue
		}
		if fb, ok := d.Backing.(*types.VirtualDiskFlatVer2BackingInfo); ok && fb.Parent != nil {
			nf := &types.NotSupported{}
			nf.FaultMessage = []types.LocalizableMessage{{
				Key: "opensdrs.vcsim.deltaDisk", Message: "relocating disks with snapshots (delta disk chains) is not simulated"}}
			return nil, nf
		}
		capacity := diskCapacity(d)
		md := moveDisk{key: d.Key, src: src, dst: dst, oldName: b.FileName, capacity: capacity}
		p.disks = append(p.disks, md)
		p.need[dst.Self] += capacity
		for _, f := range diskFiles(dp.Path) {
			moving[src.Name+"\x00"+f] = true
		}
	}
	for id := range locators {
		if !known[id] {
			return nil, &types.InvalidArgument{InvalidProperty: "spec.disk.diskId"}
		}
	}
	if p.empty() {
		return p, nil
	}

	// Every datastore involved must be accessible, and every destination mounted on the host.
	seen := map[types.ManagedObjectReference]bool{}
	add := func(ds *simulator.Datastore) {
		if !seen[ds.Self] {
			seen[ds.Self] = true
			p.involved = append(p.involved, ds)
		}
	}
	if p.moveHome {
		add(p.homeSrc)
		add(p.homeDst)
	}
	for _, d := range p.disks {
		add(d.src)
		add(d.dst)
	}
	for _, ds := range p.involved {
		if ok, why := r.accessible(ds); !ok {
			return nil, inaccessible(ds, why)
		}
	}
	dsts := []*simulator.Datastore{}
	if p.moveHome {
		dsts = append(dsts, p.homeDst)
	}
	for _, d := range p.disks {
		dsts = append(dsts, d.dst)
	}
	for _, ds := range dsts {
		if f := inMaintenance(ctx, ds); f != nil {
			return nil, f
		}
		if simulator.FindReference(host.Datastore, ds.Self) == nil {
			ref := ds.Self
			return nil, &types.DatastoreNotWritableOnHost{
				InvalidDatastore: types.InvalidDatastore{Datastore: &ref, Name: ds.Name},
				Host:             host.Self,
			}
		}
	}

	// Destination names: same datastore-relative path, made unique if taken.
	taken := map[string]bool{}
	for i := range p.disks {
		d := &p.disks[i]
		var dp object.DatastorePath
		dp.FromString(d.oldName)
		rel := dp.Path
		newRel := uniqueDiskName(datastoreDir(d.dst), d.dst.Name, rel, taken)
		d.newName = fmt.Sprintf("[%s] %s", d.dst.Name, newRel)
		for j, f := range diskFiles(rel) {
			nf := diskFiles(newRel)[j]
			size := fileSize(filepath.Join(datastoreDir(d.src), f))
			p.files = append(p.files, moveFile{src: d.src, dst: d.dst, srcRel: f, dstRel: nf, size: size})
			p.copyBytes += size
		}
		if p.copyBytes < d.capacity {
			p.copyBytes = d.capacity // a missing or short extent still copies the disk's size
		}
	}

	if p.moveHome {
		dir := filepath.Join(datastoreDir(p.homeSrc), p.homeDir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, inaccessible(p.homeSrc, "cannot read VM directory: "+err.Error())
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			rel := path.Join(p.homeDir, e.Name())
			key := p.homeSrc.Name + "\x00" + rel
			if staying[key] || moving[key] {
				continue
			}
			dstPath := filepath.Join(datastoreDir(p.homeDst), rel)
			if _, err := os.Lstat(dstPath); err == nil || taken[p.homeDst.Name+"\x00"+rel] {
				return nil, &types.FileAlreadyExists{FileFault: types.FileFault{File: fmt.Sprintf("[%s] %s", p.homeDst.Name, rel)}}
			}
			taken[p.homeDst.Name+"\x00"+rel] = true
			size := fileSize(filepath.Join(dir, e.Name()))
			p.files = append(p.files, moveFile{src: p.homeSrc, dst: p.homeDst, srcRel: rel, dstRel: rel, size: size})
			p.copyBytes += size
			if i := swapEntry(vm); i >= 0 && vm.LayoutEx.File[i].Name == fmt.Sprintf("[%s] %s", p.homeSrc.Name, rel) {
				// Free space counts disk capacities and swap files (swap.go), not the home's kilobytes of
				// configuration and logs, which the stock simulator never took from it.
				p.swapBytes = vm.LayoutEx.File[i].Size
				p.need[p.homeDst.Self] += p.swapBytes
			}
		}
	}
	return p, nil
}

func fileSize(p string) int64 {
	if fi, err := os.Stat(p); err == nil {
		return fi.Size()
	}
	return 0
}

// uniqueDiskName returns rel, or rel with a _N suffix, such that neither the
// descriptor nor the flat file exists on the destination or is already planned.
func uniqueDiskName(dir, dsName, rel string, taken map[string]bool) string {
	base := strings.TrimSuffix(rel, ".vmdk")
	for i := 0; ; i++ {
		cand := rel
		if i > 0 {
			cand = fmt.Sprintf("%s_%d.vmdk", base, i)
		}
		free := true
		for _, f := range diskFiles(cand) {
			if _, err := os.Lstat(filepath.Join(dir, f)); err == nil || taken[dsName+"\x00"+f] {
				free = false
			}
		}
		if free {
			for _, f := range diskFiles(cand) {
				taken[dsName+"\x00"+f] = true
			}
			return cand
		}
	}
}

// reserve checks free space on every destination and reserves it, all or nothing.
func (r *relocator) reserve(p *plan) types.BaseMethodFault {
	r.mu.Lock()
	defer r.mu.Unlock()
	refs := make([]types.ManagedObjectReference, 0, len(p.need))
	for ref := range p.need {
		refs = append(refs, ref)
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Value < refs[j].Value })
	for _, ref := range refs {
		ds := simulator.Map.Get(ref).(*simulator.Datastore)
		free := ds.Summary.FreeSpace - r.reserved[ref]
		if free < p.need[ref] {
			file := ""
			for _, d := range p.disks {
				if d.dst.Self == ref {
					file = d.newName
					break
				}
			}
			if file == "" && p.moveHome {
				file = fmt.Sprintf("[%s] %s", p.homeDst.Name, p.homeDir)
			}
			return &types.NoDiskSpace{FileFault: types.FileFault{File: file}, Datastore: ds.Name}
		}
	}
	for _, ref := range refs {
		r.reserved[ref] += p.need[ref]
	}
	return nil
}

func (r *relocator) unreserve(p *plan) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ref, n := range p.need {
		r.reserved[ref] -= n
		if r.reserved[ref] == 0 {
			delete(r.reserved, ref)
		}
	}
}

// simulateCopy advances info.progress from 0 towards 100 over bytes/rate.
func (r *relocator) simulateCopy(ctx *simulator.Context, task *simulator.Task, bytes int64) {
	if r.rateMBps <= 0 || bytes <= 0 {
		return
	}
	total := time.Duration(float64(bytes) / (r.rateMBps * float64(mib)) * float64(time.Second))
	tick := total / 20
	if tick < 10*time.Millisecond {
		tick = 10 * time.Millisecond
	}
	if tick > 250*time.Millisecond {
		tick = 250 * time.Millisecond
	}
	start := time.Now()
	last := int32(0)
	for {
		elapsed := time.Since(start)
		if elapsed >= total {
			return
		}
		pct := int32(float64(elapsed) / float64(total) * 100)
		if pct > 99 {
			pct = 99
		}
		if pct != last {
			last = pct
			ctx.Map.AtomicUpdate(ctx, task, []types.PropertyChange{{Name: "info.progress", Val: pct}})
		}
		sleep := tick
		if rest := total - elapsed; rest < sleep {
			sleep = rest
		}
		time.Sleep(sleep)
	}
}

// moveOne renames a file, falling back to a sparse-preserving copy across filesystems.
func moveOne(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	if _, err := os.Lstat(dst); err == nil {
		return os.ErrExist
	}
	err := os.Rename(src, dst)
	if err == nil {
		return nil
	}
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if err := copySparse(out, in, fi.Size()); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(dst)
		return err
	}
	return os.Remove(src)
}

func copySparse(out *os.File, in *os.File, size int64) error {
	buf := make([]byte, 1<<20)
	zero := make([]byte, len(buf))
	var off int64
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if string(buf[:n]) != string(zero[:n]) {
				if _, werr := out.WriteAt(buf[:n], off); werr != nil {
					return werr
				}
			}
			off += int64(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	return out.Truncate(size)
}

// commit moves the files and updates every property, or leaves everything as it was.
func (r *relocator) commit(ctx *simulator.Context, vm *simulator.VirtualMachine, p *plan, release func()) types.BaseMethodFault {
	// Re-validate: a datastore may have vanished, or the disks changed, during the copy.
	for _, ds := range p.involved {
		if ok, why := r.accessible(ds); !ok {
			return inaccessible(ds, why)
		}
	}
	devices := object.VirtualDeviceList(vm.Config.Hardware.Device)
	for _, d := range p.disks {
		dev := devices.FindByKey(d.key)
		disk, ok := dev.(*types.VirtualDisk)
		if !ok || backingOf(disk) == nil || backingOf(disk).FileName != d.oldName {
			return &types.ConcurrentAccess{}
		}
	}

	normalizeLayoutEx(ctx, vm)

	// Move the files, rolling back on the first failure.
	var done []moveFile
	for _, f := range p.files {
		src := filepath.Join(datastoreDir(f.src), f.srcRel)
		dst := filepath.Join(datastoreDir(f.dst), f.dstRel)
		if _, err := os.Lstat(src); os.IsNotExist(err) {
			continue // e.g. a disk extent that never existed
		}
		if err := moveOne(src, dst); err != nil {
			for i := len(done) - 1; i >= 0; i-- {
				b := done[i]
				_ = moveOne(filepath.Join(datastoreDir(b.dst), b.dstRel), filepath.Join(datastoreDir(b.src), b.srcRel))
			}
			cf := &types.CannotAccessFile{FileFault: types.FileFault{File: fmt.Sprintf("[%s] %s", f.src.Name, f.srcRel)}}
			cf.FaultMessage = []types.LocalizableMessage{{Key: "opensdrs.vcsim.move", Message: err.Error()}}
			return cf
		}
		done = append(done, f)
	}
	// Remove source directories left empty.
	dirs := map[string]bool{}
	for _, f := range done {
		dirs[filepath.Dir(filepath.Join(datastoreDir(f.src), f.srcRel))] = true
	}
	for d := range dirs {
		_ = os.Remove(d) // fails, harmlessly, unless empty
	}

	// Names: old "[ds] path" -> new "[ds] path".
	rename := map[string]string{}
	for _, f := range p.files {
		rename[fmt.Sprintf("[%s] %s", f.src.Name, f.srcRel)] = fmt.Sprintf("[%s] %s", f.dst.Name, f.dstRel)
	}
	ren := func(s string) string {
		if n, ok := rename[s]; ok {
			return n
		}
		return s
	}

	// Disk backings.
	for _, d := range p.disks {
		disk := devices.FindByKey(d.key).(*types.VirtualDisk)
		b := backingOf(disk)
		b.FileName = d.newName
		ref := d.dst.Self
		b.Datastore = &ref
	}

	// VM home.
	vmChanges := []types.PropertyChange{{Name: "config.hardware.device", Val: vm.Config.Hardware.Device}}
	if p.moveHome {
		from := fmt.Sprintf("[%s] ", p.homeSrc.Name)
		to := fmt.Sprintf("[%s] ", p.homeDst.Name)
		mv := func(s string) string {
			if s == fmt.Sprintf("[%s]", p.homeSrc.Name) {
				return fmt.Sprintf("[%s]", p.homeDst.Name)
			}
			if strings.HasPrefix(s, from+p.homeDir) {
				return to + strings.TrimPrefix(s, from)
			}
			return s
		}
		files := &vm.Config.Files
		files.VmPathName = mv(files.VmPathName)
		files.SnapshotDirectory = mv(files.SnapshotDirectory)
		files.SuspendDirectory = mv(files.SuspendDirectory)
		files.LogDirectory = mv(files.LogDirectory)
		files.FtMetadataDirectory = mv(files.FtMetadataDirectory)
		vm.Summary.Config.VmPathName = files.VmPathName
		moveVMLog(vm, datastoreDir(p.homeSrc), datastoreDir(p.homeDst))
		vmChanges = append(vmChanges,
			types.PropertyChange{Name: "config.files", Val: *files},
			types.PropertyChange{Name: "summary.config.vmPathName", Val: files.VmPathName},
		)
	}

	// Layouts.
	if l := vm.Layout; l != nil {
		l.SwapFile = ren(l.SwapFile)
		for i := range l.Disk {
			for j := range l.Disk[i].DiskFile {
				l.Disk[i].DiskFile[j] = ren(l.Disk[i].DiskFile[j])
			}
		}
		for i := range l.Snapshot {
			for j := range l.Snapshot[i].SnapshotFile {
				l.Snapshot[i].SnapshotFile[j] = ren(l.Snapshot[i].SnapshotFile[j])
			}
		}
		vmChanges = append(vmChanges, types.PropertyChange{Name: "layout", Val: l})
	}
	if l := vm.LayoutEx; l != nil {
		for i := range l.File {
			l.File[i].Name = ren(l.File[i].Name)
		}
		l.Timestamp = time.Now()
		vmChanges = append(vmChanges, types.PropertyChange{Name: "layoutEx", Val: l})
	}

	// vm.datastore, storage usage.
	oldDatastores := append([]types.ManagedObjectReference(nil), vm.Datastore...)
	newDatastores := vmDatastores(ctx, vm)
	refreshStorage(ctx, vm)
	vmChanges = append(vmChanges,
		types.PropertyChange{Name: "datastore", Val: newDatastores},
		types.PropertyChange{Name: "storage", Val: vm.Storage},
		types.PropertyChange{Name: "summary.storage", Val: vm.Summary.Storage},
	)
	ctx.Update(vm, vmChanges)

	// Datastores: free space and VM lists.
	delta := map[types.ManagedObjectReference]int64{}
	for _, d := range p.disks {
		delta[d.src.Self] += d.capacity
		delta[d.dst.Self] -= d.capacity
	}
	if p.moveHome {
		delta[p.homeSrc.Self] += p.swapBytes
		delta[p.homeDst.Self] -= p.swapBytes
	}
	release() // the reservation becomes real free-space accounting below
	touched := map[types.ManagedObjectReference]bool{}
	for _, ref := range oldDatastores {
		touched[ref] = true
	}
	for _, ref := range newDatastores {
		touched[ref] = true
	}
	for ref := range delta {
		touched[ref] = true
	}
	for ref := range touched {
		ds, ok := ctx.Map.Get(ref).(*simulator.Datastore)
		if !ok {
			continue
		}
		ctx.WithLock(ds, func() {
			var changes []types.PropertyChange
			if n := delta[ref]; n != 0 {
				addFreeSpace(ctx, ds, n)
			}
			changes = append(changes, listVmOn(ds, vm, simulator.FindReference(newDatastores, ref) != nil)...)
			if len(changes) != 0 {
				ctx.Update(ds, changes)
			}
		})
		updatePodSummary(ctx, ds)
	}
	return nil
}

// vmDatastores recomputes vm.Datastore from the home, disk and swap file locations.
func vmDatastores(ctx *simulator.Context, vm *simulator.VirtualMachine) []types.ManagedObjectReference {
	var out []types.ManagedObjectReference
	add := func(dsPath string) {
		var p object.DatastorePath
		if !p.FromString(dsPath) {
			return
		}
		if ds := findDatastore(ctx, vm, p.Datastore); ds != nil {
			if simulator.FindReference(out, ds.Self) == nil {
				out = append(out, ds.Self)
			}
		}
	}
	add(vm.Config.Files.VmPathName)
	for _, dev := range object.VirtualDeviceList(vm.Config.Hardware.Device).SelectByType((*types.VirtualDisk)(nil)) {
		if b := backingOf(dev.(*types.VirtualDisk)); b != nil {
			add(b.FileName)
		}
	}
	if i := swapEntry(vm); i >= 0 {
		add(vm.LayoutEx.File[i].Name) // a swap file on the host's swap datastore: vCenter lists it there too
	}
	return out
}

// refreshStorage recomputes vm.storage and vm.summary.storage from layoutEx file sizes.
func refreshStorage(ctx *simulator.Context, vm *simulator.VirtualMachine) {
	usage := map[types.ManagedObjectReference]*types.VirtualMachineUsageOnDatastore{}
	var order []types.ManagedObjectReference
	if vm.LayoutEx != nil {
		for _, f := range vm.LayoutEx.File {
			var p object.DatastorePath
			if !p.FromString(f.Name) {
				continue
			}
			ds := findDatastore(ctx, vm, p.Datastore)
			if ds == nil {
				continue
			}
			ref := ds.Self
			u, ok := usage[ref]
			if !ok {
				u = &types.VirtualMachineUsageOnDatastore{Datastore: ref}
				usage[ref] = u
				order = append(order, ref)
			}
			u.Committed += f.Size
			if path.Ext(f.Name) == ".vmdk" {
				u.Unshared += f.Size
			}
		}
	}
	now := time.Now()
	st := &types.VirtualMachineStorageInfo{Timestamp: now}
	sum := &types.VirtualMachineStorageSummary{Timestamp: now}
	for _, ref := range order {
		u := usage[ref]
		st.PerDatastoreUsage = append(st.PerDatastoreUsage, *u)
		sum.Committed += u.Committed
		sum.Unshared += u.Unshared
	}
	vm.Storage = st
	vm.Summary.Storage = sum
	vm.Datastore = vmDatastores(ctx, vm)
}

// listVmOn puts the VM in datastore.vm or takes it out, as it holds files there or not, and returns the change
// to publish (none when the list stays); the caller holds the datastore's lock.
func listVmOn(ds *simulator.Datastore, vm *simulator.VirtualMachine, uses bool) []types.PropertyChange {
	if uses == (simulator.FindReference(ds.Vm, vm.Self) != nil) {
		return nil
	}
	list := []types.ManagedObjectReference{}
	for _, v := range ds.Vm {
		if v != vm.Self {
			list = append(list, v)
		}
	}
	if uses {
		list = append(list, vm.Self)
	}
	ds.Vm = list
	return []types.PropertyChange{{Name: "vm", Val: list}}
}

// updatePodSummary recomputes a StoragePod's capacity and free space from its datastores.
func updatePodSummary(ctx *simulator.Context, ds *simulator.Datastore) {
	if ds.Parent == nil || ds.Parent.Type != "StoragePod" {
		return
	}
	if pod, ok := ctx.Map.Get(*ds.Parent).(*simulator.StoragePod); ok {
		recomputePodSummary(ctx, pod)
	}
}

func postMigrated(ctx *simulator.Context, vm *simulator.VirtualMachine, p *plan) {
	host := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem)
	hostArg := &types.HostEventArgument{EntityEventArgument: types.EntityEventArgument{Name: host.Name}, Host: host.Self}
	src := p.homeSrc
	if !p.moveHome && len(p.disks) > 0 {
		src = p.disks[0].src
	}
	dst := p.homeDst
	if !p.moveHome && len(p.disks) > 0 {
		dst = p.disks[0].dst
	}
	ev := &types.VmMigratedEvent{
		VmEvent: types.VmEvent{Event: types.Event{
			Host: hostArg,
			Ds:   &types.DatastoreEventArgument{EntityEventArgument: types.EntityEventArgument{Name: dst.Name}, Datastore: dst.Self},
			Vm:   &types.VmEventArgument{EntityEventArgument: types.EntityEventArgument{Name: vm.Name}, Vm: vm.Self},
		}},
		SourceHost:      *hostArg,
		SourceDatastore: &types.DatastoreEventArgument{EntityEventArgument: types.EntityEventArgument{Name: src.Name}, Datastore: src.Self},
	}
	if dc := datacenterOf(ctx, vm.Parent); dc != nil {
		ev.Datacenter = &types.DatacenterEventArgument{EntityEventArgument: types.EntityEventArgument{Name: dc.Name}, Datacenter: dc.Self}
		ev.SourceDatacenter = ev.Datacenter
	}
	m := ctx.Map.EventManager()
	ctx.WithLock(m, func() {
		m.PostEvent(ctx, &types.PostEvent{EventToPost: ev})
	})
}

func datacenterOf(ctx *simulator.Context, ref *types.ManagedObjectReference) *simulator.Datacenter {
	for ref != nil {
		obj := ctx.Map.Get(*ref)
		if dc, ok := obj.(*simulator.Datacenter); ok {
			return dc
		}
		e, ok := obj.(mo.Entity)
		if !ok {
			return nil
		}
		ref = e.Entity().Parent
	}
	return nil
}

// normalizeLayoutEx repairs layoutEx.file entries written by the stock
// simulator's RefreshStorageInfo, which records files of the VM directory
// without the directory ("[ds] vm.vmx" instead of "[ds] vm/vm.vmx"), and drops
// entries for files that do not exist and that nothing refers to.
func normalizeLayoutEx(ctx *simulator.Context, vm *simulator.VirtualMachine) {
	if vm.LayoutEx == nil || vm.Runtime.Host == nil {
		return
	}
	host := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem)
	local := func(p object.DatastorePath) string {
		e := ctx.Map.FindByName(p.Datastore, host.Datastore)
		if e == nil {
			return ""
		}
		return filepath.Join(datastoreDir(e.(*simulator.Datastore)), p.Path)
	}
	var home object.DatastorePath
	home.FromString(vm.Config.Files.VmPathName)
	homeDir := home.Path
	if path.Ext(homeDir) == ".vmx" {
		homeDir = path.Dir(homeDir)
	}
	referenced := map[int32]bool{}
	for _, d := range vm.LayoutEx.Disk {
		for _, u := range d.Chain {
			for _, k := range u.FileKey {
				referenced[k] = true
			}
		}
	}
	for _, s := range vm.LayoutEx.Snapshot {
		referenced[s.DataKey] = true
		referenced[s.MemoryKey] = true
	}
	names := map[string]bool{}
	for _, f := range vm.LayoutEx.File {
		names[f.Name] = true
	}
	var out []types.VirtualMachineFileLayoutExFileInfo
	for _, f := range vm.LayoutEx.File {
		var p object.DatastorePath
		if !p.FromString(f.Name) {
			out = append(out, f)
			continue
		}
		if lp := local(p); lp != "" {
			if _, err := os.Stat(lp); err == nil {
				out = append(out, f)
				continue
			}
		}
		if !strings.Contains(p.Path, "/") && p.Datastore == home.Datastore && homeDir != "" {
			fixed := object.DatastorePath{Datastore: p.Datastore, Path: path.Join(homeDir, p.Path)}
			if lp := local(fixed); lp != "" {
				if fi, err := os.Stat(lp); err == nil {
					if names[fixed.String()] && !referenced[f.Key] {
						continue // the right entry exists already
					}
					if !names[fixed.String()] {
						f.Name = fixed.String()
						f.Size = fi.Size()
						f.UniqueSize = fi.Size()
						names[f.Name] = true
						out = append(out, f)
						continue
					}
				}
			}
		}
		if referenced[f.Key] {
			out = append(out, f)
		}
	}
	vm.LayoutEx.File = out
}

// moveVMLog points the stock VirtualMachine's private vmware.log path (the file
// its logPrintf appends to) at the moved home, so later stock operations such as
// PowerOn do not recreate the log in the old directory.
func moveVMLog(vm *simulator.VirtualMachine, oldRoot, newRoot string) {
	f := reflect.ValueOf(vm).Elem().FieldByName("log")
	if !f.IsValid() || f.Kind() != reflect.String {
		return
	}
	ptr := (*string)(unsafe.Pointer(f.UnsafeAddr()))
	if strings.HasPrefix(*ptr, oldRoot+string(filepath.Separator)) {
		*ptr = newRoot + strings.TrimPrefix(*ptr, oldRoot)
	}
}

// findDatastore resolves a datastore name for a VM: among its host's datastores,
// else among the datastores of its datacenter (the VM may be moving to a host
// that mounts a datastore its current host does not).
func findDatastore(ctx *simulator.Context, vm *simulator.VirtualMachine, name string) *simulator.Datastore {
	if vm.Runtime.Host != nil {
		if host, ok := ctx.Map.Get(*vm.Runtime.Host).(*simulator.HostSystem); ok {
			if e := ctx.Map.FindByName(name, host.Datastore); e != nil {
				return e.(*simulator.Datastore)
			}
		}
	}
	dc := datacenterOf(ctx, vm.Parent)
	for _, e := range ctx.Map.All("Datastore") {
		ds, ok := e.(*simulator.Datastore)
		if ok && ds.Name == name && (dc == nil || datacenterOf(ctx, ds.Parent) == dc) {
			return ds
		}
	}
	return nil
}
