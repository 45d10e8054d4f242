package main

import (
	"encoding/json"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/vmware/govmomi/vim25/types"
)

// A relocation held at the end of its copy until the storage behind the datastores says the
// copy is done. On a real vSphere a storage vMotion's task completes, and the disk's backing
// changes, only when the copy is done; the copy's length comes from the storage, which here is
// the testbed's emulated devices, not this process. With -relocate-hold the task waits after
// its own simulated copy (progress 99 %) until POST /opensdrs/relocations releases it, or the
// hold runs out, so vCenter never reports a disk on its destination while its IO is still
// served, and copied, on the source.
type heldRelocation struct {
	Task  string    `json:"task"`  // the RelocateVM_Task's moref value
	VM    string    `json:"vm"`    // the VM's moref value
	Since time.Time `json:"since"` // when the simulated copy ended and the hold began
	done  chan struct{}
}

type relocationHold struct {
	max  time.Duration // <= 0: no hold
	mu   sync.Mutex
	held map[string]*heldRelocation // task moref value -> the held relocation
}

func newRelocationHold(max time.Duration) *relocationHold {
	return &relocationHold{max: max, held: map[string]*heldRelocation{}}
}

// wait holds task until it is released or the hold runs out; it returns at once without a hold.
func (h *relocationHold) wait(task, vm types.ManagedObjectReference) {
	if h == nil || h.max <= 0 {
		return
	}
	e := &heldRelocation{Task: task.Value, VM: vm.Value, Since: time.Now(), done: make(chan struct{})}
	h.mu.Lock()
	h.held[task.Value] = e
	h.mu.Unlock()
	t := time.NewTimer(h.max)
	defer t.Stop()
	select {
	case <-e.done:
	case <-t.C:
	}
	h.mu.Lock()
	delete(h.held, task.Value)
	h.mu.Unlock()
}

// release ends the hold on task; false when no such relocation is held.
func (h *relocationHold) release(task string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.held[task]
	if !ok {
		return false
	}
	delete(h.held, task)
	close(e.done)
	return true
}

func (h *relocationHold) list() []heldRelocation {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]heldRelocation, 0, len(h.held))
	for _, e := range h.held {
		out = append(out, heldRelocation{Task: e.Task, VM: e.VM, Since: e.Since})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Task < out[j].Task })
	return out
}

// adminHandler serves GET /opensdrs/relocations (the held relocations, JSON) and
// POST /opensdrs/relocations with task=<task moref> (release it; 404 when not held).
func (h *relocationHold) adminHandler(w http.ResponseWriter, req *http.Request) {
	switch req.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(h.list())
	case http.MethodPost:
		task := req.FormValue("task")
		if task == "" {
			http.Error(w, "need POST task=<RelocateVM_Task moref, e.g. task-12>", http.StatusBadRequest)
			return
		}
		if !h.release(task) {
			http.Error(w, "no relocation held for task "+task, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"released": task})
	default:
		http.Error(w, "GET, or POST task=<task moref>", http.StatusMethodNotAllowed)
	}
}
