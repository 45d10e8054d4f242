package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/types"
)

// Datastore accessibility, kept in summary.accessible and host mount info:
// a datastore is accessible while its directory exists and it has not been
// marked inaccessible through the admin endpoint.

// syncAccessibility updates summary.accessible of every datastore; it returns once.
func (r *relocator) syncAccessibility() {
	ctx := simulator.SpoofContext()
	for _, e := range ctx.Map.All("Datastore") {
		ds, ok := e.(*simulator.Datastore)
		if !ok {
			continue
		}
		r.mu.Lock()
		forced := r.forced[ds.Name]
		r.mu.Unlock()
		fi, err := os.Stat(datastoreDir(ds))
		want := err == nil && fi.IsDir() && !forced
		ctx.WithLock(ds, func() {
			if ds.Summary.Accessible == want {
				return
			}
			ds.Summary.Accessible = want
			for i := range ds.Host {
				ds.Host[i].MountInfo.Accessible = types.NewBool(want)
			}
			status := types.ManagedEntityStatusGreen
			if !want {
				status = types.ManagedEntityStatusRed
			}
			ctx.Update(ds, []types.PropertyChange{
				{Name: "summary.accessible", Val: want},
				{Name: "host", Val: ds.Host},
				{Name: "overallStatus", Val: status},
			})
		})
	}
}

// watch polls, until stop is closed, what no API call changes: datastore directories (accessibility)
// datastores emptied by relocations (maintenance.go's enter tasks), VMs that stopped or started
// outside PowerOnVM_Task (their swap files, swap.go) and VMs removed (their Storage DRS settings).
func (r *relocator) watch(every time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			r.syncAccessibility()
			r.settleMaintenance()
			r.reconcileSwaps()
			forgetRemovedVms()
		}
	}
}

// adminHandler serves POST /opensdrs/datastore?name=DS with accessible=false|true
// and/or capacityGB=N (the size of the device behind a datastore created at run
// time: CreateLocalDatastore cannot say it and the stock simulator gives 10 TiB).
func (r *relocator) adminHandler(w http.ResponseWriter, req *http.Request) {
	const usage = "POST name=<datastore> and accessible=<bool> and/or capacityGB=<number>"
	if req.Method != http.MethodPost {
		http.Error(w, usage, http.StatusMethodNotAllowed)
		return
	}
	name := req.FormValue("name")
	accText, capText := req.FormValue("accessible"), req.FormValue("capacityGB")
	var acc bool
	var capGB float64
	var err error
	if accText != "" {
		acc, err = strconv.ParseBool(accText)
	}
	if err == nil && capText != "" {
		capGB, err = strconv.ParseFloat(capText, 64)
		if err == nil && !(capGB > 0) {
			err = strconv.ErrRange
		}
	}
	if name == "" || err != nil || (accText == "" && capText == "") {
		http.Error(w, "need "+usage, http.StatusBadRequest)
		return
	}
	var found *simulator.Datastore
	for _, e := range simulator.Map.All("Datastore") {
		if e.(*simulator.Datastore).Name == name {
			found = e.(*simulator.Datastore)
		}
	}
	if found == nil {
		http.Error(w, "no datastore "+name, http.StatusNotFound)
		return
	}
	out := map[string]interface{}{"name": name}
	if capText != "" {
		ctx := simulator.SpoofContext()
		capacity := gbToBytes(capGB)
		used := int64(0)
		ctx.WithLock(found, func() { used = found.Summary.Capacity - found.Summary.FreeSpace })
		if used > capacity {
			http.Error(w, "datastore "+name+" holds more than "+capText+" GB", http.StatusConflict)
			return
		}
		setDatastore(found.Self, capacity, nil)
		ctx.WithLock(found, func() {
			ctx.Update(found, []types.PropertyChange{
				{Name: "summary.capacity", Val: found.Summary.Capacity},
				{Name: "summary.freeSpace", Val: found.Summary.FreeSpace},
				{Name: "info", Val: found.Info},
			})
		})
		updatePodSummary(ctx, found)
		out["capacityBytes"] = capacity
	}
	if accText != "" {
		r.mu.Lock()
		if acc {
			delete(r.forced, name)
		} else {
			r.forced[name] = true
		}
		r.mu.Unlock()
		r.syncAccessibility()
		out["forcedInaccessible"] = !acc
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
