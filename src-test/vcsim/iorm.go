package main

import (
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// Storage I/O Control settings of a datastore (iorm.go). ESXi reads a datastore's SIOC congestion
// threshold, which vCenter sets with StorageResourceManager.ConfigureDatastoreIORM_Task; stock vcsim
// lacks the method and leaves Datastore.iormConfiguration nil.

// iormProperty is the Datastore property holding its Storage I/O Control settings.
const iormProperty = "iormConfiguration"

// defaultIorm is what vCenter shows for a datastore whose SIOC was never configured: disabled,
// threshold chosen automatically at 90 % of peak throughput, and the 30-ms manual default.
func defaultIorm() *types.StorageIORMInfo {
	return &types.StorageIORMInfo{
		Enabled:                 false,
		CongestionThresholdMode: string(types.StorageIORMThresholdModeAutomatic),
		CongestionThreshold:     30,
		PercentOfPeakThroughput: 90,
	}
}

// initIorm gives every datastore without SIOC settings vCenter's defaults.
func initIorm(ctx *simulator.Context, ds *simulator.Datastore) {
	ctx.WithLock(ds, func() {
		if ds.IormConfiguration == nil {
			ds.IormConfiguration = defaultIorm()
			ctx.Update(ds, []types.PropertyChange{{Name: iormProperty, Val: ds.IormConfiguration}})
		}
	})
}

// ConfigureDatastoreIORMTask adds StorageResourceManager.ConfigureDatastoreIORM_Task. The spec is
// checked whole before anything changes; what it leaves unset (nil flags, empty mode, zero numbers)
// keeps the datastore's current value, as vCenter does.
func (m *storageResourceManager) ConfigureDatastoreIORMTask(ctx *simulator.Context, req *types.ConfigureDatastoreIORM_Task) soap.HasFault {
	routes.leave(ctx, m.session, m.Self)
	body := &methods.ConfigureDatastoreIORM_TaskBody{}
	ds, ok := ctx.Map.Get(req.Datastore).(*simulator.Datastore)
	if !ok {
		body.Fault_ = simulator.Fault("datastore "+req.Datastore.Value+" is not a Datastore", &types.ManagedObjectNotFound{Obj: req.Datastore})
		return body
	}
	task, tctx := startTask(ctx, m.StorageResourceManager, "configureDatastoreIORM")
	var fault types.BaseMethodFault
	tctx.WithLock(ds, func() {
		next, f := applyIormSpec(ds.IormConfiguration, req.Spec)
		if f != nil {
			fault = f
			return
		}
		ds.IormConfiguration = next
		tctx.Update(ds, []types.PropertyChange{{Name: iormProperty, Val: next}})
	})
	finishTask(tctx, task, fault)
	body.Res = &types.ConfigureDatastoreIORM_TaskResponse{Returnval: task.Self}
	return body
}

// applyIormSpec returns the settings after spec, or the fault naming the first bad field. Ranges are
// the API reference's: congestion threshold 5–100 ms (checked when the result is manual, the only
// mode in which ESXi uses it), percent of peak throughput 50–100.
func applyIormSpec(cur *types.StorageIORMInfo, spec types.StorageIORMConfigSpec) (*types.StorageIORMInfo, types.BaseMethodFault) {
	next := defaultIorm()
	if cur != nil {
		*next = *cur
	}
	switch types.StorageIORMThresholdMode(spec.CongestionThresholdMode) {
	case "":
	case types.StorageIORMThresholdModeAutomatic, types.StorageIORMThresholdModeManual:
		next.CongestionThresholdMode = spec.CongestionThresholdMode
	default:
		return nil, invalidProperty("spec.congestionThresholdMode")
	}
	if spec.CongestionThreshold != 0 {
		next.CongestionThreshold = spec.CongestionThreshold
	}
	if (spec.CongestionThreshold != 0 || next.CongestionThresholdMode == string(types.StorageIORMThresholdModeManual)) &&
		(next.CongestionThreshold < 5 || next.CongestionThreshold > 100) {
		return nil, invalidProperty("spec.congestionThreshold")
	}
	if p := spec.PercentOfPeakThroughput; p != 0 {
		if p < 50 || p > 100 {
			return nil, invalidProperty("spec.percentOfPeakThroughput")
		}
		next.PercentOfPeakThroughput = p
	}
	if spec.Enabled != nil {
		next.Enabled = *spec.Enabled
	}
	if spec.StatsCollectionEnabled != nil {
		next.StatsCollectionEnabled = spec.StatsCollectionEnabled
	}
	if spec.ReservationEnabled != nil {
		next.ReservationEnabled = spec.ReservationEnabled
	}
	if spec.StatsAggregationDisabled != nil {
		next.StatsAggregationDisabled = spec.StatsAggregationDisabled
	}
	if spec.ReservableIopsThreshold != 0 {
		next.ReservableIopsThreshold = spec.ReservableIopsThreshold
	}
	return next, nil
}
