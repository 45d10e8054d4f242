package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/vmware/govmomi/vim25/types"
)

// heldList GETs /opensdrs/relocations.
func heldList(t *testing.T, u *url.URL) []heldRelocation {
	t.Helper()
	a := *u
	a.User = nil
	a.Path = "/opensdrs/relocations"
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: insecureTLS()}}
	res, err := c.Get(a.String())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out []heldRelocation
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func releaseHeld(t *testing.T, u *url.URL, task string) int {
	t.Helper()
	a := *u
	a.User = nil
	a.Path = "/opensdrs/relocations"
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: insecureTLS()}}
	res, err := c.PostForm(a.String(), url.Values{"task": {task}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// With -relocate-hold the disk stays on its source in vCenter, and the task runs, until the
// storage says the copy is done; then the relocation commits as without a hold.
func TestHeldRelocationCommitsWhenReleased(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000, RelocateHold: time.Minute})
	vm := e.vm("vm1")
	d1 := diskOn(e.vmState(vm), "disk1")
	ds1, ds2 := e.ds("ds1").Reference(), e.ds("ds2").Reference()
	type result struct {
		info *types.TaskInfo
		err  error
	}
	done := make(chan result, 1)
	go func() {
		info, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Disk: []types.VirtualMachineRelocateSpecDiskLocator{{DiskId: d1.Key, Datastore: ds2}}})
		done <- result{info, err}
	}()
	var held []heldRelocation
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if held = heldList(t, e.s.URL); len(held) == 1 {
			break
		}
	}
	if len(held) != 1 || held[0].VM != vm.Reference().Value {
		t.Fatalf("held relocations %+v, want one of %s", held, vm.Reference().Value)
	}
	time.Sleep(300 * time.Millisecond) // held: neither finished nor committed
	select {
	case r := <-done:
		t.Fatalf("the task ended while held: %+v %v", r.info, r.err)
	default:
	}
	if d := diskOn(e.vmState(vm), "disk1"); d.DS != ds1 {
		t.Fatalf("disk1 on %s while held, want still on ds1", d.DS)
	}
	if code := releaseHeld(t, e.s.URL, "task-none"); code != http.StatusNotFound {
		t.Errorf("releasing an unknown task: %d, want 404", code)
	}
	if code := releaseHeld(t, e.s.URL, held[0].Task); code != http.StatusOK {
		t.Fatalf("release: %d", code)
	}
	select {
	case r := <-done:
		if r.err != nil || r.info.State != types.TaskInfoStateSuccess {
			t.Fatalf("after release: %+v %v", r.info, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the task did not end after its release")
	}
	if d := diskOn(e.vmState(vm), "disk1"); d.DS != ds2 {
		t.Errorf("disk1 on %s after release, want ds2", d.DS)
	}
	if len(heldList(t, e.s.URL)) != 0 {
		t.Errorf("still held after release")
	}
}

// A hold nobody releases runs out, and the relocation then commits.
func TestHoldRunsOut(t *testing.T) {
	e := start(t, world, Options{RateMBps: 20000, RelocateHold: 400 * time.Millisecond})
	vm := e.vm("vm1")
	ds2 := e.ds("ds2").Reference()
	begin := time.Now()
	info, _, err := e.relocate(vm, types.VirtualMachineRelocateSpec{Datastore: &ds2})
	if err != nil || info.State != types.TaskInfoStateSuccess {
		t.Fatalf("%+v %v", info, err)
	}
	if took := time.Since(begin); took < 400*time.Millisecond {
		t.Errorf("took %s, less than the 400 ms hold", took)
	}
}
