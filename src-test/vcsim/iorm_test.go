package main

import (
	"strings"
	"testing"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

func (e *env) iorm(name string) types.StorageIORMInfo {
	e.t.Helper()
	var m mo.Datastore
	if err := e.ds(name).Properties(e.ctx, e.ds(name).Reference(), []string{iormProperty}, &m); err != nil {
		e.t.Fatal(err)
	}
	if m.IormConfiguration == nil {
		e.t.Fatalf("datastore %s has no iormConfiguration", name)
	}
	return *m.IormConfiguration
}

func (e *env) configureIorm(ds *object.Datastore, spec types.StorageIORMConfigSpec) error {
	e.t.Helper()
	task, err := object.NewStorageResourceManager(e.c.Client).ConfigureDatastoreIORM(e.ctx, ds, spec, "")
	if err != nil {
		return err
	}
	return task.Wait(e.ctx)
}

// ConfigureDatastoreIORM_Task sets a datastore's SIOC congestion threshold in manual mode, keeps what
// the spec leaves unset, refuses out-of-range values naming the field with nothing changed, and
// refuses a reference that is not a datastore.
func TestConfigureDatastoreIorm(t *testing.T) {
	e := start(t, world, Options{})
	if got, want := e.iorm("ds1"), *defaultIorm(); got != want {
		t.Fatalf("initial iormConfiguration %#v, want vCenter's defaults %#v", got, want)
	}
	manual := string(types.StorageIORMThresholdModeManual)
	if err := e.configureIorm(e.ds("ds1"), types.StorageIORMConfigSpec{CongestionThresholdMode: manual, CongestionThreshold: 42}); err != nil {
		t.Fatal(err)
	}
	got := e.iorm("ds1")
	if got.CongestionThresholdMode != manual || got.CongestionThreshold != 42 || got.Enabled || got.PercentOfPeakThroughput != 90 {
		t.Fatalf("after manual 42: %#v", got)
	}
	if other := e.iorm("ds2"); other.CongestionThreshold != 30 {
		t.Fatalf("another datastore changed: %#v", other)
	}
	// enabled alone keeps the threshold and its mode
	if err := e.configureIorm(e.ds("ds1"), types.StorageIORMConfigSpec{Enabled: types.NewBool(true)}); err != nil {
		t.Fatal(err)
	}
	if got = e.iorm("ds1"); !got.Enabled || got.CongestionThreshold != 42 || got.CongestionThresholdMode != manual {
		t.Fatalf("after enabled=true: %#v", got)
	}
	for _, c := range []struct {
		spec  types.StorageIORMConfigSpec
		field string
	}{
		{types.StorageIORMConfigSpec{CongestionThresholdMode: manual, CongestionThreshold: 4}, "spec.congestionThreshold"},
		{types.StorageIORMConfigSpec{CongestionThresholdMode: manual, CongestionThreshold: 101}, "spec.congestionThreshold"},
		{types.StorageIORMConfigSpec{CongestionThresholdMode: "sometimes", CongestionThreshold: 20}, "spec.congestionThresholdMode"},
		{types.StorageIORMConfigSpec{PercentOfPeakThroughput: 40}, "spec.percentOfPeakThroughput"},
	} {
		err := e.configureIorm(e.ds("ds1"), c.spec)
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Fatalf("%#v: want InvalidArgument on %s, got %v", c.spec, c.field, err)
		}
	}
	if after := e.iorm("ds1"); after != got {
		t.Fatalf("a refused spec changed the datastore: %#v, was %#v", after, got)
	}
	pod, err := e.f.DatastoreCluster(e.ctx, "POD0")
	if err != nil {
		t.Fatal(err)
	}
	notDs := object.NewDatastore(e.c.Client, pod.Reference())
	err = e.configureIorm(notDs, types.StorageIORMConfigSpec{CongestionThresholdMode: manual, CongestionThreshold: 20})
	if err == nil || !strings.Contains(err.Error(), "ManagedObjectNotFound") && !strings.Contains(err.Error(), "not a Datastore") {
		t.Fatalf("want ManagedObjectNotFound for a pod, got %v", err)
	}
}
