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

// watchAccessibility polls datastore directories until stop is closed.
func (r *relocator) watchAccessibility(every time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			r.syncAccessibility()
		}
	}
}

// adminHandler serves POST /opensdrs/datastore?name=DS&accessible=false|true.
func (r *relocator) adminHandler(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		http.Error(w, "POST name=<datastore>&accessible=<bool>", http.StatusMethodNotAllowed)
		return
	}
	name := req.FormValue("name")
	acc, err := strconv.ParseBool(req.FormValue("accessible"))
	if name == "" || err != nil {
		http.Error(w, "need name=<datastore>&accessible=<bool>", http.StatusBadRequest)
		return
	}
	found := false
	for _, e := range simulator.Map.All("Datastore") {
		if e.(*simulator.Datastore).Name == name {
			found = true
		}
	}
	if !found {
		http.Error(w, "no datastore "+name, http.StatusNotFound)
		return
	}
	r.mu.Lock()
	if acc {
		delete(r.forced, name)
	} else {
		r.forced[name] = true
	}
	r.mu.Unlock()
	r.syncAccessibility()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]interface{}{"name": name, "forcedInaccessible": !acc})
}
