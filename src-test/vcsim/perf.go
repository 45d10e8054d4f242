package main

// Performance counters served from published data.
//
// Stock vcsim's PerformanceManager (simulator/performance_manager.go) answers QueryPerf with
// random numbers and ignores the instance. Here the virtual-disk counters of VirtualMachines
// (group virtualDisk, instances "scsi0:1" ...) and the datastore counters of HostSystems (group
// datastore, instance = the datastore's UUID) are answered from what an emulated storage
// testbed publishes through POST /opensdrs/perf (perf_admin.go), one 20-s sample at a time.
// Every other query spec reaches the stock implementation unchanged.
//
// Nothing in the simulator type-asserts the PerformanceManager, so the singleton is simply
// replaced in the registry by a wrapper embedding the stock object (unlike RelocateVM_Task,
// whose VirtualMachine is asserted in many places: relocate.go). The wrapper opts out of the
// dispatcher's per-object lock (sync.Locker): queries run concurrently and hold no object lock
// while their answers are built; the store has its own RWMutex. The wrapper is also a registry
// handler, so a VM or host removed from the inventory loses its samples at once.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/vpx"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

const (
	perfRealtime = 20  // the realtime interval (refreshRate) of VMs and hosts, seconds
	perfKeep     = 180 // samples kept per entity: one hour at 20 s, as vCenter's realtime stats
	// noValue marks a sample without a value for a series; answered as -1, as vCenter does.
	noValue = math.MinInt64
)

// perfGroups: the counter group served from the store for each entity type.
var perfGroups = map[string]string{
	"VirtualMachine": "virtualDisk",
	"HostSystem":     "datastore",
}

// counterName is a counter's full name, group.name.rollup, as govc metric.ls prints it.
func counterName(c *types.PerfCounterInfo) string {
	return c.GroupInfo.GetElementDescription().Key + "." + c.NameInfo.GetElementDescription().Key + "." + string(c.RollupType)
}

// perfCounters are the counter tables of one simulator.
type perfCounters struct {
	byName  map[string]types.PerfCounterInfo // every counter of vpx.PerfCounter, omitted ones included
	group   map[int32]string                 // key -> group, for the served groups' counters not omitted
	inGroup map[string][]int32               // group -> its served counter keys, ascending
	omitted map[int32]bool                   // keys removed with -perf-omit-counter
}

// newPerfCounters checks the names to omit against vpx.PerfCounter.
func newPerfCounters(omit []string) (*perfCounters, error) {
	c := &perfCounters{
		byName:  map[string]types.PerfCounterInfo{},
		group:   map[int32]string{},
		inGroup: map[string][]int32{},
		omitted: map[int32]bool{},
	}
	for i := range vpx.PerfCounter {
		p := vpx.PerfCounter[i]
		if _, dup := c.byName[counterName(&p)]; !dup {
			c.byName[counterName(&p)] = p
		}
	}
	for _, name := range omit {
		p, ok := c.byName[name]
		if !ok {
			return nil, fmt.Errorf("-perf-omit-counter: unknown counter %q (give full names group.name.rollup, as govc metric.ls prints them)", name)
		}
		c.omitted[p.Key] = true
	}
	for _, group := range perfGroups {
		for _, p := range c.byName {
			if p.GroupInfo.GetElementDescription().Key == group && !c.omitted[p.Key] {
				c.group[p.Key] = group
				c.inGroup[group] = append(c.inGroup[group], p.Key)
			}
		}
		keys := c.inGroup[group]
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	}
	return c, nil
}

// perfStore holds the published samples, indexed by entity.
type perfStore struct {
	mu       sync.RWMutex
	entities map[types.ManagedObjectReference]*perfEntity
}

// perfEntity is one VM's or host's samples. Samples are numbered from 0 in publication order;
// times[0] is sample base.
type perfEntity struct {
	base     int64
	times    []time.Time // oldest first, at most perfKeep
	counters map[int32]*perfCounterSeries
}

type perfCounterSeries struct {
	instances []string // sorted
	series    map[string]*perfSeries
}

// perfSeries holds one (counter, instance)'s values of samples start, start+1, ...; samples past
// its end, and noValue entries, have no value.
type perfSeries struct {
	start  int64
	last   int64 // the newest sample with a value
	values []int64
}

func (s *perfSeries) at(n int64) int64 {
	if i := n - s.start; i >= 0 && i < int64(len(s.values)) {
		return s.values[i]
	}
	return noValue
}

// hasData says whether any of samples [lo, hi) has a value.
func (s *perfSeries) hasData(lo, hi int64) bool {
	if s.last < lo {
		return false
	}
	for n := lo; n < hi; n++ {
		if s.at(n) != noValue {
			return true
		}
	}
	return false
}

// perfValue is one published value, resolved.
type perfValue struct {
	counter  int32
	instance string
	value    int64
}

func newPerfStore() *perfStore {
	return &perfStore{entities: map[types.ManagedObjectReference]*perfEntity{}}
}

// newest is the time of an entity's newest sample (zero without one). Callers hold mu.
func (s *perfStore) newest(ref types.ManagedObjectReference) (time.Time, bool) {
	e := s.entities[ref]
	if e == nil || len(e.times) == 0 {
		return time.Time{}, false
	}
	return e.times[len(e.times)-1], true
}

// add appends a sample to an entity, keeping the newest perfKeep. Callers hold mu for writing
// and have checked that ts is newer than the entity's newest sample.
func (s *perfStore) add(ref types.ManagedObjectReference, ts time.Time, values []perfValue) {
	e := s.entities[ref]
	if e == nil {
		e = &perfEntity{counters: map[int32]*perfCounterSeries{}}
		s.entities[ref] = e
	}
	n := e.base + int64(len(e.times))
	e.times = append(e.times, ts)
	for _, v := range values {
		cs := e.counters[v.counter]
		if cs == nil {
			cs = &perfCounterSeries{series: map[string]*perfSeries{}}
			e.counters[v.counter] = cs
		}
		ser := cs.series[v.instance]
		if ser == nil {
			ser = &perfSeries{start: n}
			cs.series[v.instance] = ser
			i := sort.SearchStrings(cs.instances, v.instance)
			cs.instances = append(cs.instances, "")
			copy(cs.instances[i+1:], cs.instances[i:])
			cs.instances[i] = v.instance
		}
		for ser.start+int64(len(ser.values)) < n {
			ser.values = append(ser.values, noValue)
		}
		ser.values = append(ser.values, v.value)
		ser.last = n
	}
	if drop := len(e.times) - perfKeep; drop > 0 {
		e.times = e.times[drop:]
		e.base += int64(drop)
		for key, cs := range e.counters {
			kept := cs.instances[:0]
			for _, inst := range cs.instances {
				ser := cs.series[inst]
				if ser.last < e.base {
					delete(cs.series, inst)
					continue
				}
				if ser.start < e.base {
					ser.values = ser.values[e.base-ser.start:]
					ser.start = e.base
				}
				kept = append(kept, inst)
			}
			cs.instances = kept
			if len(kept) == 0 {
				delete(e.counters, key)
			}
		}
	}
}

func (s *perfStore) forget(ref types.ManagedObjectReference) {
	s.mu.Lock()
	delete(s.entities, ref)
	s.mu.Unlock()
}

// answer builds the PerfEntityMetric (or PerfEntityMetricCSV) of one spec served from the store.
func (s *perfStore) answer(qs *types.PerfQuerySpec) types.BasePerfEntityMetricBase {
	csv := qs.Format == string(types.PerfFormatCsv)
	empty := func() types.BasePerfEntityMetricBase {
		if csv {
			return &types.PerfEntityMetricCSV{PerfEntityMetricBase: types.PerfEntityMetricBase{Entity: qs.Entity}}
		}
		return &types.PerfEntityMetric{PerfEntityMetricBase: types.PerfEntityMetricBase{Entity: qs.Entity}}
	}
	if qs.IntervalId != 0 && qs.IntervalId != perfRealtime {
		return empty() // no rollups are kept
	}

	s.mu.RLock()
	defer s.mu.RUnlock()
	e := s.entities[qs.Entity]
	if e == nil {
		return empty()
	}
	lo, hi := 0, len(e.times)
	if qs.StartTime != nil { // exclusive
		t := *qs.StartTime
		lo = sort.Search(len(e.times), func(i int) bool { return e.times[i].After(t) })
	}
	if qs.EndTime != nil { // inclusive
		t := *qs.EndTime
		hi = sort.Search(len(e.times), func(i int) bool { return e.times[i].After(t) })
	}
	if qs.MaxSample > 0 && hi-lo > int(qs.MaxSample) {
		lo = hi - int(qs.MaxSample)
	}
	if hi <= lo {
		return empty()
	}
	first, end := e.base+int64(lo), e.base+int64(hi)

	type pick struct {
		id  types.PerfMetricId
		ser *perfSeries
	}
	var picks []pick
	seen := map[types.PerfMetricId]bool{}
	take := func(counter int32, inst string, ser *perfSeries) {
		id := types.PerfMetricId{CounterId: counter, Instance: inst}
		if seen[id] || !ser.hasData(first, end) {
			return
		}
		seen[id] = true
		picks = append(picks, pick{id, ser})
	}
	for _, mid := range qs.MetricId {
		cs := e.counters[mid.CounterId]
		if cs == nil {
			continue
		}
		if mid.Instance == "*" {
			for _, inst := range cs.instances {
				take(mid.CounterId, inst, cs.series[inst])
			}
		} else if ser := cs.series[mid.Instance]; ser != nil {
			take(mid.CounterId, mid.Instance, ser)
		}
	}
	if len(picks) == 0 {
		return empty()
	}

	value := func(ser *perfSeries, n int64) int64 {
		if v := ser.at(n); v != noValue {
			return v
		}
		return -1
	}
	if csv {
		m := &types.PerfEntityMetricCSV{PerfEntityMetricBase: types.PerfEntityMetricBase{Entity: qs.Entity}}
		var b []byte
		for i := lo; i < hi; i++ {
			if i > lo {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, perfRealtime, 10)
			b = append(b, ',')
			b = e.times[i].AppendFormat(b, time.RFC3339)
		}
		m.SampleInfoCSV = string(b)
		m.Value = make([]types.PerfMetricSeriesCSV, len(picks))
		for j, p := range picks {
			b = b[:0]
			for n := first; n < end; n++ {
				if n > first {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, value(p.ser, n), 10)
			}
			m.Value[j] = types.PerfMetricSeriesCSV{PerfMetricSeries: types.PerfMetricSeries{Id: p.id}, Value: string(b)}
		}
		return m
	}
	m := &types.PerfEntityMetric{PerfEntityMetricBase: types.PerfEntityMetricBase{Entity: qs.Entity}}
	m.SampleInfo = make([]types.PerfSampleInfo, hi-lo)
	for i := lo; i < hi; i++ {
		m.SampleInfo[i-lo] = types.PerfSampleInfo{Timestamp: e.times[i], Interval: perfRealtime}
	}
	m.Value = make([]types.BasePerfMetricSeries, len(picks))
	for j, p := range picks {
		vals := make([]int64, hi-lo)
		for n := first; n < end; n++ {
			vals[n-first] = value(p.ser, n)
		}
		m.Value[j] = &types.PerfMetricIntSeries{PerfMetricSeries: types.PerfMetricSeries{Id: p.id}, Value: vals}
	}
	return m
}

// perfService is the published-counter machinery of one simulator.
type perfService struct {
	counters *perfCounters
	store    *perfStore
}

// PerfManager replaces the stock PerformanceManager singleton in the registry. It must embed the
// stock object first: the PropertyCollector reads perfCounter and the other properties through it.
type PerfManager struct {
	*simulator.PerformanceManager
	svc *perfService
}

// installPerf wraps the stock PerformanceManager of the running model, removing the omitted
// counters from its perfCounter property.
func installPerf(model *simulator.Model, c *perfCounters) (*perfService, error) {
	ref := types.ManagedObjectReference{Type: "PerformanceManager", Value: "PerfMgr"}
	if model.ServiceContent.PerfManager != nil {
		ref = *model.ServiceContent.PerfManager
	}
	stock, ok := simulator.Map.Get(ref).(*simulator.PerformanceManager)
	if !ok {
		return nil, fmt.Errorf("no stock PerformanceManager at %s", ref)
	}
	svc := &perfService{counters: c, store: newPerfStore()}
	if len(c.omitted) > 0 {
		kept := make([]types.PerfCounterInfo, 0, len(stock.PerfCounter))
		for _, p := range stock.PerfCounter {
			if !c.omitted[p.Key] {
				kept = append(kept, p)
			}
		}
		stock.PerfCounter = kept // a new slice: vpx.PerfCounter itself stays whole
	}
	w := &PerfManager{PerformanceManager: stock, svc: svc}
	simulator.Map.Put(w)
	simulator.Map.AddHandler(w)
	return svc, nil
}

// Lock and Unlock opt the PerformanceManager out of the dispatcher's per-object lock: its state is
// read-only after start (stock) or guarded by the store's own lock (ours).
func (*PerfManager) Lock()   {}
func (*PerfManager) Unlock() {}

// PutObject, UpdateObject and RemoveObject make the wrapper a registry handler: a VM or host
// removed from the inventory (destroyed, unregistered) loses its samples.
func (*PerfManager) PutObject(mo.Reference)                                                {}
func (*PerfManager) UpdateObject(*simulator.Context, mo.Reference, []types.PropertyChange) {}
func (p *PerfManager) RemoveObject(_ *simulator.Context, ref types.ManagedObjectReference) {
	if _, ok := perfGroups[ref.Type]; ok {
		p.svc.store.forget(ref)
	}
}

// served says whether a spec is answered from the store: a VM or host spec naming only counters of
// its served group.
func (c *perfCounters) served(qs *types.PerfQuerySpec) bool {
	group, ok := perfGroups[qs.Entity.Type]
	if !ok || len(qs.MetricId) == 0 {
		return false
	}
	for _, id := range qs.MetricId {
		if c.group[id.CounterId] != group {
			return false
		}
	}
	return true
}

func invalidMetric(i, j int, counter int32) *soap.Fault {
	return simulator.Fault(fmt.Sprintf("A specified parameter was not correct: querySpec.metricId (querySpec[%d].metricId[%d]: counter %d is not available)", i, j, counter),
		&types.InvalidArgument{InvalidProperty: "querySpec.metricId"})
}

// QueryPerf answers the specs served from the store itself and hands the others, in one call, to
// the stock implementation; the answers keep the specs' order. A served spec whose entity does not
// exist gets no answer, as the API reference says ("only metrics for entities that can be resolved
// ... are returned"). A counter removed with -perf-omit-counter does not exist: InvalidArgument.
func (p *PerfManager) QueryPerf(ctx *simulator.Context, req *types.QueryPerf) soap.HasFault {
	c := p.svc.counters
	ours := make([]bool, len(req.QuerySpec))
	var stock []types.PerfQuerySpec
	for i := range req.QuerySpec {
		qs := &req.QuerySpec[i]
		for j, id := range qs.MetricId {
			if c.omitted[id.CounterId] {
				return &methods.QueryPerfBody{Fault_: invalidMetric(i, j, id.CounterId)}
			}
		}
		if ours[i] = c.served(qs); !ours[i] {
			stock = append(stock, *qs)
		}
	}
	if len(stock) == len(req.QuerySpec) {
		return p.PerformanceManager.QueryPerf(ctx, req)
	}
	var stockRes []types.BasePerfEntityMetricBase
	if len(stock) > 0 {
		sb := p.PerformanceManager.QueryPerf(ctx, &types.QueryPerf{This: req.This, QuerySpec: stock}).(*methods.QueryPerfBody)
		if sb.Fault_ != nil {
			return sb
		}
		stockRes = sb.Res.Returnval
	}
	body := &methods.QueryPerfBody{Res: &types.QueryPerfResponse{Returnval: make([]types.BasePerfEntityMetricBase, 0, len(req.QuerySpec))}}
	k := 0
	for i := range req.QuerySpec {
		qs := &req.QuerySpec[i]
		if !ours[i] {
			body.Res.Returnval = append(body.Res.Returnval, stockRes[k])
			k++
			continue
		}
		if ctx.Map.Get(qs.Entity) == nil {
			continue
		}
		body.Res.Returnval = append(body.Res.Returnval, p.svc.store.answer(qs))
	}
	return body
}

// QueryPerfCounter answers as stock, but an omitted counter is unknown (an empty entry, as stock
// answers an unknown key).
func (p *PerfManager) QueryPerfCounter(ctx *simulator.Context, req *types.QueryPerfCounter) soap.HasFault {
	body := p.PerformanceManager.QueryPerfCounter(ctx, req).(*methods.QueryPerfCounterBody)
	for i, id := range req.CounterId {
		if p.svc.counters.omitted[id] && i < len(body.Res.Returnval) {
			body.Res.Returnval[i] = types.PerfCounterInfo{}
		}
	}
	return body
}

// QueryAvailablePerfMetric answers stock's list without the omitted counters, plus, at the realtime
// interval, each served counter per instance: a VM's disks, a host's datastores.
func (p *PerfManager) QueryAvailablePerfMetric(ctx *simulator.Context, req *types.QueryAvailablePerfMetric) soap.HasFault {
	if _, ours := perfGroups[req.Entity.Type]; ours && ctx.Map.Get(req.Entity) == nil {
		// stock would panic on the type assertion
		return &methods.QueryAvailablePerfMetricBody{Fault_: simulator.Fault(
			fmt.Sprintf("The object '%s' has already been deleted or has not been completely created", req.Entity),
			&types.ManagedObjectNotFound{Obj: req.Entity})}
	}
	body := p.PerformanceManager.QueryAvailablePerfMetric(ctx, req).(*methods.QueryAvailablePerfMetricBody)
	if body.Res == nil {
		return body
	}
	c := p.svc.counters
	ids := body.Res.Returnval[:0]
	seen := map[types.PerfMetricId]bool{}
	for _, id := range body.Res.Returnval {
		if !c.omitted[id.CounterId] {
			ids = append(ids, id)
			seen[id] = true
		}
	}
	group, ours := perfGroups[req.Entity.Type]
	if ours && (req.IntervalId == 0 || req.IntervalId == perfRealtime) {
		var instances []string
		switch req.Entity.Type {
		case "VirtualMachine":
			if vm, ok := ctx.Map.Get(req.Entity).(*simulator.VirtualMachine); ok {
				for _, inst := range vmDiskInstances(ctx, vm) {
					instances = append(instances, inst)
				}
			}
		case "HostSystem":
			if host, ok := ctx.Map.Get(req.Entity).(*simulator.HostSystem); ok {
				for _, d := range hostDatastores(ctx, host) {
					instances = append(instances, d.instance)
				}
			}
		}
		sort.Strings(instances)
		for _, key := range c.inGroup[group] {
			for _, inst := range instances {
				id := types.PerfMetricId{CounterId: key, Instance: inst}
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
	}
	body.Res.Returnval = ids
	return body
}

// vmDiskInstances maps each virtual disk's key to the instance name vCenter gives it in
// virtual-disk counters: <controller type><controller bus number>:<unit number>, e.g. scsi0:1.
func vmDiskInstances(ctx *simulator.Context, vm *simulator.VirtualMachine) map[int32]string {
	out := map[int32]string{}
	ctx.WithLock(vm, func() {
		if vm.Config == nil {
			return
		}
		devices := vm.Config.Hardware.Device
		controllers := map[int32]string{}
		for _, d := range devices {
			var prefix string
			switch d.(type) {
			case types.BaseVirtualSCSIController:
				prefix = "scsi"
			case types.BaseVirtualSATAController:
				prefix = "sata"
			case *types.VirtualIDEController:
				prefix = "ide"
			case *types.VirtualNVMEController:
				prefix = "nvme"
			default:
				continue
			}
			vc := d.(types.BaseVirtualController).GetVirtualController()
			controllers[vc.Key] = prefix + strconv.Itoa(int(vc.BusNumber))
		}
		for _, d := range devices {
			disk, ok := d.(*types.VirtualDisk)
			if !ok || disk.UnitNumber == nil {
				continue
			}
			if ctl, ok := controllers[disk.ControllerKey]; ok {
				out[disk.Key] = ctl + ":" + strconv.Itoa(int(*disk.UnitNumber))
			}
		}
	})
	return out
}

type hostDatastore struct {
	ref      types.ManagedObjectReference
	name     string
	instance string
}

// hostDatastores lists the datastores a host mounts with the instance name vCenter gives each in a
// host's datastore counters: its UUID, the last element of summary.url (ds:///vmfs/volumes/<uuid>/).
func hostDatastores(ctx *simulator.Context, host *simulator.HostSystem) []hostDatastore {
	var refs []types.ManagedObjectReference
	ctx.WithLock(host, func() { refs = append(refs, host.Datastore...) })
	var out []hostDatastore
	for _, ref := range refs {
		ds, ok := ctx.Map.Get(ref).(*simulator.Datastore)
		if !ok {
			continue
		}
		var d hostDatastore
		ctx.WithLock(ds, func() {
			u := ds.Summary.Url
			if u == "" {
				u = ds.Info.GetDatastoreInfo().Url
			}
			d = hostDatastore{ref: ref, name: ds.Name, instance: datastoreUUID(u)}
		})
		if d.instance != "" {
			out = append(out, d)
		}
	}
	return out
}

// datastoreUUID is the last non-empty path element of a datastore URL.
func datastoreUUID(url string) string {
	parts := strings.Split(url, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] != "" {
			return parts[i]
		}
	}
	return ""
}
