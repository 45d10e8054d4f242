package main

// POST /opensdrs/perf: an emulated storage testbed publishes one 20-s sample of per-disk and
// per-datastore counters; perf.go serves them through the PerformanceManager. See README.md.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

const perfBodyLimit = 256 << 20

type perfBody struct {
	Timestamp *string        `json:"timestamp"`
	Interval  *int64         `json:"interval"`
	VMs       []perfVMBody   `json:"vms"`
	Hosts     []perfHostBody `json:"hosts"`
}

type perfVMBody struct {
	VM    string         `json:"vm"`
	Disks []perfDiskBody `json:"disks"`
}

type perfDiskBody struct {
	Key      *int32                 `json:"key"`
	Instance *string                `json:"instance"`
	Counters map[string]json.Number `json:"counters"`
}

type perfHostBody struct {
	Host       string              `json:"host"`
	Datastores []perfDatastoreBody `json:"datastores"`
}

type perfDatastoreBody struct {
	Datastore *string                `json:"datastore"`
	Instance  *string                `json:"instance"`
	Counters  map[string]json.Number `json:"counters"`
}

// perfError is an answer other than 204: a status and a message naming the field.
type perfError struct {
	status int
	msg    string
}

func (e *perfError) Error() string { return e.msg }

func badRequest(format string, a ...interface{}) error {
	return &perfError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

// perfEntry is one entity's part of a sample, resolved and checked.
type perfEntry struct {
	field  string // vms[i].vm or hosts[i].host
	ref    types.ManagedObjectReference
	name   string
	values []perfValue
}

// adminHandler serves POST /opensdrs/perf.
func (svc *perfService) adminHandler(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST a JSON sample (see README.md, Performance counters)", http.StatusMethodNotAllowed)
		return
	}
	if ct := req.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			http.Error(w, "Content-Type must be application/json, not "+strconv.Quote(ct), http.StatusUnsupportedMediaType)
			return
		}
	}
	if err := svc.publish(http.MaxBytesReader(w, req.Body, perfBodyLimit)); err != nil {
		status := http.StatusBadRequest
		var pe *perfError
		if errors.As(err, &pe) {
			status = pe.status
		}
		http.Error(w, err.Error(), status)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// publish checks a whole body, then stores it; nothing is stored when anything is wrong.
func (svc *perfService) publish(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return badRequest("reading the body: %v", err)
	}
	var body perfBody
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return badRequest("body: %v", err)
	}
	if dec.More() {
		return badRequest("body: more than one JSON value")
	}

	if body.Timestamp == nil {
		return badRequest("timestamp: missing")
	}
	ts, err := time.Parse(time.RFC3339Nano, *body.Timestamp)
	if err != nil {
		return badRequest("timestamp: %q is not an RFC 3339 time such as 2026-11-27T10:00:20.000Z", *body.Timestamp)
	}
	ts = ts.UTC()
	if body.Interval == nil {
		return badRequest("interval: missing (must be %d, the realtime interval)", perfRealtime)
	}
	if *body.Interval != perfRealtime {
		return badRequest("interval: %d, must be %d (the realtime interval; no other is kept)", *body.Interval, perfRealtime)
	}

	ctx := simulator.SpoofContext()
	entries, err := svc.resolve(ctx, &body)
	if err != nil {
		return err
	}

	svc.store.mu.Lock()
	defer svc.store.mu.Unlock()
	for _, e := range entries {
		if newest, ok := svc.store.newest(e.ref); ok && !ts.After(newest) {
			return &perfError{http.StatusConflict, fmt.Sprintf("%s: timestamp %s is not newer than %s, the newest sample of %s %q (%s)",
				e.field, ts.Format(time.RFC3339Nano), newest.Format(time.RFC3339Nano), e.ref.Type, e.name, e.ref.Value)}
		}
	}
	for _, e := range entries {
		if ctx.Map.Get(e.ref) == nil {
			continue // removed meanwhile
		}
		svc.store.add(e.ref, ts, e.values)
	}
	return nil
}

// entityIndex finds VMs or hosts by name or managed object id.
type entityIndex struct {
	kind   string
	byName map[string][]types.ManagedObjectReference
}

func newEntityIndex(ctx *simulator.Context, kind string) *entityIndex {
	x := &entityIndex{kind: kind, byName: map[string][]types.ManagedObjectReference{}}
	for _, e := range ctx.Map.All(kind) {
		var name string
		ctx.WithLock(e, func() { name = e.Entity().Name })
		x.byName[name] = append(x.byName[name], e.Reference())
	}
	return x
}

// find resolves a name (first) or a managed object id.
func (x *entityIndex) find(ctx *simulator.Context, field, s string) (types.ManagedObjectReference, error) {
	if s == "" {
		return types.ManagedObjectReference{}, badRequest("%s: missing", field)
	}
	switch refs := x.byName[s]; len(refs) {
	case 1:
		return refs[0], nil
	case 0:
	default:
		return types.ManagedObjectReference{}, badRequest("%s: %d %ss are named %q; give its managed object id", field, len(refs), x.kind, s)
	}
	ref := types.ManagedObjectReference{Type: x.kind, Value: s}
	if ctx.Map.Get(ref) != nil {
		return ref, nil
	}
	return types.ManagedObjectReference{}, badRequest("%s: no %s named %q", field, x.kind, s)
}

// counterValues checks the counters of one instance: full names of the group's counters, int64
// values. Counters removed with -perf-omit-counter are dropped.
func (svc *perfService) counterValues(field, group, instance string, counters map[string]json.Number, out []perfValue) ([]perfValue, error) {
	c := svc.counters
	names := make([]string, 0, len(counters))
	for name := range counters {
		names = append(names, name)
	}
	sort.Strings(names) // the first error is the same every time
	for _, name := range names {
		p, ok := c.byName[name]
		if !ok {
			return nil, badRequest("%s.counters: unknown counter %q", field, name)
		}
		if g := p.GroupInfo.GetElementDescription().Key; g != group {
			return nil, badRequest("%s.counters: %q is not a %s counter", field, name, group)
		}
		v, err := strconv.ParseInt(counters[name].String(), 10, 64)
		if err != nil {
			return nil, badRequest("%s.counters[%q]: %s is not an integer (int64)", field, name, counters[name])
		}
		if v == noValue {
			return nil, badRequest("%s.counters[%q]: %d is reserved for a missing value", field, name, v)
		}
		if c.omitted[p.Key] {
			continue
		}
		out = append(out, perfValue{counter: p.Key, instance: instance, value: v})
	}
	return out, nil
}

// resolve checks every entity, instance and counter of a body.
func (svc *perfService) resolve(ctx *simulator.Context, body *perfBody) ([]perfEntry, error) {
	var entries []perfEntry
	given := map[types.ManagedObjectReference]string{}

	if len(body.VMs) > 0 {
		vms := newEntityIndex(ctx, "VirtualMachine")
		for i, v := range body.VMs {
			field := fmt.Sprintf("vms[%d].vm", i)
			ref, err := vms.find(ctx, field, v.VM)
			if err != nil {
				return nil, err
			}
			if prev, dup := given[ref]; dup {
				return nil, badRequest("%s: VirtualMachine %q (%s) is already given in %s", field, v.VM, ref.Value, prev)
			}
			given[ref] = field
			vm, ok := ctx.Map.Get(ref).(*simulator.VirtualMachine)
			if !ok {
				return nil, badRequest("%s: no VirtualMachine named %q", field, v.VM)
			}
			var name string
			ctx.WithLock(vm, func() { name = vm.Name })
			var disks map[int32]string
			e := perfEntry{field: field, ref: ref, name: name}
			seen := map[string]string{}
			for j, d := range v.Disks {
				df := fmt.Sprintf("vms[%d].disks[%d]", i, j)
				var inst string
				switch {
				case (d.Key == nil) == (d.Instance == nil):
					return nil, badRequest("%s: give exactly one of key and instance", df)
				case d.Instance != nil:
					if inst = *d.Instance; inst == "" {
						return nil, badRequest("%s.instance: empty (\"\" is the aggregate, which has no per-disk data)", df)
					}
				default:
					if disks == nil {
						disks = vmDiskInstances(ctx, vm)
					}
					if inst = disks[*d.Key]; inst == "" {
						return nil, badRequest("%s.key: VM %q has no disk %d", df, name, *d.Key)
					}
				}
				if prev, dup := seen[inst]; dup {
					return nil, badRequest("%s: instance %q is already given in %s", df, inst, prev)
				}
				seen[inst] = df
				if e.values, err = svc.counterValues(df, "virtualDisk", inst, d.Counters, e.values); err != nil {
					return nil, err
				}
			}
			entries = append(entries, e)
		}
	}

	if len(body.Hosts) > 0 {
		hosts := newEntityIndex(ctx, "HostSystem")
		for i, h := range body.Hosts {
			field := fmt.Sprintf("hosts[%d].host", i)
			ref, err := hosts.find(ctx, field, h.Host)
			if err != nil {
				return nil, err
			}
			if prev, dup := given[ref]; dup {
				return nil, badRequest("%s: HostSystem %q (%s) is already given in %s", field, h.Host, ref.Value, prev)
			}
			given[ref] = field
			host, ok := ctx.Map.Get(ref).(*simulator.HostSystem)
			if !ok {
				return nil, badRequest("%s: no HostSystem named %q", field, h.Host)
			}
			var name string
			ctx.WithLock(host, func() { name = host.Name })
			var mounted []hostDatastore
			e := perfEntry{field: field, ref: ref, name: name}
			seen := map[string]string{}
			for j, d := range h.Datastores {
				df := fmt.Sprintf("hosts[%d].datastores[%d]", i, j)
				var inst string
				switch {
				case (d.Datastore == nil) == (d.Instance == nil):
					return nil, badRequest("%s: give exactly one of datastore and instance", df)
				case d.Instance != nil:
					if inst = *d.Instance; inst == "" {
						return nil, badRequest("%s.instance: empty (\"\" is the aggregate, which has no per-datastore data)", df)
					}
				default:
					if mounted == nil {
						mounted = hostDatastores(ctx, host)
					}
					for _, m := range mounted {
						if m.name == *d.Datastore || m.ref.Value == *d.Datastore {
							inst = m.instance
						}
					}
					if inst == "" {
						if svc.datastoreExists(ctx, *d.Datastore) {
							return nil, badRequest("%s.datastore: host %q does not mount datastore %q", df, name, *d.Datastore)
						}
						return nil, badRequest("%s.datastore: no Datastore named %q", df, *d.Datastore)
					}
				}
				if prev, dup := seen[inst]; dup {
					return nil, badRequest("%s: instance %q is already given in %s", df, inst, prev)
				}
				seen[inst] = df
				if e.values, err = svc.counterValues(df, "datastore", inst, d.Counters, e.values); err != nil {
					return nil, err
				}
			}
			entries = append(entries, e)
		}
	}
	return entries, nil
}

func (svc *perfService) datastoreExists(ctx *simulator.Context, name string) bool {
	if ctx.Map.Get(types.ManagedObjectReference{Type: "Datastore", Value: name}) != nil {
		return true
	}
	for _, e := range ctx.Map.All("Datastore") {
		var n string
		ctx.WithLock(e, func() { n = e.Entity().Name })
		if n == name {
			return true
		}
	}
	return false
}
