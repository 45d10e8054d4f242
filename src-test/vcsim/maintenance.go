package main

import (
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// Datastore maintenance mode (vSphere API 5.0), which stock vcsim does not implement (both methods
// answer a ServerFault "does not implement"). Ours follows vCenter:
//
//   - DatastoreEnterMaintenanceMode: summary.maintenanceMode becomes "enteringMaintenance" and the
//     result's task runs until no virtual machine has a file on the datastore (datastore.vm empty);
//     then the datastore is "inMaintenance" and the task succeeds. The result carries no
//     recommendations: vCenter's come from its Storage DRS, which the simulator does not have (the
//     product being tested is the Storage DRS). Entering a datastore already entering answers the
//     running task; one already in maintenance is InvalidState.
//   - DatastoreExitMaintenanceMode_Task: "normal" again; a running enter task ends with
//     RequestCanceled. A datastore that is neither entering nor in maintenance is InvalidState.
//   - RelocateVM_Task onto a datastore entering or in maintenance mode fails with
//     InvalidDatastoreState (relocate.go), and nothing moves.

const (
	maintenanceNormal   = string(types.DatastoreSummaryMaintenanceModeStateNormal)
	maintenanceEntering = string(types.DatastoreSummaryMaintenanceModeStateEnteringMaintenance)
	maintenanceIn       = string(types.DatastoreSummaryMaintenanceModeStateInMaintenance)
)

// enteringTask is the running DatastoreEnterMaintenanceMode task of a datastore, with the task's own context.
type enteringTask struct {
	task *simulator.Task
	ctx  *simulator.Context
}

// maintainedDatastore changes simulator.Datastore for the two maintenance-mode methods only.
type maintainedDatastore struct {
	*simulator.Datastore
	r       *relocator
	session *simulator.Session
}

func (r *relocator) routeMaintenanceCalls(ctx *simulator.Context, m *simulator.Method) (mo.Reference, bool) {
	if m.This.Type != "Datastore" || (m.Name != "DatastoreEnterMaintenanceMode" && m.Name != "DatastoreExitMaintenanceMode_Task") {
		return nil, false
	}
	ds, ok := ctx.Map.Get(m.This).(*simulator.Datastore)
	if !ok {
		return nil, false
	}
	w := &maintainedDatastore{Datastore: ds, r: r}
	w.session = routes.enter(ctx, w)
	return w, true
}

func (ds *maintainedDatastore) unroute(ctx *simulator.Context) {
	routes.leave(ctx, ds.session, ds.Self)
}

// setMaintenanceMode changes summary.maintenanceMode and tells WaitForUpdates clients; the caller holds ds's lock.
func setMaintenanceMode(ctx *simulator.Context, ds *simulator.Datastore, mode string) {
	ds.Summary.MaintenanceMode = mode
	ctx.Update(ds, []types.PropertyChange{{Name: "summary.maintenanceMode", Val: mode}})
}

func maintenanceModeOf(ds *simulator.Datastore) string {
	if ds.Summary.MaintenanceMode == "" {
		return maintenanceNormal
	}
	return ds.Summary.MaintenanceMode
}

// Lock order: the dispatcher holds the datastore's lock for the call (on behalf of the call's ctx),
// so a datastore's lock is always taken before maintenanceMu, and its state changes under it.

// DatastoreEnterMaintenanceMode implements Datastore.DatastoreEnterMaintenanceMode.
func (ds *maintainedDatastore) DatastoreEnterMaintenanceMode(ctx *simulator.Context, req *types.DatastoreEnterMaintenanceMode) soap.HasFault {
	ds.unroute(ctx)
	body := &methods.DatastoreEnterMaintenanceModeBody{}
	r := ds.r
	r.maintenanceMu.Lock()
	defer r.maintenanceMu.Unlock()
	switch maintenanceModeOf(ds.Datastore) {
	case maintenanceIn:
		body.Fault_ = simulator.Fault("datastore "+ds.Name+" is already in maintenance mode", &types.InvalidState{})
		return body
	case maintenanceEntering:
		if t, ok := r.entering[ds.Self]; ok {
			self := t.task.Self
			body.Res = &types.DatastoreEnterMaintenanceModeResponse{Returnval: types.StoragePlacementResult{Task: &self}}
			return body
		}
	}
	task, tctx := startTask(ctx, ds.Datastore, "enterMaintenanceMode")
	r.entering[ds.Self] = enteringTask{task: task, ctx: tctx}
	setMaintenanceMode(ctx, ds.Datastore, maintenanceEntering)
	self := task.Self
	body.Res = &types.DatastoreEnterMaintenanceModeResponse{Returnval: types.StoragePlacementResult{Task: &self}}
	return body
}

// DatastoreExitMaintenanceModeTask implements Datastore.DatastoreExitMaintenanceMode_Task.
func (ds *maintainedDatastore) DatastoreExitMaintenanceModeTask(ctx *simulator.Context, req *types.DatastoreExitMaintenanceMode_Task) soap.HasFault {
	ds.unroute(ctx)
	body := &methods.DatastoreExitMaintenanceMode_TaskBody{}
	r := ds.r
	if maintenanceModeOf(ds.Datastore) == maintenanceNormal {
		body.Fault_ = simulator.Fault("datastore "+ds.Name+" is not in maintenance mode", &types.InvalidState{})
		return body
	}
	task, tctx := startTask(ctx, ds.Datastore, "exitMaintenanceMode")
	r.maintenanceMu.Lock()
	t, entering := r.entering[ds.Self]
	delete(r.entering, ds.Self)
	r.maintenanceMu.Unlock()
	if entering {
		finishTask(t.ctx, t.task, &types.RequestCanceled{})
	}
	setMaintenanceMode(ctx, ds.Datastore, maintenanceNormal)
	finishTask(tctx, task, nil)
	body.Res = &types.DatastoreExitMaintenanceMode_TaskResponse{Returnval: task.Self}
	return body
}

// settleMaintenance ends each enter task whose datastore no virtual machine uses any more.
func (r *relocator) settleMaintenance() {
	r.maintenanceMu.Lock()
	running := make(map[types.ManagedObjectReference]enteringTask, len(r.entering))
	for ref, t := range r.entering {
		running[ref] = t
	}
	r.maintenanceMu.Unlock()
	for ref, t := range running {
		ds, ok := t.ctx.Map.Get(ref).(*simulator.Datastore)
		if !ok { // the datastore was removed
			r.maintenanceMu.Lock()
			delete(r.entering, ref)
			r.maintenanceMu.Unlock()
			finishTask(t.ctx, t.task, &types.ManagedObjectNotFound{Obj: ref})
			continue
		}
		done := false
		t.ctx.WithLock(ds, func() {
			if maintenanceModeOf(ds) != maintenanceEntering || len(ds.Vm) > 0 {
				return
			}
			r.maintenanceMu.Lock()
			// still this task: an exit, or an exit and a new enter, may have come meanwhile
			if cur, ok := r.entering[ref]; ok && cur.task == t.task {
				delete(r.entering, ref)
				setMaintenanceMode(t.ctx, ds, maintenanceIn)
				done = true
			}
			r.maintenanceMu.Unlock()
		})
		if done {
			finishTask(t.ctx, t.task, nil)
		}
	}
}

// inMaintenance returns the fault for a relocation onto ds while it is entering or in maintenance mode, or nil.
func inMaintenance(ctx *simulator.Context, ds *simulator.Datastore) types.BaseMethodFault {
	var mode string
	ctx.WithLock(ds, func() { mode = maintenanceModeOf(ds) })
	if mode == maintenanceNormal {
		return nil
	}
	return &types.InvalidDatastoreState{DatastoreName: ds.Name}
}
