package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/task"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// swapWorld: "running" is powered on by the inventory (2 GiB of memory, 512 MiB reserved) with its home on
// ds1; "idle" is off, its home and disk on ds2; "cramped" is off, home and disk on the 1-GB "small".
var swapWorld = Inventory{
	Datacenter: "DC0",
	StoragePods: []PodSpec{{Name: "POD0", Datastores: []DatastoreSpec{
		{Name: "ds1", CapacityGB: 100},
		{Name: "ds2", CapacityGB: 50},
	}}},
	Datastores: []DatastoreSpec{{Name: "small", CapacityGB: 1}},
	Hosts:      []HostSpec{{Name: "h1", Cluster: "C0", Datastores: []string{"ds1", "ds2", "small"}}},
	VMs: []VMSpec{
		{Name: "running", Host: "h1", PowerOn: true, MemoryMB: 2048, MemoryReservationMB: 512,
			Disks: []DiskSpec{{Name: "disk1", SizeGB: 2, Datastore: "ds1"}}},
		{Name: "idle", Host: "h1", MemoryMB: 4096, Disks: []DiskSpec{{Name: "disk1", SizeGB: 1, Datastore: "ds2"}}},
		{Name: "cramped", Host: "h1", MemoryMB: 2048, Disks: []DiskSpec{{Name: "disk1", SizeGB: 0.5, Datastore: "small"}}},
	},
}

// swapOf is the VM's swap file as layoutEx and layout list it: its datastore path and size ("" when none).
func (e *env) swapOf(vm *object.VirtualMachine) (name string, size int64, layoutSwap string) {
	var m mo.VirtualMachine
	if err := vm.Properties(e.ctx, vm.Reference(), []string{"layoutEx", "layout"}, &m); err != nil {
		e.t.Fatal(err)
	}
	for _, f := range m.LayoutEx.File {
		if f.Type == string(types.VirtualMachineFileLayoutExFileTypeSwap) {
			name, size = f.Name, f.Size
		}
	}
	if m.Layout != nil {
		layoutSwap = m.Layout.SwapFile
	}
	return name, size, layoutSwap
}

// powerOn runs PowerOnVM_Task to its end: its fault, if any, as a task.Error.
func (e *env) powerOn(vm *object.VirtualMachine) error {
	on, err := vm.PowerOn(e.ctx)
	if err == nil {
		err = on.Wait(e.ctx)
	}
	return err
}

// localFile is where a "[ds] path" file lies on this machine.
func (e *env) localFile(dsPath string) string {
	var p object.DatastorePath
	if !p.FromString(dsPath) {
		e.t.Fatalf("not a datastore path: %q", dsPath)
	}
	return filepath.Join(e.dsState(p.Datastore).Dir, p.Path)
}

func TestPowerOnMakesTheSwapFileAndPowerOffRemovesIt(t *testing.T) {
	e := start(t, swapWorld, Options{RateMBps: 20000})
	vm := e.vm("idle")
	if name, _, _ := e.swapOf(vm); name != "" {
		t.Fatalf("a powered-off VM has swap file %s", name)
	}
	before := e.dsState("ds2")
	if err := e.powerOn(vm); err != nil {
		t.Fatal(err)
	}
	name, size, layoutSwap := e.swapOf(vm)
	if !strings.HasPrefix(name, "[ds2] idle/idle-") || !strings.HasSuffix(name, ".vswp") || layoutSwap != name {
		t.Fatalf("swap file %q (layout %q)", name, layoutSwap)
	}
	if size != 4096*mib {
		t.Errorf("swap size %d, want the VM's 4096 MiB", size)
	}
	if fi, err := os.Stat(e.localFile(name)); err != nil || fi.Size() != 4096*mib {
		t.Errorf("swap file on disk: %v %v", fi, err)
	}
	if on := e.dsState("ds2"); before.Free-on.Free != 4096*mib {
		t.Errorf("ds2 free %d -> %d, want 4 GiB less", before.Free, on.Free)
	}
	if e.homeBytes(vm) < 4096*mib {
		t.Errorf("home %d bytes", e.homeBytes(vm))
	}

	off, err := vm.PowerOff(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := off.Wait(e.ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if n, _, _ := e.swapOf(vm); n == "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n, _, l := e.swapOf(vm); n != "" || l != "" {
		t.Fatalf("after power-off: swap %q, layout %q", n, l)
	}
	if _, err := os.Stat(e.localFile(name)); !os.IsNotExist(err) {
		t.Errorf("swap file still on disk: %v", err)
	}
	if off := e.dsState("ds2"); off.Free != before.Free {
		t.Errorf("ds2 free %d after power-off, %d before power-on", off.Free, before.Free)
	}
}

func TestPowerOnFailsWhenTheHomeHasNoRoomForTheSwapFile(t *testing.T) {
	e := start(t, swapWorld, Options{RateMBps: 20000})
	vm := e.vm("cramped")
	before := e.dsState("small")
	err := e.powerOn(vm)
	var te task.Error
	if !errors.As(err, &te) {
		t.Fatalf("expected a task fault, got %v", err)
	}
	if f, ok := te.Fault().(*types.NoDiskSpace); !ok || f.Datastore != "small" || !strings.HasSuffix(f.File, ".vswp") {
		t.Fatalf("fault %T %+v", te.Fault(), te.Fault())
	}
	var m mo.VirtualMachine
	if err := vm.Properties(e.ctx, vm.Reference(), []string{"runtime"}, &m); err != nil {
		t.Fatal(err)
	}
	if m.Runtime.PowerState != types.VirtualMachinePowerStatePoweredOff {
		t.Errorf("power state %s", m.Runtime.PowerState)
	}
	after := e.dsState("small")
	if after.Free != before.Free || !same(everything{S: before, FS: files(t, before.Dir)}, everything{S: after, FS: files(t, after.Dir)}) {
		t.Errorf("small changed: %+v -> %+v", before, after)
	}
}

func TestTheSwapFileMovesWithTheHome(t *testing.T) {
	e := start(t, swapWorld, Options{RateMBps: 20000})
	vm := e.vm("running")
	name, size, _ := e.swapOf(vm)
	if !strings.HasPrefix(name, "[ds1] running/running-") || size != 1536*mib {
		t.Fatalf("the inventory's running VM: swap %q of %d bytes, want 2048 - 512 MiB on ds1", name, size)
	}
	ds1, ds2 := e.dsState("ds1"), e.dsState("ds2")
	if ds1.Free != 100*gb-2*gb-1536*mib {
		t.Errorf("ds1 free %d: its disk and the swap file not taken from 100 GB", ds1.Free)
	}

	// The home alone onto a datastore without room for the swap file: nothing moves.
	small := e.ds("small").Reference()
	snapshot := func() everything {
		x := everything{VM: e.vmState(vm), DS1: e.dsState("ds1"), DS2: e.dsState("ds2"), S: e.dsState("small")}
		x.F1, x.F2, x.FS = files(t, x.DS1.Dir), files(t, x.DS2.Dir), files(t, x.S.Dir)
		return x
	}
	beforeFail := snapshot()
	_, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &small,
		Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: diskOn(e.vmState(vm), "disk1").Key, Datastore: e.ds("ds1").Reference()}}})
	var te task.Error
	if !errors.As(err, &te) {
		t.Fatalf("expected a task fault, got %v", err)
	}
	if f, ok := te.Fault().(*types.NoDiskSpace); !ok || f.Datastore != "small" || f.File != "[small] running" {
		t.Fatalf("fault %T %+v", te.Fault(), te.Fault())
	}
	if !same(beforeFail, snapshot()) {
		t.Errorf("a refused relocation changed something")
	}

	// The whole VM onto ds2: the swap file goes along, and its room with it.
	ds2ref := e.ds("ds2").Reference()
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &ds2ref}); err != nil {
		t.Fatal(err)
	}
	moved, movedSize, layoutSwap := e.swapOf(vm)
	if moved != "[ds2] "+strings.TrimPrefix(name, "[ds1] ") || movedSize != size || layoutSwap != moved {
		t.Errorf("swap after the move %q (%d bytes, layout %q)", moved, movedSize, layoutSwap)
	}
	if fi, err := os.Stat(e.localFile(moved)); err != nil || fi.Size() != size {
		t.Errorf("swap file on ds2: %v %v", fi, err)
	}
	n1, n2 := e.dsState("ds1"), e.dsState("ds2")
	if n1.Free-ds1.Free != 2*gb+size || ds2.Free-n2.Free != 2*gb+size {
		t.Errorf("free space: ds1 %d -> %d, ds2 %d -> %d", ds1.Free, n1.Free, ds2.Free, n2.Free)
	}
	if n1.Free != 100*gb {
		t.Errorf("ds1 empty with %d of 100 GiB free", n1.Free)
	}
}

func TestInventoryRefusesMemoryThatCannotBe(t *testing.T) {
	for _, c := range []struct {
		mem, res int64
		want     string
	}{
		{-1, 0, `vm "idle": memoryMB must be between 0 and`},
		{1024, 2048, `vm "idle": memoryReservationMB must be between 0 and memoryMB (1024)`},
		{1024, -1, `vm "idle": memoryReservationMB must be between 0 and memoryMB (1024)`},
	} {
		inv := swapWorld
		inv.VMs = append([]VMSpec(nil), swapWorld.VMs...)
		inv.VMs[1].MemoryMB, inv.VMs[1].MemoryReservationMB = c.mem, c.res
		if err := inv.validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("memoryMB %d, reservation %d: %v", c.mem, c.res, err)
		}
	}
	if err := swapWorld.validate(); err != nil {
		t.Errorf("the swap world: %v", err)
	}
}

// While its files are copied, a VM cannot be powered on (vCenter runs one operation on a VM at a
// time), and the swap file of one powered off meanwhile moves with the home before it goes.
func TestPowerChangesDuringARelocation(t *testing.T) {
	e := start(t, swapWorld, Options{RateMBps: 2048}) // idle's 1 GiB disk: half a second
	idle := e.vm("idle")
	ds1 := e.ds("ds1").Reference()
	done := make(chan error, 1)
	go func() {
		_, _, err := e.relocate(idle, types.VirtualMachineRelocateSpec{Datastore: &ds1})
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !e.s.reloc.relocating(simulatorVM(e, idle)) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	err := e.powerOn(idle)
	// Errorf, not Fatalf, until the relocation has ended: the simulator's Close waits for its client's calls.
	var te task.Error
	if !errors.As(err, &te) {
		t.Errorf("power-on during the copy: %v", err)
	} else if _, ok := te.Fault().(*types.TaskInProgress); !ok {
		t.Errorf("fault %T", te.Fault())
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if name, _, _ := e.swapOf(idle); name != "" {
		t.Errorf("a VM whose power-on was refused has swap file %s", name)
	}

	running := e.vm("running")
	ds2 := e.ds("ds2").Reference()
	before1, before2 := e.dsState("ds1"), e.dsState("ds2")
	go func() {
		_, _, err := e.relocate(running, types.VirtualMachineRelocateSpec{Datastore: &ds2})
		done <- err
	}()
	for !e.s.reloc.relocating(simulatorVM(e, running)) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	off, err := running.PowerOff(e.ctx)
	if err == nil {
		err = off.Wait(e.ctx)
	}
	if err != nil {
		t.Error(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for time.Now().Before(deadline.Add(5 * time.Second)) {
		if n, _, _ := e.swapOf(running); n == "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n, _, _ := e.swapOf(running); n != "" {
		t.Fatalf("swap %s left after power-off", n)
	}
	a1, a2 := e.dsState("ds1"), e.dsState("ds2")
	if a1.Free-before1.Free != 2*gb+1536*mib || before2.Free-a2.Free != 2*gb {
		t.Errorf("free space: ds1 %d -> %d, ds2 %d -> %d: the disk and the swap file counted once each", before1.Free, a1.Free, before2.Free, a2.Free)
	}
	for _, f := range append(files(t, a1.Dir), files(t, a2.Dir)...) {
		if strings.HasSuffix(f, ".vswp") {
			t.Errorf("swap file %s left on disk", f)
		}
	}
}

func simulatorVM(e *env, vm *object.VirtualMachine) *simulator.VirtualMachine {
	return simulator.Map.Get(vm.Reference()).(*simulator.VirtualMachine)
}

// hostLocalWorld: cluster C0 keeps swap files host-local, and h1's swap datastore is local1 (10 GB, in no
// pod). "running" (1.5 GiB of swap) inherits that; "own" keeps its swap in its home whatever the cluster
// says; "large" (12 GiB of swap) does not fit on local1; "spare" (512 MiB) inherits host-local too;
// "reserved" has all its memory reserved, so no swap file.
var hostLocalWorld = Inventory{
	Datacenter: "DC0",
	StoragePods: []PodSpec{{Name: "POD0", Datastores: []DatastoreSpec{
		{Name: "ds1", CapacityGB: 100},
		{Name: "ds2", CapacityGB: 50},
	}}},
	Datastores: []DatastoreSpec{{Name: "small", CapacityGB: 1}, {Name: "local1", CapacityGB: 10}},
	Hosts: []HostSpec{{Name: "h1", Cluster: "C0", Datastores: []string{"ds1", "ds2", "small", "local1"},
		LocalSwapDatastore: "local1"}},
	Clusters: []ClusterSpec{{Name: "C0", VmSwapPlacement: "hostLocal"}},
	VMs: []VMSpec{
		{Name: "running", Host: "h1", PowerOn: true, MemoryMB: 2048, MemoryReservationMB: 512,
			Disks: []DiskSpec{{Name: "disk1", SizeGB: 2, Datastore: "ds1"}}},
		{Name: "own", Host: "h1", MemoryMB: 1024, SwapPlacement: "vmDirectory",
			Disks: []DiskSpec{{Name: "disk1", SizeGB: 1, Datastore: "ds2"}}},
		{Name: "large", Host: "h1", MemoryMB: 12288, Disks: []DiskSpec{{Name: "disk1", SizeGB: 1, Datastore: "ds2"}}},
		{Name: "spare", Host: "h1", MemoryMB: 512, Disks: []DiskSpec{{Name: "disk1", SizeGB: 1, Datastore: "ds2"}}},
		{Name: "reserved", Host: "h1", MemoryMB: 256, MemoryReservationMB: 256,
			Disks: []DiskSpec{{Name: "disk1", SizeGB: 1, Datastore: "ds2"}}},
	},
}

func TestAHostLocalSwapFileStaysOnTheHostsSwapDatastore(t *testing.T) {
	e := start(t, hostLocalWorld, Options{RateMBps: 20000})
	vm := e.vm("running")
	name, size, layoutSwap := e.swapOf(vm)
	if !strings.HasPrefix(name, "[local1] running-") || strings.Contains(name, "/") || size != 1536*mib || layoutSwap != name {
		t.Fatalf("swap %q of %d bytes (layout %q), want 1.5 GiB in local1's root", name, size, layoutSwap)
	}
	local, ds1, ds2 := e.dsState("local1"), e.dsState("ds1"), e.dsState("ds2")
	if local.Free != 10*gb-size || ds1.Free != 100*gb-2*gb {
		t.Errorf("free: local1 %d, ds1 %d: the swap file is to be taken from local1 alone", local.Free, ds1.Free)
	}
	localRef := e.ds("local1").Reference()
	if st := e.vmState(vm); len(st.Datastores) != 2 || st.Datastores[1] != localRef {
		t.Errorf("vm.datastore %v, want ds1 and local1, which holds its swap file", st.Datastores)
	}

	// The whole VM onto ds2: the swap file stays where the host keeps it.
	ds2ref := e.ds("ds2").Reference()
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &ds2ref}); err != nil {
		t.Fatal(err)
	}
	if after, afterSize, _ := e.swapOf(vm); after != name || afterSize != size {
		t.Errorf("swap after the move: %q of %d bytes", after, afterSize)
	}
	if fi, err := os.Stat(e.localFile(name)); err != nil || fi.Size() != size {
		t.Errorf("swap file on local1: %v %v", fi, err)
	}
	if n1, n2, nl := e.dsState("ds1"), e.dsState("ds2"), e.dsState("local1"); n1.Free != 100*gb || ds2.Free-n2.Free != 2*gb || nl.Free != local.Free {
		t.Errorf("free after the move: ds1 %d, ds2 %d -> %d, local1 %d -> %d", n1.Free, ds2.Free, n2.Free, local.Free, nl.Free)
	}
	if st := e.vmState(vm); len(st.Datastores) != 2 || st.Datastores[0] != ds2ref || st.Datastores[1] != localRef {
		t.Errorf("vm.datastore after the move %v, want ds2 and local1", st.Datastores)
	}

	// Its home alone fits on the 1-GB "small" now: it holds no swap file.
	small := e.ds("small").Reference()
	if _, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &small,
		Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: diskOn(e.vmState(vm), "disk1").Key, Datastore: ds2ref}}}); err != nil {
		t.Fatalf("a home without its swap file onto small: %v", err)
	}
	if st := e.vmState(vm); !strings.HasPrefix(st.VmPath, "[small] ") {
		t.Errorf("home %q, want on small", st.VmPath)
	}

	// Power-off removes it from local1.
	off, err := vm.PowerOff(e.ctx)
	if err == nil {
		err = off.Wait(e.ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && e.dsState("local1").Free != 10*gb {
		time.Sleep(20 * time.Millisecond)
	}
	if nl := e.dsState("local1"); nl.Free != 10*gb {
		t.Errorf("local1 free %d after the power-off", nl.Free)
	}
	if _, err := os.Stat(e.localFile(name)); !os.IsNotExist(err) {
		t.Errorf("swap file still on local1: %v", err)
	}

	// A VM's own placement wins over its cluster's; a swap file local1 cannot hold goes to the home.
	if err := e.powerOn(e.vm("own")); err != nil {
		t.Fatal(err)
	}
	if own, _, _ := e.swapOf(e.vm("own")); !strings.HasPrefix(own, "[ds2] own/own-") {
		t.Errorf("own's swap %q, want in its home on ds2", own)
	}
	if err := e.powerOn(e.vm("large")); err != nil {
		t.Fatal(err)
	}
	if large, largeSize, _ := e.swapOf(e.vm("large")); !strings.HasPrefix(large, "[ds2] large/large-") || largeSize != 12*gb {
		t.Errorf("large's swap %q of %d bytes, want 12 GiB in its home on ds2", large, largeSize)
	}
	if nl := e.dsState("local1"); nl.Free != 10*gb {
		t.Errorf("local1 free %d: nothing should have landed there", nl.Free)
	}
}

func TestInventoryRefusesSwapPlacementsThatCannotBe(t *testing.T) {
	for _, c := range []struct {
		change func(*Inventory)
		want   string
	}{
		{func(i *Inventory) { i.Clusters[0].VmSwapPlacement = "inherit" }, `cluster "C0": vmSwapPlacement must be vmDirectory or hostLocal`},
		{func(i *Inventory) { i.Clusters[0].Name = "C9" }, `clusters: "C9" is empty, given twice or the cluster of no host`},
		{func(i *Inventory) { i.Clusters = append(i.Clusters, i.Clusters[0]) }, `clusters: "C0" is empty, given twice`},
		{func(i *Inventory) { i.Hosts[0].LocalSwapDatastore = "ds9" }, `host "h1": localSwapDatastore "ds9" is not a datastore it mounts`},
		{func(i *Inventory) { i.VMs[1].SwapPlacement = "elsewhere" }, `vm "own": swapPlacement must be inherit, vmDirectory or hostLocal`},
	} {
		inv := hostLocalWorld
		inv.Clusters = append([]ClusterSpec(nil), hostLocalWorld.Clusters...)
		inv.Hosts = append([]HostSpec(nil), hostLocalWorld.Hosts...)
		inv.VMs = append([]VMSpec(nil), hostLocalWorld.VMs...)
		c.change(&inv)
		if err := inv.validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
	if err := hostLocalWorld.validate(); err != nil {
		t.Errorf("the host-local world: %v", err)
	}
}

// A swap file on the host's swap datastore puts its VM in that datastore's datastore.vm, so the datastore
// stays entering maintenance until the VM stops; meanwhile no VM is powered on onto a datastore entering or
// in maintenance, and a host-local swap file goes to the home instead.
func TestASwapFileKeepsItsDatastoreEnteringMaintenance(t *testing.T) {
	e := start(t, hostLocalWorld, Options{RateMBps: 20000})
	running := e.vm("running")
	if vms := e.dsState("local1").Vms; len(vms) != 1 || vms[0] != running.Reference() {
		t.Fatalf("local1.vm %v, want running, whose swap file is there", vms)
	}
	enter, err := e.enterMaintenance("local1")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond) // three polls
	if m := e.maintenanceMode("local1"); m != "enteringMaintenance" {
		t.Fatalf("local1 %s with running's swap file on it", m)
	}

	// powered on now, spare, which inherits host-local placement, gets its swap file in its home on ds2
	spare := e.vm("spare")
	if err := e.powerOn(spare); err != nil {
		t.Fatal(err)
	}
	if name, _, _ := e.swapOf(spare); !strings.HasPrefix(name, "[ds2] spare/") {
		t.Errorf("spare's swap %q, want in its home: local1 is entering maintenance", name)
	}
	own := e.vm("own")

	off, err := running.PowerOff(e.ctx)
	if err == nil {
		err = off.Wait(e.ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	waitCtx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	if err := enter.Wait(waitCtx); err != nil {
		t.Fatalf("the enter task, once running's swap file went: %v", err)
	}
	if m := e.maintenanceMode("local1"); m != "inMaintenance" {
		t.Errorf("local1 %s", m)
	}

	// ds2 entering maintenance: a VM with files there does not power on, even one that needs no swap file
	if _, err := e.enterMaintenance("ds2"); err != nil {
		t.Fatal(err)
	}
	for _, vm := range []*object.VirtualMachine{own, e.vm("reserved")} {
		err = e.powerOn(vm)
		var te task.Error
		if !errors.As(err, &te) {
			t.Fatalf("power-on of %s with its files on ds2 entering maintenance: %v", vm.Name(), err)
		}
		if f, ok := te.Fault().(*types.InvalidDatastoreState); !ok || f.DatastoreName != "ds2" {
			t.Errorf("%s: fault %T %+v, want InvalidDatastoreState naming ds2", vm.Name(), te.Fault(), te.Fault())
		}
	}
	if name, _, _ := e.swapOf(own); name != "" {
		t.Errorf("a refused power-on left swap file %s", name)
	}
}
