package main

import (
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// Adding a datastore at run time (the datastore-add workflow), as an
// administrator does it: CreateLocalDatastore on every host that sees the
// directory, then StoragePod.MoveIntoFolder_Task into the datastore cluster
// (govc datastore.create -type local ...; govc object.mv DS POD). Two stock
// behaviours are corrected:
//
//   - stock CreateLocalDatastore on a second host reuses the datastore but
//     records that host's mount on a throw-away copy, so datastore.host keeps
//     listing the first host only (host.datastore is right). Ours adds each
//     host's mount (with its path) to the stored datastore and publishes it.
//   - stock StoragePod.MoveIntoFolder_Task appends the pod's children to
//     themselves (childEntity lists the old datastores twice after a second
//     move) and leaves the pod's summary as it was. Ours moves the datastores
//     in, once each, and recomputes the summary of the pod and of any pod a
//     datastore left.

// hostDatastoreSystem changes simulator.HostDatastoreSystem for CreateLocalDatastore only.
type hostDatastoreSystem struct {
	*simulator.HostDatastoreSystem
	session *simulator.Session
}

// storagePod changes simulator.StoragePod for MoveIntoFolder_Task only.
type storagePod struct {
	*simulator.StoragePod
	session *simulator.Session
}

// routeDatastoreCalls is installed in the registry handler next to the relocation hook.
func routeDatastoreCalls(ctx *simulator.Context, m *simulator.Method) (mo.Reference, bool) {
	switch {
	case m.Name == "CreateLocalDatastore" && m.This.Type == "HostDatastoreSystem":
		if dss, ok := ctx.Map.Get(m.This).(*simulator.HostDatastoreSystem); ok {
			w := &hostDatastoreSystem{HostDatastoreSystem: dss}
			w.session = routes.enter(ctx, w)
			return w, true
		}
	case m.Name == "MoveIntoFolder_Task" && m.This.Type == "StoragePod":
		if pod, ok := ctx.Map.Get(m.This).(*simulator.StoragePod); ok {
			w := &storagePod{StoragePod: pod}
			w.session = routes.enter(ctx, w)
			return w, true
		}
	}
	return nil, false
}

// CreateLocalDatastore overrides simulator.HostDatastoreSystem.CreateLocalDatastore.
func (dss *hostDatastoreSystem) CreateLocalDatastore(ctx *simulator.Context, c *types.CreateLocalDatastore) soap.HasFault {
	routes.leave(ctx, dss.session, dss.Self)
	res := dss.HostDatastoreSystem.CreateLocalDatastore(ctx, c)
	body, ok := res.(*methods.CreateLocalDatastoreBody)
	if !ok || body.Fault_ != nil || body.Res == nil {
		return res
	}
	ds, ok := ctx.Map.Get(body.Res.Returnval).(*simulator.Datastore)
	if !ok {
		return res
	}
	host := dss.Host.Reference()
	ctx.WithLock(ds, func() {
		url := ds.Info.GetDatastoreInfo().Url
		found := false
		for i := range ds.Host {
			if ds.Host[i].MountInfo.Path == "" {
				ds.Host[i].MountInfo.Path = url
			}
			if ds.Host[i].Key == host {
				found = true
			}
		}
		if !found {
			ds.Host = append(ds.Host, types.DatastoreHostMount{
				Key: host,
				MountInfo: types.HostMountInfo{
					Path:       url,
					AccessMode: string(types.HostMountModeReadWrite),
					Mounted:    types.NewBool(true),
					Accessible: types.NewBool(ds.Summary.Accessible),
				},
			})
		}
		ctx.Update(ds, []types.PropertyChange{{Name: "host", Val: ds.Host}})
	})
	initIorm(ctx, ds) // a new datastore has vCenter's SIOC defaults
	return res
}

// MoveIntoFolderTask overrides simulator.StoragePod.MoveIntoFolderTask: datastores only.
func (pod *storagePod) MoveIntoFolderTask(ctx *simulator.Context, c *types.MoveIntoFolder_Task) soap.HasFault {
	routes.leave(ctx, pod.session, pod.Self)
	task, tctx := startTask(ctx, pod.StoragePod, "moveIntoFolder")
	go func() {
		finishTask(tctx, task, moveIntoPod(tctx, pod.StoragePod, c.List))
	}()
	return &methods.MoveIntoFolder_TaskBody{Res: &types.MoveIntoFolder_TaskResponse{Returnval: task.Self}}
}

func moveIntoPod(ctx *simulator.Context, pod *simulator.StoragePod, list []types.ManagedObjectReference) types.BaseMethodFault {
	var moved []*simulator.Datastore
	for _, ref := range list {
		ds, ok := ctx.Map.Get(ref).(*simulator.Datastore)
		if !ok {
			// only datastores go into a datastore cluster
			return &types.NotSupported{}
		}
		moved = append(moved, ds)
	}
	left := map[types.ManagedObjectReference]bool{}
	for _, ds := range moved {
		var from *types.ManagedObjectReference
		ctx.WithLock(ds, func() {
			if ds.Parent != nil {
				p := *ds.Parent
				from = &p
			}
		})
		if from != nil && *from == pod.Self {
			continue
		}
		if from != nil {
			switch parent := ctx.Map.Get(*from).(type) {
			case *simulator.Folder:
				ctx.WithLock(parent, func() {
					simulator.RemoveReference(&parent.ChildEntity, ds.Self)
					ctx.Update(parent, []types.PropertyChange{{Name: "childEntity", Val: parent.ChildEntity}})
				})
			case *simulator.StoragePod:
				ctx.WithLock(parent, func() {
					simulator.RemoveReference(&parent.ChildEntity, ds.Self)
					ctx.Update(parent, []types.PropertyChange{{Name: "childEntity", Val: parent.ChildEntity}})
				})
				left[parent.Self] = true
			}
		}
		ctx.WithLock(pod, func() {
			if simulator.FindReference(pod.ChildEntity, ds.Self) == nil {
				pod.ChildEntity = append(pod.ChildEntity, ds.Self)
			}
			ctx.Update(pod, []types.PropertyChange{{Name: "childEntity", Val: pod.ChildEntity}})
		})
		ctx.WithLock(ds, func() {
			ref := pod.Self
			ds.Parent = &ref
			ctx.Update(ds, []types.PropertyChange{{Name: "parent", Val: ref}})
		})
		updatePodSummary(ctx, ds)
	}
	for ref := range left {
		if p, ok := ctx.Map.Get(ref).(*simulator.StoragePod); ok {
			recomputePodSummary(ctx, p)
		}
	}
	return nil
}

// recomputePodSummary is updatePodSummary for a pod (one that may have no datastore left).
func recomputePodSummary(ctx *simulator.Context, pod *simulator.StoragePod) {
	ctx.WithLock(pod, func() {
		var capacity, free int64
		for _, ref := range pod.ChildEntity {
			if c, ok := ctx.Map.Get(ref).(*simulator.Datastore); ok {
				capacity += c.Summary.Capacity
				free += c.Summary.FreeSpace
			}
		}
		s := &types.StoragePodSummary{Name: pod.Name, Capacity: capacity, FreeSpace: free}
		ctx.Update(pod, []types.PropertyChange{{Name: "summary", Val: s}})
	})
}
