package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vmware/govmomi"
	"github.com/vmware/govmomi/find"
	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/property"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/task"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

const gb = int64(1 << 30)

// world is the inventory used by most tests: vm1 has two disks on ds1.
var world = Inventory{
	Datacenter: "DC0",
	StoragePods: []PodSpec{{Name: "POD0", Datastores: []DatastoreSpec{
		{Name: "ds1", CapacityGB: 100},
		{Name: "ds2", CapacityGB: 50},
	}}},
	Datastores: []DatastoreSpec{{Name: "small", CapacityGB: 1}},
	Hosts: []HostSpec{
		{Name: "h1", Cluster: "C0", Datastores: []string{"ds1", "ds2", "small"}},
		{Name: "h2", Cluster: "C0", Datastores: []string{"ds1", "ds2"}},
	},
	VMs: []VMSpec{
		{Name: "vm1", Host: "h1", Disks: []DiskSpec{
			{Name: "disk1", SizeGB: 2, Datastore: "ds1"},
			{Name: "disk2", SizeGB: 3, Datastore: "ds1"},
		}},
		{Name: "vm2", Host: "h2", Datastore: "ds2", Disks: []DiskSpec{
			{Name: "disk1", SizeGB: 1, Datastore: "ds2"},
		}},
	},
}

// simulator.Map is process global: one simulator at a time.
var simMu sync.Mutex

type env struct {
	t   *testing.T
	s   *Server
	c   *govmomi.Client
	ctx context.Context
	f   *find.Finder
}

func start(t *testing.T, inv Inventory, o Options) *env {
	t.Helper()
	simMu.Lock()
	data, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "inventory.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	o.Inventory = file
	o.DsRoot = t.TempDir()
	o.TLS = true
	o.WatchEvery = 50 * time.Millisecond
	s, err := Start(simulator.VPX(), o)
	if err != nil {
		simMu.Unlock()
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := govmomi.NewClient(ctx, s.URL, true)
	if err != nil {
		s.Close()
		simMu.Unlock()
		t.Fatal(err)
	}
	e := &env{t: t, s: s, c: c, ctx: ctx, f: find.NewFinder(c.Client, true)}
	dc, err := e.f.Datacenter(ctx, inv.Datacenter)
	if err != nil {
		t.Fatal(err)
	}
	e.f.SetDatacenter(dc)
	t.Cleanup(func() {
		_ = c.Logout(ctx)
		s.Close()
		simMu.Unlock()
	})
	return e
}

type diskState struct {
	Key      int32
	File     string
	DS       types.ManagedObjectReference
	Capacity int64
}

type vmState struct {
	Disks      []diskState
	Datastores []types.ManagedObjectReference
	VmPath     string
	Layout     []string
}

func (e *env) vm(name string) *object.VirtualMachine {
	vm, err := e.f.VirtualMachine(e.ctx, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return vm
}

func (e *env) ds(name string) *object.Datastore {
	ds, err := e.f.Datastore(e.ctx, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return ds
}

func (e *env) vmState(vm *object.VirtualMachine) vmState {
	var m mo.VirtualMachine
	if err := vm.Properties(e.ctx, vm.Reference(), []string{"config", "datastore", "layoutEx"}, &m); err != nil {
		e.t.Fatal(err)
	}
	var s vmState
	for _, d := range object.VirtualDeviceList(m.Config.Hardware.Device).SelectByType((*types.VirtualDisk)(nil)) {
		disk := d.(*types.VirtualDisk)
		b := disk.Backing.(*types.VirtualDiskFlatVer2BackingInfo)
		s.Disks = append(s.Disks, diskState{Key: disk.Key, File: b.FileName, DS: *b.Datastore, Capacity: disk.CapacityInBytes})
	}
	s.Datastores = m.Datastore
	s.VmPath = m.Config.Files.VmPathName
	for _, f := range m.LayoutEx.File {
		s.Layout = append(s.Layout, f.Name)
	}
	return s
}

// homeBytes adds up the sizes layoutEx gives the VM's files that are not disk data.
func (e *env) homeBytes(vm *object.VirtualMachine) int64 {
	var m mo.VirtualMachine
	if err := vm.Properties(e.ctx, vm.Reference(), []string{"layoutEx"}, &m); err != nil {
		e.t.Fatal(err)
	}
	var n int64
	for _, f := range m.LayoutEx.File {
		if !isDiskData(f.Type) {
			n += f.Size
		}
	}
	return n
}

type dsState struct {
	Free, Capacity int64
	Dir            string
	Accessible     bool
	Vms            []types.ManagedObjectReference
}

func (e *env) dsState(name string) dsState {
	var m mo.Datastore
	ds := e.ds(name)
	if err := ds.Properties(e.ctx, ds.Reference(), []string{"summary", "vm"}, &m); err != nil {
		e.t.Fatal(err)
	}
	return dsState{Free: m.Summary.FreeSpace, Capacity: m.Summary.Capacity, Dir: m.Summary.Url, Accessible: m.Summary.Accessible, Vms: m.Vm}
}

// files lists the regular files under a datastore directory, relative to it.
func files(t *testing.T, dir string) []string {
	var out []string
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func refs(list []types.ManagedObjectReference) string {
	var s []string
	for _, r := range list {
		s = append(s, r.Value)
	}
	return strings.Join(s, ",")
}

// relocate runs RelocateVM_Task and returns the final task info, recording progress values.
func (e *env) relocate(vm *object.VirtualMachine, spec types.VirtualMachineRelocateSpec) (*types.TaskInfo, []int32, error) {
	t, err := vm.Relocate(e.ctx, spec, types.VirtualMachineMovePriorityDefaultPriority)
	if err != nil {
		return nil, nil, err
	}
	var progress []int32
	var info *types.TaskInfo
	pc := property.DefaultCollector(e.c.Client)
	err = property.Wait(e.ctx, pc, t.Reference(), []string{"info"}, func(pcs []types.PropertyChange) bool {
		for _, c := range pcs {
			if ti, ok := c.Val.(types.TaskInfo); ok {
				info = &ti
				progress = append(progress, ti.Progress)
				if ti.State == types.TaskInfoStateSuccess || ti.State == types.TaskInfoStateError {
					return true
				}
			}
		}
		return false
	})
	if err != nil {
		return nil, nil, err
	}
	if info.Error != nil {
		return info, progress, task.Error{LocalizedMethodFault: info.Error}
	}
	return info, progress, nil
}

func diskOn(st vmState, name string) diskState {
	for _, d := range st.Disks {
		if strings.HasSuffix(d.File, "/"+name+".vmdk") {
			return d
		}
	}
	return diskState{}
}

func TestRelocateOneDiskWithLocator(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000})
	vm := e.vm("vm1")
	before := e.vmState(vm)
	ds1, ds2 := e.dsState("ds1"), e.dsState("ds2")
	d1, d2 := diskOn(before, "disk1"), diskOn(before, "disk2")
	if d1.File != "[ds1] vm1/disk1.vmdk" || d2.File != "[ds1] vm1/disk2.vmdk" {
		t.Fatalf("unexpected initial disks: %+v", before.Disks)
	}
	if !has(files(t, ds1.Dir), "vm1/disk1-flat.vmdk") {
		t.Fatalf("no backing file: %v", files(t, ds1.Dir))
	}
	if fi, err := os.Stat(filepath.Join(ds1.Dir, "vm1/disk1-flat.vmdk")); err != nil || fi.Size() != 2*gb {
		t.Fatalf("backing file size: %v %v", fi, err)
	}

	ds2ref := e.ds("ds2").Reference()
	ds1ref := e.ds("ds1").Reference()
	_, progress, err := e.relocate(vm, types.VirtualMachineRelocateSpec{
		Datastore: &ds1ref,
		Disk:      []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: d1.Key, Datastore: ds2ref}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if progress[len(progress)-1] != 100 {
		t.Errorf("final progress %v", progress)
	}

	after := e.vmState(vm)
	a1, a2 := diskOn(after, "disk1"), diskOn(after, "disk2")
	if a1.File != "[ds2] vm1/disk1.vmdk" || a1.DS != ds2ref {
		t.Errorf("disk1 after: %+v", a1)
	}
	if a2 != d2 {
		t.Errorf("disk2 changed: %+v -> %+v", d2, a2)
	}
	if after.VmPath != before.VmPath {
		t.Errorf("home moved: %s", after.VmPath)
	}
	if refs(after.Datastores) != ds1ref.Value+","+ds2ref.Value {
		t.Errorf("vm.datastore = %s", refs(after.Datastores))
	}
	if !has(after.Layout, "[ds2] vm1/disk1-flat.vmdk") || has(after.Layout, "[ds1] vm1/disk1-flat.vmdk") {
		t.Errorf("layoutEx: %v", after.Layout)
	}
	n1, n2 := e.dsState("ds1"), e.dsState("ds2")
	if n1.Free-ds1.Free != 2*gb || ds2.Free-n2.Free != 2*gb {
		t.Errorf("free space: ds1 %d -> %d, ds2 %d -> %d", ds1.Free, n1.Free, ds2.Free, n2.Free)
	}
	f1, f2 := files(t, n1.Dir), files(t, n2.Dir)
	if has(f1, "vm1/disk1-flat.vmdk") || has(f1, "vm1/disk1.vmdk") || !has(f1, "vm1/disk2-flat.vmdk") || !has(f1, "vm1/vm1.vmx") {
		t.Errorf("ds1 files: %v", f1)
	}
	if !has(f2, "vm1/disk1-flat.vmdk") || !has(f2, "vm1/disk1.vmdk") || has(f2, "vm1/vm1.vmx") {
		t.Errorf("ds2 files: %v", f2)
	}
	if fi, err := os.Stat(filepath.Join(n2.Dir, "vm1/disk1-flat.vmdk")); err != nil || fi.Size() != 2*gb {
		t.Errorf("moved backing file: %v %v", fi, err)
	}
	if !hasRef(n2.Vms, vm.Reference()) || !hasRef(n1.Vms, vm.Reference()) {
		t.Errorf("datastore.vm: ds1 %s ds2 %s", refs(n1.Vms), refs(n2.Vms))
	}
	var pod mo.StoragePod
	p, _ := e.f.DatastoreCluster(e.ctx, "POD0")
	_ = p.Properties(e.ctx, p.Reference(), []string{"summary"}, &pod)
	if pod.Summary.FreeSpace != n1.Free+n2.Free || pod.Summary.Capacity != 150*gb {
		t.Errorf("pod summary %+v", pod.Summary)
	}

	// Relocating to where it already is: a no-op success.
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{
		Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: d1.Key, Datastore: ds2ref}},
	}); err != nil {
		t.Fatal(err)
	}
	if again := e.vmState(vm); diskOn(again, "disk1") != a1 || e.dsState("ds2").Free != n2.Free {
		t.Errorf("no-op relocation changed state")
	}
}

func hasRef(list []types.ManagedObjectReference, r types.ManagedObjectReference) bool {
	return simulator.FindReference(list, r) != nil
}

func TestRelocateWholeVM(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000})
	vm := e.vm("vm1")
	ds1, ds2 := e.dsState("ds1"), e.dsState("ds2")
	ds2ref := e.ds("ds2").Reference()
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &ds2ref}); err != nil {
		t.Fatal(err)
	}
	after := e.vmState(vm)
	if after.VmPath != "[ds2] vm1/vm1.vmx" {
		t.Errorf("vmPathName %s", after.VmPath)
	}
	for _, d := range after.Disks {
		if !strings.HasPrefix(d.File, "[ds2] vm1/") || d.DS != ds2ref {
			t.Errorf("disk %+v", d)
		}
	}
	if refs(after.Datastores) != ds2ref.Value {
		t.Errorf("vm.datastore = %s", refs(after.Datastores))
	}
	for _, l := range after.Layout {
		if !strings.HasPrefix(l, "[ds2] vm1/") {
			t.Errorf("layoutEx file %s", l)
		}
	}
	n1, n2 := e.dsState("ds1"), e.dsState("ds2")
	if n1.Free-ds1.Free != 5*gb || ds2.Free-n2.Free != 5*gb {
		t.Errorf("free space: ds1 %d -> %d, ds2 %d -> %d", ds1.Free, n1.Free, ds2.Free, n2.Free)
	}
	if f := files(t, n1.Dir); len(f) != 0 {
		t.Errorf("ds1 still has files %v", f)
	}
	for _, want := range []string{"vm1/vm1.vmx", "vm1/vm1.nvram", "vm1/vmware.log", "vm1/disk1.vmdk", "vm1/disk1-flat.vmdk", "vm1/disk2.vmdk", "vm1/disk2-flat.vmdk"} {
		if !has(files(t, n2.Dir), want) {
			t.Errorf("ds2 lacks %s: %v", want, files(t, n2.Dir))
		}
	}
	if hasRef(n1.Vms, vm.Reference()) || !hasRef(n2.Vms, vm.Reference()) {
		t.Errorf("datastore.vm: ds1 %s ds2 %s", refs(n1.Vms), refs(n2.Vms))
	}
	// The VM still works with stock methods afterwards.
	if _, err := vm.PowerOn(e.ctx); err != nil {
		t.Fatal(err)
	}
}

// snapshot of everything a failed relocation must leave alone.
type everything struct {
	VM          vmState
	DS1, DS2, S dsState
	F1, F2, FS  []string
}

func (e *env) everything() everything {
	x := everything{VM: e.vmState(e.vm("vm1")), DS1: e.dsState("ds1"), DS2: e.dsState("ds2"), S: e.dsState("small")}
	x.F1, x.F2, x.FS = files(e.t, x.DS1.Dir), files(e.t, x.DS2.Dir), files(e.t, x.S.Dir)
	return x
}

func same(a, b everything) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestInsufficientSpace(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000})
	vm := e.vm("vm1")
	before := e.everything()
	small := e.ds("small").Reference()
	d2 := diskOn(before.VM, "disk2") // 3 GB; "small" has 1 GB
	_, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{
		Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: d2.Key, Datastore: small}},
	})
	var te task.Error
	if !errors.As(err, &te) {
		t.Fatalf("expected a task fault, got %v", err)
	}
	f, ok := te.Fault().(*types.NoDiskSpace)
	if !ok || f.Datastore != "small" {
		t.Fatalf("fault %T %+v", te.Fault(), te.Fault())
	}
	if !strings.Contains(te.LocalizedMessage, "Insufficient disk space on datastore 'small'") {
		t.Errorf("message %q", te.LocalizedMessage)
	}
	if after := e.everything(); !same(before, after) {
		t.Errorf("state changed:\n%+v\n%+v", before, after)
	}
}

func TestInaccessibleDatastore(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000})
	vm := e.vm("vm1")
	d1 := diskOn(e.vmState(vm), "disk1")
	ds2 := e.ds("ds2").Reference()
	spec := types.VirtualMachineRelocateSpec{Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: d1.Key, Datastore: ds2}}}

	check := func(why string) {
		before := e.everything()
		_, _, err := e.relocate(vm, spec)
		var te task.Error
		if !errors.As(err, &te) {
			t.Fatalf("%s: expected a task fault, got %v", why, err)
		}
		f, ok := te.Fault().(*types.InaccessibleDatastore)
		if !ok || f.Name != "ds2" || f.Datastore == nil || *f.Datastore != ds2 {
			t.Fatalf("%s: fault %T %+v", why, te.Fault(), te.Fault())
		}
		if after := e.everything(); !same(before, after) {
			t.Errorf("%s: state changed:\n%+v\n%+v", why, before, after)
		}
	}

	// 1. Marked inaccessible through the admin endpoint.
	admin(t, e.s.URL, "ds2", false)
	waitAccessible(t, e, "ds2", false)
	check("admin")
	admin(t, e.s.URL, "ds2", true)
	waitAccessible(t, e, "ds2", true)

	// 2. Its directory vanished (moved away, so it can come back).
	dir := e.dsState("ds2").Dir
	if err := os.Rename(dir, dir+".gone"); err != nil {
		t.Fatal(err)
	}
	waitAccessible(t, e, "ds2", false)
	check("vanished")
	if err := os.Rename(dir+".gone", dir); err != nil {
		t.Fatal(err)
	}
	waitAccessible(t, e, "ds2", true)
	if _, _, err := e.relocate(vm, spec); err != nil {
		t.Fatalf("after the datastore came back: %v", err)
	}
}

// The directory vanishing during the copy: the task fails at commit, nothing changes.
func TestDatastoreVanishesDuringCopy(t *testing.T) {
	e := start(t, world, Options{RateMBps: 4096}) // 2 GB: ~0.5 s
	vm := e.vm("vm1")
	d1 := diskOn(e.vmState(vm), "disk1")
	ds2 := e.ds("ds2").Reference()
	dir := e.dsState("ds2").Dir
	before := e.everything()
	t.Cleanup(func() { _ = os.Rename(dir+".gone", dir) })
	go func() {
		time.Sleep(150 * time.Millisecond)
		_ = os.Rename(dir, dir+".gone")
	}()
	_, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: d1.Key, Datastore: ds2}}})
	var te task.Error
	if !errors.As(err, &te) {
		t.Fatalf("expected a task fault, got %v", err)
	}
	if _, ok := te.Fault().(*types.InaccessibleDatastore); !ok {
		t.Fatalf("fault %T", te.Fault())
	}
	if err := os.Rename(dir+".gone", dir); err != nil {
		t.Fatal(err)
	}
	waitAccessible(t, e, "ds2", true)
	if after := e.everything(); !same(before, after) {
		t.Errorf("state changed:\n%+v\n%+v", before, after)
	}
}

func TestProgressOverTime(t *testing.T) {
	e := start(t, world, Options{RateMBps: 10240}) // 5 GB at 10 GiB/s: ~0.5 s
	vm := e.vm("vm1")
	ds2 := e.ds("ds2").Reference()
	begin := time.Now()
	info, progress, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &ds2})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(begin)
	if took < 450*time.Millisecond || took > 5*time.Second {
		t.Errorf("took %s, expected about 0.5 s", took)
	}
	mid := 0
	for _, p := range progress {
		if p > 0 && p < 100 {
			mid++
		}
	}
	if mid < 3 || progress[len(progress)-1] != 100 || info.State != types.TaskInfoStateSuccess {
		t.Errorf("progress %v state %s", progress, info.State)
	}
}

func TestConcurrentRelocationsShareFreeSpace(t *testing.T) {
	inv := world
	inv.Datastores = []DatastoreSpec{{Name: "small", CapacityGB: 4}}
	e := start(t, inv, Options{RateMBps: 10240})
	small := e.ds("small").Reference()
	vm1, vm2 := e.vm("vm1"), e.vm("vm2")
	// h2 does not mount "small": vm2 must fail with DatastoreNotWritableOnHost.
	_, _, err := e.relocate(vm2, types.VirtualMachineRelocateSpec{Datastore: &small})
	var te task.Error
	if !errors.As(err, &te) {
		t.Fatalf("expected fault, got %v", err)
	}
	if _, ok := te.Fault().(*types.DatastoreNotWritableOnHost); !ok {
		t.Fatalf("fault %T", te.Fault())
	}
	// vm1's two disks (2 + 3 GB) cannot both go to a 4 GB datastore, even concurrently.
	st := e.vmState(vm1)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, name := range []string{"disk1", "disk2"} {
		wg.Add(1)
		go func(i int, key int32) {
			defer wg.Done()
			_, _, errs[i] = e.relocate(vm1, types.VirtualMachineRelocateSpec{Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: key, Datastore: small}}})
		}(i, diskOn(st, name).Key)
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		}
	}
	if ok != 1 {
		t.Errorf("expected exactly one success: %v", errs)
	}
	if free := e.dsState("small").Free; free != 2*gb && free != 1*gb {
		t.Errorf("small free %d", free)
	}
}

// -stock keeps the simulator's own RelocateVM_Task: only vm.datastore changes.
func TestStockMode(t *testing.T) {
	e := start(t, world, Options{Stock: true})
	vm := e.vm("vm1")
	before := e.vmState(vm)
	ds1 := e.dsState("ds1")
	ds2ref := e.ds("ds2").Reference()
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &ds2ref}); err != nil {
		t.Fatal(err)
	}
	after := e.vmState(vm)
	if refs(after.Datastores) != ds2ref.Value {
		t.Errorf("stock sets vm.datastore: %s", refs(after.Datastores))
	}
	if diskOn(after, "disk1").File != diskOn(before, "disk1").File || after.VmPath != before.VmPath {
		t.Errorf("stock changed files: %+v", after)
	}
	if n1 := e.dsState("ds1"); n1.Free != ds1.Free || !has(files(t, n1.Dir), "vm1/disk1-flat.vmdk") {
		t.Errorf("stock moved something")
	}
}

func admin(t *testing.T, u *url.URL, name string, accessible bool) {
	t.Helper()
	a := *u
	a.User = nil
	a.Path = "/opensdrs/datastore"
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: insecureTLS()}}
	res, err := c.PostForm(a.String(), url.Values{"name": {name}, "accessible": {map[bool]string{true: "true", false: "false"}[accessible]}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("admin: %s", res.Status)
	}
}

func waitAccessible(t *testing.T, e *env, name string, want bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if e.dsState(name).Accessible == want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s accessible never became %v", name, want)
}

// Host and pool changes stay stock; the storage part is ours.
func TestRelocateWithHost(t *testing.T) {
	e := start(t, world, Options{RateMBps: 0})
	vm := e.vm("vm1")
	h2, err := e.f.HostSystem(e.ctx, "h2")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := h2.ResourcePool(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	href, pref, ds2 := h2.Reference(), pool.Reference(), e.ds("ds2").Reference()
	// "small" is not mounted on h2.
	small := e.ds("small").Reference()
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Host: &href, Pool: &pref, Datastore: &small}); err == nil {
		t.Fatal("expected DatastoreNotWritableOnHost")
	}
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Host: &href, Pool: &pref, Datastore: &ds2}); err != nil {
		t.Fatal(err)
	}
	var m mo.VirtualMachine
	if err := vm.Properties(e.ctx, vm.Reference(), []string{"runtime.host", "datastore"}, &m); err != nil {
		t.Fatal(err)
	}
	if *m.Runtime.Host != href || refs(m.Datastore) != ds2.Value {
		t.Errorf("host %v datastore %s", m.Runtime.Host, refs(m.Datastore))
	}
	if st := e.vmState(vm); st.VmPath != "[ds2] vm1/vm1.vmx" {
		t.Errorf("vmPathName %s", st.VmPath)
	}
}
