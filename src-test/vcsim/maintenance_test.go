package main

import (
	"strings"
	"testing"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

func (e *env) maintenanceMode(name string) string {
	e.t.Helper()
	var m mo.Datastore
	ds := e.ds(name)
	if err := ds.Properties(e.ctx, ds.Reference(), []string{"summary.maintenanceMode"}, &m); err != nil {
		e.t.Fatal(err)
	}
	return m.Summary.MaintenanceMode
}

func (e *env) enterMaintenance(name string) (*object.Task, error) {
	res, err := methods.DatastoreEnterMaintenanceMode(e.ctx, e.c.Client, &types.DatastoreEnterMaintenanceMode{This: e.ds(name).Reference()})
	if err != nil {
		return nil, err
	}
	if res.Returnval.Task == nil {
		e.t.Fatalf("DatastoreEnterMaintenanceMode(%s) returned no task", name)
	}
	return object.NewTask(e.c.Client, *res.Returnval.Task), nil
}

func (e *env) taskState(t *object.Task) types.TaskInfo {
	e.t.Helper()
	var m mo.Task
	if err := t.Properties(e.ctx, t.Reference(), []string{"info"}, &m); err != nil {
		e.t.Fatal(err)
	}
	return m.Info
}

func TestMaintenanceModeIsEnteringUntilTheDatastoreIsEmpty(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000})
	if got := e.maintenanceMode("ds1"); got != maintenanceNormal {
		t.Fatalf("ds1 starts %q", got)
	}
	enter, err := e.enterMaintenance("ds1")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.maintenanceMode("ds1"); got != maintenanceEntering {
		t.Fatalf("after enter: %q", got)
	}
	time.Sleep(200 * time.Millisecond) // several watcher periods: vm1 is still on ds1
	if info := e.taskState(enter); info.State != types.TaskInfoStateRunning {
		t.Fatalf("enter task while vm1 is on ds1: %s", info.State)
	}
	// entering again answers the running task
	again, err := e.enterMaintenance("ds1")
	if err != nil || again.Reference() != enter.Reference() {
		t.Fatalf("second enter: %v %v, want the running task %v", again, err, enter.Reference())
	}

	// nothing may move onto a datastore entering maintenance mode
	before := e.vmState(e.vm("vm2"))
	ds1 := e.ds("ds1").Reference()
	_, _, err = e.relocate(e.vm("vm2"), types.VirtualMachineRelocateSpec{Datastore: &ds1})
	if err == nil || !strings.Contains(err.Error(), "maintenance mode") {
		t.Fatalf("relocation onto ds1 entering maintenance: %v", err)
	}
	if after := e.vmState(e.vm("vm2")); refs(after.Datastores) != refs(before.Datastores) {
		t.Fatalf("vm2 moved: %s -> %s", refs(before.Datastores), refs(after.Datastores))
	}

	// moving vm1 off ds1 empties it: in maintenance, and the task succeeds
	ds2 := e.ds("ds2").Reference()
	if _, _, err := e.relocate(e.vm("vm1"), types.VirtualMachineRelocateSpec{Datastore: &ds2}); err != nil {
		t.Fatal(err)
	}
	if err := enter.WaitEx(e.ctx); err != nil {
		t.Fatalf("enter task: %v", err)
	}
	if got := e.maintenanceMode("ds1"); got != maintenanceIn {
		t.Fatalf("empty: %q", got)
	}
	if _, err := e.enterMaintenance("ds1"); err == nil || !strings.Contains(err.Error(), "already in maintenance mode") {
		t.Fatalf("enter while in maintenance: %v", err)
	}

	res, err := methods.DatastoreExitMaintenanceMode_Task(e.ctx, e.c.Client, &types.DatastoreExitMaintenanceMode_Task{This: ds1})
	if err != nil {
		t.Fatal(err)
	}
	if err := object.NewTask(e.c.Client, res.Returnval).WaitEx(e.ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.maintenanceMode("ds1"); got != maintenanceNormal {
		t.Fatalf("after exit: %q", got)
	}
	if _, err := methods.DatastoreExitMaintenanceMode_Task(e.ctx, e.c.Client, &types.DatastoreExitMaintenanceMode_Task{This: ds1}); err == nil ||
		!strings.Contains(err.Error(), "not in maintenance mode") {
		t.Fatalf("exit while normal: %v", err)
	}
	if _, _, err := e.relocate(e.vm("vm2"), types.VirtualMachineRelocateSpec{Datastore: &ds1}); err != nil {
		t.Fatalf("relocation onto ds1 after exit: %v", err)
	}
}

func TestExitingCancelsTheEnterTask(t *testing.T) {
	e := start(t, world, Options{})
	enter, err := e.enterMaintenance("ds2")
	if err != nil {
		t.Fatal(err)
	}
	res, err := methods.DatastoreExitMaintenanceMode_Task(e.ctx, e.c.Client,
		&types.DatastoreExitMaintenanceMode_Task{This: e.ds("ds2").Reference()})
	if err != nil {
		t.Fatal(err)
	}
	if err := object.NewTask(e.c.Client, res.Returnval).WaitEx(e.ctx); err != nil {
		t.Fatal(err)
	}
	err = enter.WaitEx(e.ctx)
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("enter task after exit: %v", err)
	}
	if got := e.maintenanceMode("ds2"); got != maintenanceNormal {
		t.Fatalf("after exit: %q", got)
	}
}

func TestStockSimulatorHasNoDatastoreMaintenanceMode(t *testing.T) {
	e := start(t, world, Options{Stock: true})
	if _, err := e.enterMaintenance("ds1"); err == nil || !strings.Contains(err.Error(), "does not implement") {
		t.Fatalf("-stock: DatastoreEnterMaintenanceMode answered %v, want \"does not implement\", as stock vcsim answers", err)
	}
}
