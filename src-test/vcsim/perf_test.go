package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmware/govmomi"
	"github.com/vmware/govmomi/performance"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// postPerf publishes a body through POST /opensdrs/perf; it returns the status and the message.
func postPerf(t testing.TB, u *url.URL, body interface{}) (int, string) {
	t.Helper()
	a := *u
	a.User = nil
	a.Path = "/opensdrs/perf"
	var data []byte
	switch b := body.(type) {
	case string:
		data = []byte(b)
	default:
		var err error
		if data, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: insecureTLS()}}
	res, err := c.Post(a.String(), "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(res.Body)
	return res.StatusCode, strings.TrimSpace(string(msg))
}

type jsonObj = map[string]interface{}

func sample(ts time.Time, vms, hosts []jsonObj) jsonObj {
	b := jsonObj{"timestamp": ts.Format("2006-01-02T15:04:05.000Z07:00"), "interval": 20}
	if vms != nil {
		b["vms"] = vms
	}
	if hosts != nil {
		b["hosts"] = hosts
	}
	return b
}

// counterKeys: full counter name -> key, read from the perfCounter property.
func (e *env) counterKeys() map[string]int32 {
	e.t.Helper()
	byName, err := performance.NewManager(e.c.Client).CounterInfoByName(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]int32{}
	for name, c := range byName {
		out[name] = c.Key
	}
	return out
}

func (e *env) queryPerf(specs ...types.PerfQuerySpec) []types.BasePerfEntityMetricBase {
	e.t.Helper()
	res, err := e.queryPerfErr(specs...)
	if err != nil {
		e.t.Fatal(err)
	}
	return res
}

func (e *env) queryPerfErr(specs ...types.PerfQuerySpec) ([]types.BasePerfEntityMetricBase, error) {
	res, err := methods.QueryPerf(e.ctx, e.c.Client, &types.QueryPerf{This: *e.c.ServiceContent.PerfManager, QuerySpec: specs})
	if err != nil {
		return nil, err
	}
	return res.Returnval, nil
}

// series flattens a normal-format answer: "counter/instance" -> values.
func series(t *testing.T, m types.BasePerfEntityMetricBase) ([]time.Time, map[string][]int64) {
	t.Helper()
	em, ok := m.(*types.PerfEntityMetric)
	if !ok {
		t.Fatalf("answer %T, want *types.PerfEntityMetric", m)
	}
	var times []time.Time
	for _, s := range em.SampleInfo {
		if s.Interval != 20 {
			t.Errorf("sample interval %d", s.Interval)
		}
		times = append(times, s.Timestamp.UTC())
	}
	out := map[string][]int64{}
	for _, v := range em.Value {
		s := v.(*types.PerfMetricIntSeries)
		out[fmt.Sprintf("%d/%s", s.Id.CounterId, s.Id.Instance)] = s.Value
	}
	return times, out
}

func (e *env) ref(kind, name string) types.ManagedObjectReference {
	e.t.Helper()
	switch kind {
	case "VirtualMachine":
		return e.vm(name).Reference()
	case "HostSystem":
		h, err := e.f.HostSystem(e.ctx, name)
		if err != nil {
			e.t.Fatal(err)
		}
		return h.Reference()
	}
	e.t.Fatalf("kind %s", kind)
	return types.ManagedObjectReference{}
}

func (e *env) dsUUID(name string) string {
	return datastoreUUID(e.dsState(name).Dir)
}

func TestPerfPublishAndQuery(t *testing.T) {
	e := start(t, world, Options{RateMBps: 0})
	k := e.counterKeys()
	nra, trl, wra := k["virtualDisk.numberReadAveraged.average"], k["virtualDisk.totalReadLatency.average"], k["virtualDisk.numberWriteAveraged.average"]
	iops, dsrl := k["datastore.datastoreIops.average"], k["datastore.totalReadLatency.average"]
	disks := e.diskKeys("vm1")
	sort.Slice(disks, func(i, j int) bool { return disks[i] < disks[j] })
	if len(disks) != 2 {
		t.Fatalf("vm1 disks %v", disks)
	}
	vm1, h1 := e.ref("VirtualMachine", "vm1"), e.ref("HostSystem", "h1")
	uuid1 := e.dsUUID("ds1")

	t1 := time.Date(2026, 11, 27, 10, 0, 20, 0, time.UTC)
	t2 := t1.Add(20 * time.Second)
	if st, msg := postPerf(t, e.s.URL, sample(t1,
		[]jsonObj{{"vm": "vm1", "disks": []jsonObj{
			{"key": disks[0], "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 120, "virtualDisk.totalReadLatency.average": 7}},
			{"key": disks[1], "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 30}},
		}}},
		[]jsonObj{{"host": "h1", "datastores": []jsonObj{
			{"datastore": "ds1", "counters": jsonObj{"datastore.datastoreIops.average": 300, "datastore.totalReadLatency.average": 1}},
		}}})); st != http.StatusNoContent {
		t.Fatalf("publish 1: %d %s", st, msg)
	}
	// the second sample names the VM by its managed object id, a disk by its instance
	if st, msg := postPerf(t, e.s.URL, sample(t2,
		[]jsonObj{{"vm": vm1.Value, "disks": []jsonObj{
			{"key": disks[0], "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 130, "virtualDisk.totalReadLatency.average": 8}},
			{"instance": "scsi0:1", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 40, "virtualDisk.totalReadLatency.average": -5}},
		}}},
		[]jsonObj{{"host": "h1", "datastores": []jsonObj{
			{"instance": uuid1, "counters": jsonObj{"datastore.datastoreIops.average": 310}},
		}}})); st != http.StatusNoContent {
		t.Fatalf("publish 2: %d %s", st, msg)
	}

	key := func(c int32, inst string) string { return fmt.Sprintf("%d/%s", c, inst) }
	all := []types.PerfMetricId{{CounterId: nra, Instance: "*"}, {CounterId: trl, Instance: "*"}}

	// instance "*": every disk with data; the disks are scsi0:0 and scsi0:1 (pvscsi bus 0, units 0 and 1)
	times, got := series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm1, IntervalId: 20, MetricId: all})[0])
	if !reflect.DeepEqual(times, []time.Time{t1, t2}) {
		t.Errorf("sampleInfo %v, want %v %v", times, t1, t2)
	}
	want := map[string][]int64{
		key(nra, "scsi0:0"): {120, 130}, key(nra, "scsi0:1"): {30, 40},
		key(trl, "scsi0:0"): {7, 8}, key(trl, "scsi0:1"): {-1, -5}, // -1: no value published at t1
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vm1 series %v, want %v", got, want)
	}

	// a named instance: only it; the aggregate "" has no per-disk data; an unpublished counter none
	_, got = series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm1, MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "scsi0:1"}}})[0])
	if !reflect.DeepEqual(got, map[string][]int64{key(nra, "scsi0:1"): {30, 40}}) {
		t.Errorf("named instance (interval unset = realtime): %v", got)
	}
	for _, id := range []types.PerfMetricId{{CounterId: nra, Instance: ""}, {CounterId: wra, Instance: "*"}, {CounterId: nra, Instance: "scsi0:7"}} {
		times, got = series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm1, IntervalId: 20, MetricId: []types.PerfMetricId{id}})[0])
		if len(times) != 0 || len(got) != 0 {
			t.Errorf("%+v: %v %v, want nothing", id, times, got)
		}
	}

	// startTime exclusive, endTime inclusive, maxSample = the newest N
	for _, c := range []struct {
		name       string
		start, end *time.Time
		max        int32
		want       []time.Time
	}{
		{"startTime t1", &t1, nil, 0, []time.Time{t2}},
		{"endTime t1", nil, &t1, 0, []time.Time{t1}},
		{"endTime t2", nil, &t2, 0, []time.Time{t1, t2}},
		{"maxSample 1", nil, nil, 1, []time.Time{t2}},
		{"maxSample 1, endTime t1", nil, &t1, 1, []time.Time{t1}},
		{"startTime t2", &t2, nil, 0, nil},
	} {
		times, got = series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm1, IntervalId: 20, StartTime: c.start, EndTime: c.end, MaxSample: c.max,
			MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "scsi0:0"}}})[0])
		if !reflect.DeepEqual(times, c.want) {
			t.Errorf("%s: times %v, want %v", c.name, times, c.want)
		}
		if len(c.want) > 0 && len(got[key(nra, "scsi0:0")]) != len(c.want) {
			t.Errorf("%s: values %v", c.name, got)
		}
	}

	// csv: sampleInfoCSV "interval,timestamp,...", values comma-separated
	csv, ok := e.queryPerf(types.PerfQuerySpec{Entity: vm1, IntervalId: 20, Format: "csv", MetricId: all})[0].(*types.PerfEntityMetricCSV)
	if !ok {
		t.Fatalf("csv answer is not PerfEntityMetricCSV")
	}
	if want := "20,2026-11-27T10:00:20Z,20,2026-11-27T10:00:40Z"; csv.SampleInfoCSV != want {
		t.Errorf("sampleInfoCSV %q, want %q", csv.SampleInfoCSV, want)
	}
	gotCSV := map[string]string{}
	for _, v := range csv.Value {
		gotCSV[key(v.Id.CounterId, v.Id.Instance)] = v.Value
	}
	if want := map[string]string{key(nra, "scsi0:0"): "120,130", key(nra, "scsi0:1"): "30,40", key(trl, "scsi0:0"): "7,8", key(trl, "scsi0:1"): "-1,-5"}; !reflect.DeepEqual(gotCSV, want) {
		t.Errorf("csv values %v, want %v", gotCSV, want)
	}

	// the host's datastore counters, by the datastore's UUID
	times, got = series(t, e.queryPerf(types.PerfQuerySpec{Entity: h1, IntervalId: 20,
		MetricId: []types.PerfMetricId{{CounterId: iops, Instance: "*"}, {CounterId: dsrl, Instance: uuid1}}})[0])
	if want := map[string][]int64{key(iops, uuid1): {300, 310}, key(dsrl, uuid1): {1, -1}}; len(times) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("h1: %v %v, want %v", times, got, want)
	}

	// one call mixing ours and stock keeps the order; stock answers cpu.usage.average, an entity
	// without data gets an empty answer, an interval other than 20 none of ours
	vm2 := e.ref("VirtualMachine", "vm2")
	res := e.queryPerf(
		types.PerfQuerySpec{Entity: vm1, IntervalId: 20, MaxSample: 3, MetricId: []types.PerfMetricId{{CounterId: k["cpu.usage.average"]}}},
		types.PerfQuerySpec{Entity: vm1, IntervalId: 20, MetricId: all},
		types.PerfQuerySpec{Entity: vm2, IntervalId: 20, MetricId: all},
		types.PerfQuerySpec{Entity: vm1, IntervalId: 300, MetricId: all},
		// (stock makes a sample per 20 s of the past year unless maxSample limits it)
		types.PerfQuerySpec{Entity: vm1, IntervalId: 20, MaxSample: 2, MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "*"}, {CounterId: k["cpu.usage.average"]}}},
	)
	if len(res) != 5 {
		t.Fatalf("%d answers", len(res))
	}
	times, got = series(t, res[0])
	if len(times) != 3 || len(got) != 1 || len(got[key(k["cpu.usage.average"], "")]) != 3 {
		t.Errorf("stock cpu.usage.average: %v %v", times, got)
	}
	if times, got = series(t, res[1]); len(times) != 2 || len(got) != 4 {
		t.Errorf("ours in a mixed call: %v %v", times, got)
	}
	for i, r := range res[2:4] {
		em := r.(*types.PerfEntityMetric)
		if len(em.SampleInfo) != 0 || len(em.Value) != 0 {
			t.Errorf("answer %d: %+v, want empty", i+2, em)
		}
	}
	if res[2].GetPerfEntityMetricBase().Entity != vm2 {
		t.Errorf("empty answer's entity %v", res[2].GetPerfEntityMetricBase().Entity)
	}
	if times, _ = series(t, res[4]); len(times) != 2 || times[0].Equal(t1) {
		t.Errorf("a spec mixing a stock counter should go to stock, got our samples")
	}

	// a newer sample; not newer is a conflict naming the entity, and nothing of the body is stored
	t3 := t2.Add(20 * time.Second)
	st, msg := postPerf(t, e.s.URL, sample(t3, []jsonObj{
		{"vm": "vm2", "disks": []jsonObj{{"instance": "scsi0:0", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 1}}}},
		{"vm": "vm1", "disks": []jsonObj{{"instance": "scsi0:0", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 1}}}},
	}, []jsonObj{{"host": "h1", "datastores": []jsonObj{{"datastore": "ds1", "counters": jsonObj{}}}}}))
	if st != http.StatusNoContent {
		t.Fatalf("publish 3: %d %s", st, msg)
	}
	st, msg = postPerf(t, e.s.URL, sample(t3, []jsonObj{
		{"vm": "vm2", "disks": []jsonObj{{"instance": "scsi0:0", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 2}}}},
	}, nil))
	if st != http.StatusConflict || !strings.Contains(msg, "vms[0].vm") || !strings.Contains(msg, `"vm2"`) {
		t.Errorf("same timestamp again: %d %s", st, msg)
	}
	_, got = series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm2, MetricId: all})[0])
	if want := map[string][]int64{key(nra, "scsi0:0"): {1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("vm2 after the conflict: %v, want %v", got, want)
	}
}

func TestPerfRejectsBadBodies(t *testing.T) {
	e := start(t, world, Options{RateMBps: 0})
	ts := time.Date(2026, 11, 27, 10, 0, 20, 0, time.UTC)
	good := jsonObj{"vm": "vm1", "disks": []jsonObj{{"instance": "scsi0:0", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 5}}}}
	disk := func(d jsonObj) []jsonObj { return []jsonObj{good, {"vm": "vm2", "disks": []jsonObj{d}}} }
	ds := func(d jsonObj) []jsonObj { return []jsonObj{{"host": "h2", "datastores": []jsonObj{d}}} }
	cases := []struct {
		body   interface{}
		status int
		want   string
	}{
		{`{"interval": 20}`, 400, "timestamp: missing"},
		{`{"timestamp": "yesterday", "interval": 20}`, 400, "timestamp:"},
		{jsonObj{"timestamp": "2026-11-27T10:00:20Z", "interval": 300}, 400, "interval: 300"},
		{jsonObj{"timestamp": "2026-11-27T10:00:20Z"}, 400, "interval: missing"},
		{jsonObj{"timestamp": "2026-11-27T10:00:20Z", "interval": 20, "extra": 1}, 400, `unknown field "extra"`},
		{`{"timestamp": "2026-11-27T10:00:20Z", "interval": 20`, 400, "body:"},
		{sample(ts, []jsonObj{good, {"vm": "x"}}, nil), 400, `vms[1].vm: no VirtualMachine named "x"`},
		{sample(ts, []jsonObj{good, good}, nil), 400, "vms[1].vm: VirtualMachine \"vm1\""},
		{sample(ts, disk(jsonObj{"key": 2005}), nil), 400, `vms[1].disks[0].key: VM "vm2" has no disk 2005`},
		{sample(ts, disk(jsonObj{"key": 2000, "instance": "scsi0:0"}), nil), 400, "vms[1].disks[0]: give exactly one of key and instance"},
		{sample(ts, disk(jsonObj{}), nil), 400, "vms[1].disks[0]: give exactly one of key and instance"},
		{sample(ts, disk(jsonObj{"instance": ""}), nil), 400, "vms[1].disks[0].instance: empty"},
		{sample(ts, disk(jsonObj{"instance": "a", "counters": jsonObj{"virtualDisk.nope.average": 1}}), nil), 400, `vms[1].disks[0].counters: unknown counter "virtualDisk.nope.average"`},
		{sample(ts, disk(jsonObj{"instance": "a", "counters": jsonObj{"cpu.usage.average": 1}}), nil), 400, `vms[1].disks[0].counters: "cpu.usage.average" is not a virtualDisk counter`},
		{sample(ts, disk(jsonObj{"instance": "a", "counters": jsonObj{"virtualDisk.read.average": 1.5}}), nil), 400, `vms[1].disks[0].counters["virtualDisk.read.average"]: 1.5 is not an integer`},
		{sample(ts, disk(jsonObj{"instance": "a", "counters": jsonObj{"virtualDisk.read.average": 1e30}}), nil), 400, `vms[1].disks[0].counters["virtualDisk.read.average"]`},
		{sample(ts, []jsonObj{good, {"vm": "vm2", "disks": []jsonObj{{"instance": "scsi0:0"}, {"instance": "scsi0:0"}}}}, nil), 400, `vms[1].disks[1]: instance "scsi0:0" is already given in vms[1].disks[0]`},
		{sample(ts, []jsonObj{good}, []jsonObj{{"host": "nohost"}}), 400, `hosts[0].host: no HostSystem named "nohost"`},
		{sample(ts, []jsonObj{good}, ds(jsonObj{"datastore": "small", "counters": jsonObj{}})), 400, `hosts[0].datastores[0].datastore: host "h2" does not mount datastore "small"`},
		{sample(ts, []jsonObj{good}, ds(jsonObj{"datastore": "nods"})), 400, `hosts[0].datastores[0].datastore: no Datastore named "nods"`},
		{sample(ts, []jsonObj{good}, ds(jsonObj{"datastore": "ds1", "counters": jsonObj{"datastore.nope.average": 1}})), 400, `hosts[0].datastores[0].counters: unknown counter "datastore.nope.average"`},
		{sample(ts, []jsonObj{good}, ds(jsonObj{"datastore": "ds1", "counters": jsonObj{"virtualDisk.read.average": 1}})), 400, `hosts[0].datastores[0].counters: "virtualDisk.read.average" is not a datastore counter`},
		{sample(ts, []jsonObj{good}, ds(jsonObj{"key": 1})), 400, `unknown field "key"`},
	}
	for i, c := range cases {
		st, msg := postPerf(t, e.s.URL, c.body)
		t.Logf("%d %s", st, msg)
		if st != c.status || !strings.Contains(msg, c.want) {
			t.Errorf("case %d: %d %q, want %d containing %q", i, st, msg, c.status, c.want)
		}
	}
	// nothing stored: no answer has data
	k := e.counterKeys()
	for _, ref := range []types.ManagedObjectReference{e.ref("VirtualMachine", "vm1"), e.ref("VirtualMachine", "vm2")} {
		times, got := series(t, e.queryPerf(types.PerfQuerySpec{Entity: ref, MetricId: []types.PerfMetricId{{CounterId: k["virtualDisk.numberReadAveraged.average"], Instance: "*"}}})[0])
		if len(times) != 0 || len(got) != 0 {
			t.Errorf("%s has data after rejected bodies: %v %v", ref, times, got)
		}
	}
	e.s.perf.store.mu.RLock()
	n := len(e.s.perf.store.entities)
	e.s.perf.store.mu.RUnlock()
	if n != 0 {
		t.Errorf("%d entities stored after rejected bodies", n)
	}

	// wrong method and content type
	a := *e.s.URL
	a.User, a.Path = nil, "/opensdrs/perf"
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: insecureTLS()}}
	if res, err := c.Get(a.String()); err != nil || res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %v %v", res, err)
	}
	if res, err := c.PostForm(a.String(), url.Values{"x": {"1"}}); err != nil || res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("form POST: %v %v", res, err)
	}
}

func TestPerfAvailableMetrics(t *testing.T) {
	e := start(t, world, Options{RateMBps: 0})
	k := e.counterKeys()
	pm := *e.c.ServiceContent.PerfManager
	avail := func(ref types.ManagedObjectReference, interval int32) map[types.PerfMetricId]bool {
		res, err := methods.QueryAvailablePerfMetric(e.ctx, e.c.Client, &types.QueryAvailablePerfMetric{This: pm, Entity: ref, IntervalId: interval})
		if err != nil {
			t.Fatal(err)
		}
		out := map[types.PerfMetricId]bool{}
		for _, id := range res.Returnval {
			out[id] = true
		}
		return out
	}
	vm := avail(e.ref("VirtualMachine", "vm1"), 20)
	for _, name := range []string{"virtualDisk.numberReadAveraged.average", "virtualDisk.readLatencyUS.latest", "virtualDisk.largeSeeks.latest"} {
		for _, inst := range []string{"scsi0:0", "scsi0:1"} {
			if !vm[types.PerfMetricId{CounterId: k[name], Instance: inst}] {
				t.Errorf("vm1 lacks %s %s", name, inst)
			}
		}
		if vm[types.PerfMetricId{CounterId: k[name], Instance: "scsi0:2"}] {
			t.Errorf("vm1 has a third disk for %s", name)
		}
	}
	if !vm[types.PerfMetricId{CounterId: k["cpu.usage.average"]}] {
		t.Errorf("vm1 lost stock's cpu.usage.average")
	}
	host := avail(e.ref("HostSystem", "h1"), 0)
	for _, d := range []string{"ds1", "ds2", "small"} {
		if !host[types.PerfMetricId{CounterId: k["datastore.datastoreIops.average"], Instance: e.dsUUID(d)}] {
			t.Errorf("h1 lacks datastoreIops for %s (%s)", d, e.dsUUID(d))
		}
	}
	if host := avail(e.ref("HostSystem", "h2"), 0); host[types.PerfMetricId{CounterId: k["datastore.datastoreIops.average"], Instance: e.dsUUID("small")}] {
		t.Errorf("h2 lists small, which it does not mount")
	}
}

func TestPerfOmitCounter(t *testing.T) {
	if _, err := Start(nil, Options{PerfOmitCounters: []string{"virtualDisk.nope.latest"}}); err == nil || !strings.Contains(err.Error(), `"virtualDisk.nope.latest"`) {
		t.Errorf("unknown counter: %v", err)
	}
	all := e0CounterKeys(t)
	omit := "virtualDisk.readLatencyUS.latest"
	e := start(t, world, Options{RateMBps: 0, PerfOmitCounters: []string{omit}})
	k := e.counterKeys()
	if _, ok := k[omit]; ok {
		t.Fatalf("%s still in perfCounter", omit)
	}
	if _, ok := k["virtualDisk.writeLatencyUS.latest"]; !ok {
		t.Fatalf("writeLatencyUS omitted too")
	}
	var pm mo.PerformanceManager
	if err := e.c.RetrieveOne(e.ctx, *e.c.ServiceContent.PerfManager, []string{"perfCounter"}, &pm); err != nil {
		t.Fatal(err)
	}
	for _, c := range pm.PerfCounter {
		if c.Key == all[omit] {
			t.Fatalf("perfCounter still has key %d", c.Key)
		}
	}
	// the publisher need not know: the counter is accepted and discarded
	vm1 := e.ref("VirtualMachine", "vm1")
	if st, msg := postPerf(t, e.s.URL, sample(time.Now(), []jsonObj{{"vm": "vm1", "disks": []jsonObj{
		{"instance": "scsi0:0", "counters": jsonObj{omit: 900, "virtualDisk.writeLatencyUS.latest": 800}}}}}, nil)); st != http.StatusNoContent {
		t.Fatalf("publish: %d %s", st, msg)
	}
	res, err := methods.QueryAvailablePerfMetric(e.ctx, e.c.Client, &types.QueryAvailablePerfMetric{This: *e.c.ServiceContent.PerfManager, Entity: vm1, IntervalId: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range res.Returnval {
		if id.CounterId == all[omit] {
			t.Fatalf("QueryAvailablePerfMetric lists the omitted counter: %+v", id)
		}
	}
	_, got := series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm1, MetricId: []types.PerfMetricId{{CounterId: k["virtualDisk.writeLatencyUS.latest"], Instance: "*"}}})[0])
	if want := map[string][]int64{fmt.Sprintf("%d/scsi0:0", k["virtualDisk.writeLatencyUS.latest"]): {800}}; !reflect.DeepEqual(got, want) {
		t.Errorf("kept counter: %v", got)
	}
	if _, err := e.queryPerfErr(types.PerfQuerySpec{Entity: vm1, MetricId: []types.PerfMetricId{{CounterId: all[omit], Instance: "*"}}}); err == nil || !strings.Contains(err.Error(), "querySpec.metricId") {
		t.Errorf("QueryPerf of the omitted counter: %v", err)
	}
}

// e0CounterKeys: every counter of the stock list, name -> key.
func e0CounterKeys(t *testing.T) map[string]int32 {
	c, err := newPerfCounters(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int32{}
	for name, p := range c.byName {
		out[name] = p.Key
	}
	return out
}

func TestPerfRetentionAndRemoval(t *testing.T) {
	e := start(t, world, Options{RateMBps: 0})
	k := e.counterKeys()
	nra := k["virtualDisk.numberReadAveraged.average"]
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for i := 0; i < perfKeep+5; i++ {
		vms := []jsonObj{{"vm": "vm1", "disks": []jsonObj{{"instance": "scsi0:0", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": i}}}}}
		if i == 0 { // scsi0:1 only in the first sample: gone once it leaves the window
			vms[0]["disks"] = append(vms[0]["disks"].([]jsonObj), jsonObj{"instance": "scsi0:1", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": 1}})
		}
		vms = append(vms, jsonObj{"vm": "vm2", "disks": []jsonObj{}})
		if st, msg := postPerf(t, e.s.URL, sample(t0.Add(time.Duration(i)*20*time.Second), vms, nil)); st != http.StatusNoContent {
			t.Fatalf("publish %d: %d %s", i, st, msg)
		}
	}
	times, got := series(t, e.queryPerf(types.PerfQuerySpec{Entity: e.ref("VirtualMachine", "vm1"), MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "*"}}})[0])
	if len(times) != perfKeep || !times[0].Equal(t0.Add(5*20*time.Second)) {
		t.Fatalf("%d samples from %v, want %d from the 6th", len(times), times[0], perfKeep)
	}
	vals := got[fmt.Sprintf("%d/scsi0:0", nra)]
	if len(got) != 1 || len(vals) != perfKeep || vals[0] != 5 || vals[perfKeep-1] != perfKeep+4 {
		t.Errorf("series %d, scsi0:0 %v", len(got), vals)
	}

	// a VM destroyed loses its samples
	vm2 := e.ref("VirtualMachine", "vm2")
	e.s.perf.store.mu.RLock()
	_, had := e.s.perf.store.entities[vm2]
	e.s.perf.store.mu.RUnlock()
	task, err := e.vm("vm2").Destroy(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Wait(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.s.perf.store.mu.RLock()
	_, has := e.s.perf.store.entities[vm2]
	e.s.perf.store.mu.RUnlock()
	if !had || has {
		t.Errorf("vm2 samples before destroy %v, after %v", had, has)
	}
	// and a spec for it gets no answer (only entities that can be resolved are answered)
	res := e.queryPerf(types.PerfQuerySpec{Entity: vm2, MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "*"}}})
	if len(res) != 0 {
		t.Errorf("answers for a destroyed VM: %d", len(res))
	}
}

// TestPerfScale publishes periods of 3,000 VMs x 3 disks x 15 virtualDisk counters, each in one
// POST, and reads each back with QueryPerf, csv, in batches of 250 specs, as the product does,
// logging the times. Building the 3,000 VMs takes the stock simulator about two minutes, so it runs
// only when asked:
//
//	OPENSDRS_PERF_SCALE=3 go test -run TestPerfScale -v    # 3 periods
func TestPerfScale(t *testing.T) {
	periods, _ := strconv.Atoi(os.Getenv("OPENSDRS_PERF_SCALE"))
	if periods <= 0 {
		t.Skip("set OPENSDRS_PERF_SCALE=<periods> to run")
	}
	b := t
	const nVMs, batch = 3000, 250
	counters := []string{
		"virtualDisk.numberReadAveraged.average", "virtualDisk.numberWriteAveraged.average",
		"virtualDisk.totalReadLatency.average", "virtualDisk.totalWriteLatency.average",
		"virtualDisk.readLatencyUS.latest", "virtualDisk.writeLatencyUS.latest",
		"virtualDisk.readOIO.latest", "virtualDisk.writeOIO.latest",
		"virtualDisk.read.average", "virtualDisk.write.average",
		"virtualDisk.readIOSize.latest", "virtualDisk.writeIOSize.latest",
		"virtualDisk.smallSeeks.latest", "virtualDisk.mediumSeeks.latest", "virtualDisk.largeSeeks.latest",
	}
	simMu.Lock()
	defer simMu.Unlock()
	setup := time.Now()
	model := simulator.VPX()
	model.Machine = nVMs / 2 // the standalone host and the cluster: 2 x Machine VMs (stock creates them slowly: minutes)
	s, err := Start(model, Options{TLS: true, RateMBps: 0, WatchEvery: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	c, err := govmomi.NewClient(ctx, s.URL, true)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = c.Logout(ctx) }()

	// the VMs and their first disk's key, as the publisher learns them from the inventory
	type vmInfo struct {
		ref  types.ManagedObjectReference
		name string
		key  int32
	}
	var vms []vmInfo
	sctx := simulator.SpoofContext()
	for _, e := range simulator.Map.All("VirtualMachine") {
		vm := e.(*simulator.VirtualMachine)
		sctx.WithLock(vm, func() {
			for _, d := range vm.Config.Hardware.Device {
				if disk, ok := d.(*types.VirtualDisk); ok {
					vms = append(vms, vmInfo{vm.Self, vm.Name, disk.Key})
					break
				}
			}
		})
	}
	if len(vms) < nVMs {
		b.Fatalf("%d VMs, want %d", len(vms), nVMs)
	}
	vms = vms[:nVMs]
	byName, err := performance.NewManager(c.Client).CounterInfoByName(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var ids []types.PerfMetricId
	for _, name := range counters {
		ids = append(ids, types.PerfMetricId{CounterId: byName[name].Key, Instance: "*"})
	}
	b.Logf("setup: %d VMs in %v", len(vms), time.Since(setup).Round(time.Millisecond))

	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	var pubTotal, readTotal time.Duration
	for it := 0; it < periods; it++ {
		ts := t0.Add(time.Duration(it+1) * 20 * time.Second)
		// the publisher's body: the first disk by key, the others by instance
		type disk struct {
			Key      *int32           `json:"key,omitempty"`
			Instance string           `json:"instance,omitempty"`
			Counters map[string]int64 `json:"counters"`
		}
		type vmBody struct {
			VM    string `json:"vm"`
			Disks []disk `json:"disks"`
		}
		body := struct {
			Timestamp string   `json:"timestamp"`
			Interval  int      `json:"interval"`
			VMs       []vmBody `json:"vms"`
		}{ts.Format(time.RFC3339Nano), 20, nil}
		for i, v := range vms {
			vb := vmBody{VM: v.name}
			for d := 0; d < 3; d++ {
				cs := map[string]int64{}
				for j, name := range counters {
					cs[name] = int64(it*1000 + i + d*100 + j)
				}
				dk := disk{Counters: cs}
				if d == 0 {
					key := v.key
					dk.Key = &key
				} else {
					dk.Instance = fmt.Sprintf("scsi0:%d", d+1)
				}
				vb.Disks = append(vb.Disks, dk)
			}
			body.VMs = append(body.VMs, vb)
		}
		data, err := json.Marshal(body)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if st, msg := postPerf(b, s.URL, string(data)); st != http.StatusNoContent {
			b.Fatalf("publish: %d %s", st, msg)
		}
		pub := time.Since(start)

		start = time.Now()
		prev := ts.Add(-20 * time.Second)
		series := 0
		for lo := 0; lo < len(vms); lo += batch {
			var specs []types.PerfQuerySpec
			for _, v := range vms[lo:min(lo+batch, len(vms))] {
				specs = append(specs, types.PerfQuerySpec{Entity: v.ref, StartTime: &prev, IntervalId: 20, Format: "csv", MetricId: ids})
			}
			res, err := methods.QueryPerf(ctx, c.Client, &types.QueryPerf{This: *c.ServiceContent.PerfManager, QuerySpec: specs})
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range res.Returnval {
				m := r.(*types.PerfEntityMetricCSV)
				if m.SampleInfoCSV != "20,"+ts.Format(time.RFC3339) {
					b.Fatalf("%s: sampleInfoCSV %q", m.Entity, m.SampleInfoCSV)
				}
				series += len(m.Value)
			}
		}
		read := time.Since(start)
		if series != len(vms)*3*len(counters) {
			b.Fatalf("read %d series, want %d", series, len(vms)*3*len(counters))
		}
		pubTotal += pub
		readTotal += read
		b.Logf("period %d: body %.1f MB, publish %v, read %d series in %d QueryPerf calls %v, total %v",
			it+1, float64(len(data))/1e6, pub.Round(time.Millisecond), series, (len(vms)+batch-1)/batch, read.Round(time.Millisecond), (pub + read).Round(time.Millisecond))
	}
	b.Logf("mean of %d periods: publish %v, read %v", periods, (pubTotal / time.Duration(periods)).Round(time.Millisecond), (readTotal / time.Duration(periods)).Round(time.Millisecond))
}

// Publishing and querying at once (run with -race to check the store's locking).
func TestPerfConcurrentPublishAndQuery(t *testing.T) {
	e := start(t, world, Options{RateMBps: 0})
	nra := e.counterKeys()["virtualDisk.numberReadAveraged.average"]
	vm1 := e.ref("VirtualMachine", "vm1")
	stop := make(chan struct{})
	errs := make(chan error, 2)
	for g := 0; g < 2; g++ {
		go func() {
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				spec := types.PerfQuerySpec{Entity: vm1, Format: "csv", MaxSample: 3, MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "*"}}}
				if _, err := methods.QueryPerf(e.ctx, e.c.Client, &types.QueryPerf{This: *e.c.ServiceContent.PerfManager, QuerySpec: []types.PerfQuerySpec{spec}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 30; i++ {
		body := sample(t0.Add(time.Duration(i)*20*time.Second), []jsonObj{{"vm": "vm1", "disks": []jsonObj{
			{"instance": "scsi0:0", "counters": jsonObj{"virtualDisk.numberReadAveraged.average": i}}}}}, nil)
		if st, msg := postPerf(t, e.s.URL, body); st != http.StatusNoContent {
			t.Fatalf("publish %d: %d %s", i, st, msg)
		}
	}
	close(stop)
	for g := 0; g < 2; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	_, got := series(t, e.queryPerf(types.PerfQuerySpec{Entity: vm1, MaxSample: 1, MetricId: []types.PerfMetricId{{CounterId: nra, Instance: "scsi0:0"}}})[0])
	if v := got[fmt.Sprintf("%d/scsi0:0", nra)]; len(v) != 1 || v[0] != 29 {
		t.Errorf("newest value %v", v)
	}
}

// -stock keeps the stock PerformanceManager: no endpoint, no -perf-omit-counter.
func TestPerfStockMode(t *testing.T) {
	if _, err := Start(nil, Options{Stock: true, PerfOmitCounters: []string{"virtualDisk.read.average"}}); err == nil || !strings.Contains(err.Error(), "-stock") {
		t.Errorf("-stock with -perf-omit-counter: %v", err)
	}
	e := start(t, world, Options{Stock: true})
	if st, _ := postPerf(t, e.s.URL, sample(time.Now(), nil, nil)); st != http.StatusNotFound {
		t.Errorf("POST /opensdrs/perf with -stock: %d, want 404", st)
	}
	var pm mo.PerformanceManager
	if err := e.c.RetrieveOne(e.ctx, *e.c.ServiceContent.PerfManager, []string{"perfCounter"}, &pm); err != nil || len(pm.PerfCounter) == 0 {
		t.Errorf("perfCounter with -stock: %d counters, %v", len(pm.PerfCounter), err)
	}
}
