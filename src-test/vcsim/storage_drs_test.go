package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

func (e *env) podConfig(name string) types.StorageDrsConfigInfo {
	e.t.Helper()
	pod, err := e.f.DatastoreCluster(e.ctx, name)
	if err != nil {
		e.t.Fatal(err)
	}
	var p mo.StoragePod
	if err := pod.Properties(e.ctx, pod.Reference(), []string{podConfigProperty}, &p); err != nil {
		e.t.Fatal(err)
	}
	if p.PodStorageDrsEntry == nil {
		e.t.Fatalf("pod %s has no podStorageDrsEntry", name)
	}
	return p.PodStorageDrsEntry.StorageDrsConfig
}

func (e *env) configure(spec types.StorageDrsConfigSpec, modify bool) error {
	e.t.Helper()
	pod, err := e.f.DatastoreCluster(e.ctx, "POD0")
	if err != nil {
		e.t.Fatal(err)
	}
	task, err := object.NewStorageResourceManager(e.c.Client).ConfigureStorageDrsForPod(e.ctx, pod, spec, modify)
	if err != nil {
		return err
	}
	return task.Wait(e.ctx)
}

func antiAffinity(name string, vms ...types.ManagedObjectReference) types.ClusterRuleSpec {
	return types.ClusterRuleSpec{ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationAdd},
		Info: &types.ClusterAntiAffinityRuleSpec{ClusterRuleInfo: types.ClusterRuleInfo{Name: name}, Vm: vms}}
}

func TestConfigureStorageDrsKeepsRulesAndVmSettings(t *testing.T) {
	e := start(t, world, Options{})
	vm1, vm2 := e.vm("vm1").Reference(), e.vm("vm2").Reference()
	spec := types.StorageDrsConfigSpec{
		PodConfigSpec: &types.StorageDrsPodConfigSpec{DefaultIntraVmAffinity: types.NewBool(true),
			Rule: []types.ClusterRuleSpec{antiAffinity("apart", vm1, vm2)}},
		VmConfigSpec: []types.StorageDrsVmConfigSpec{{
			ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationAdd},
			Info: &types.StorageDrsVmConfigInfo{Vm: &vm1, IntraVmAffinity: types.NewBool(false),
				IntraVmAntiAffinity: &types.VirtualDiskAntiAffinityRuleSpec{
					ClusterRuleInfo: types.ClusterRuleInfo{Name: "vm1-disks"}, DiskId: e.diskKeys("vm1")}}}},
	}
	if err := e.configure(spec, true); err != nil {
		t.Fatal(err)
	}
	c := e.podConfig("POD0")
	if len(c.PodConfig.Rule) != 1 {
		t.Fatalf("want 1 rule, got %d", len(c.PodConfig.Rule))
	}
	rule, ok := c.PodConfig.Rule[0].(*types.ClusterAntiAffinityRuleSpec)
	if !ok || rule.Name != "apart" || len(rule.Vm) != 2 || rule.Key == 0 || rule.Enabled == nil || !*rule.Enabled {
		t.Fatalf("rule not kept as given: %#v", c.PodConfig.Rule[0])
	}
	if len(c.VmConfig) != 1 || *c.VmConfig[0].Vm != vm1 || *c.VmConfig[0].IntraVmAffinity ||
		len(c.VmConfig[0].IntraVmAntiAffinity.DiskId) != 2 {
		t.Fatalf("vm config not kept: %#v", c.VmConfig)
	}
	if !c.PodConfig.Enabled {
		t.Fatal("modify=true cleared podConfig.enabled")
	}

	// a bad spec changes nothing and names the field
	bad := types.StorageDrsConfigSpec{PodConfigSpec: &types.StorageDrsPodConfigSpec{Rule: []types.ClusterRuleSpec{
		antiAffinity("second", vm1, vm2), antiAffinity("lonely", vm1)}}}
	err := e.configure(bad, true)
	if err == nil || !strings.Contains(err.Error(), "podConfigSpec.rule[1].info.vm") {
		t.Fatalf("want InvalidArgument podConfigSpec.rule[1].info.vm, got %v", err)
	}
	if n := len(e.podConfig("POD0").PodConfig.Rule); n != 1 {
		t.Fatalf("a refused spec changed the rules: %d", n)
	}

	// remove by key; edit a VM's settings keeps what it does not set
	remove := types.StorageDrsConfigSpec{PodConfigSpec: &types.StorageDrsPodConfigSpec{Rule: []types.ClusterRuleSpec{{
		ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationRemove, RemoveKey: rule.Key}}}},
		VmConfigSpec: []types.StorageDrsVmConfigSpec{{
			ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationEdit},
			Info:            &types.StorageDrsVmConfigInfo{Vm: &vm1, Behavior: "manual"}}}}
	if err := e.configure(remove, true); err != nil {
		t.Fatal(err)
	}
	c = e.podConfig("POD0")
	if len(c.PodConfig.Rule) != 0 || c.VmConfig[0].Behavior != "manual" || c.VmConfig[0].IntraVmAntiAffinity == nil {
		t.Fatalf("after remove and edit: %#v %#v", c.PodConfig.Rule, c.VmConfig)
	}

	// modify=false: the configuration is the spec, nothing else
	if err := e.configure(types.StorageDrsConfigSpec{}, false); err != nil {
		t.Fatal(err)
	}
	if c = e.podConfig("POD0"); len(c.VmConfig) != 0 {
		t.Fatalf("modify=false kept vm settings: %#v", c.VmConfig)
	}
}

func TestConfigureStorageDrsRefusesUnknownDisks(t *testing.T) {
	e := start(t, world, Options{})
	vm2 := e.vm("vm2").Reference()
	spec := types.StorageDrsConfigSpec{VmConfigSpec: []types.StorageDrsVmConfigSpec{{
		ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationAdd},
		Info: &types.StorageDrsVmConfigInfo{Vm: &vm2, IntraVmAntiAffinity: &types.VirtualDiskAntiAffinityRuleSpec{
			DiskId: append(e.diskKeys("vm2"), 999)}}}}}
	err := e.configure(spec, true)
	if err == nil || !strings.Contains(err.Error(), "vmConfigSpec[0].info.intraVmAntiAffinity.diskId") {
		t.Fatalf("want InvalidArgument on diskId, got %v", err)
	}
	if c := e.podConfig("POD0"); len(c.VmConfig) != 0 {
		t.Fatalf("a refused spec changed the vm settings: %#v", c.VmConfig)
	}
}

func (e *env) diskKeys(vm string) []int32 {
	e.t.Helper()
	devices, err := e.vm(vm).Device(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var keys []int32
	for _, d := range devices.SelectByType((*types.VirtualDisk)(nil)) {
		keys = append(keys, d.GetVirtualDevice().Key)
	}
	return keys
}

func TestConfigureStorageDrsPodThresholds(t *testing.T) {
	e := start(t, world, Options{})
	held, err := podConfigSpec(e.podConfig("POD0").PodConfig,
		"spaceUtilizationThreshold=70,ioLatencyThreshold=25,ioLoadBalanceEnabled=true,ioLoadBalanceAutomationMode=manual")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.configure(types.StorageDrsConfigSpec{PodConfigSpec: held}, true); err != nil {
		t.Fatal(err)
	}
	c := e.podConfig("POD0").PodConfig
	if c.SpaceLoadBalanceConfig == nil || c.SpaceLoadBalanceConfig.SpaceUtilizationThreshold != 70 ||
		c.IoLoadBalanceConfig == nil || c.IoLoadBalanceConfig.IoLatencyThreshold != 25 || !c.IoLoadBalanceEnabled ||
		c.AutomationOverrides == nil || c.AutomationOverrides.IoLoadBalanceAutomationMode != "manual" {
		t.Fatalf("pod config not applied: %#v", c)
	}
	// a second change starts from what the pod holds: the latency threshold stays
	next, err := podConfigSpec(c, "minSpaceUtilizationDifference=8")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.configure(types.StorageDrsConfigSpec{PodConfigSpec: next}, true); err != nil {
		t.Fatal(err)
	}
	if c = e.podConfig("POD0").PodConfig; c.SpaceLoadBalanceConfig.SpaceUtilizationThreshold != 70 ||
		c.SpaceLoadBalanceConfig.MinSpaceUtilizationDifference != 8 || c.IoLoadBalanceConfig.IoLatencyThreshold != 25 {
		t.Fatalf("a later change lost earlier settings: %#v %#v", c.SpaceLoadBalanceConfig, c.IoLoadBalanceConfig)
	}
	for pairs, field := range map[string]string{
		"spaceUtilizationThreshold=30":         "spaceLoadBalanceConfig.spaceUtilizationThreshold",
		"minSpaceUtilizationDifference=51":     "spaceLoadBalanceConfig.minSpaceUtilizationDifference",
		"ioLatencyThreshold=4":                 "ioLoadBalanceConfig.ioLatencyThreshold",
		"ioLoadImbalanceThreshold=101":         "ioLoadBalanceConfig.ioLoadImbalanceThreshold",
		"spaceThresholdMode=vibes":             "spaceLoadBalanceConfig.spaceThresholdMode",
		"spaceLoadBalanceAutomationMode=often": "automationOverrides.spaceLoadBalanceAutomationMode",
	} {
		bad, err := podConfigSpec(c, pairs)
		if err != nil {
			t.Fatal(err)
		}
		err = e.configure(types.StorageDrsConfigSpec{PodConfigSpec: bad}, true)
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Fatalf("%s: want InvalidArgument on %s, got %v", pairs, field, err)
		}
	}
	if after := e.podConfig("POD0").PodConfig; *after.SpaceLoadBalanceConfig != *c.SpaceLoadBalanceConfig ||
		*after.IoLoadBalanceConfig != *c.IoLoadBalanceConfig || *after.AutomationOverrides != *c.AutomationOverrides {
		t.Fatalf("a refused spec changed the pod: %#v", after)
	}
	if _, err := podConfigSpec(c, "loadBalanceInterval=60"); err == nil {
		t.Fatal("an unknown property was taken")
	}
}

// The pod's advanced option "Ignore affinity rules for maintenance" (podConfig.option) is added,
// edited and removed by key; a value other than 0 or 1, an edit of an option the pod lacks, or a
// removal of one it lacks is InvalidArgument naming the field, and changes nothing.
func TestConfigureStorageDrsAdvancedOptions(t *testing.T) {
	e := start(t, world, Options{})
	held := func() string {
		for _, o := range e.podConfig("POD0").PodConfig.Option {
			if v := o.GetOptionValue(); v.Key == ignoreAffinityForMaintenance {
				return fmt.Sprint(v.Value)
			}
		}
		return ""
	}
	set := func(value string) error {
		spec, err := podConfigSpec(e.podConfig("POD0").PodConfig, ignoreAffinityForMaintenance+"="+value)
		if err != nil {
			t.Fatal(err)
		}
		return e.configure(types.StorageDrsConfigSpec{PodConfigSpec: spec}, true)
	}
	if err := set("1"); err != nil || held() != "1" {
		t.Fatalf("add: %v, held %q", err, held())
	}
	if err := set("0"); err != nil || held() != "0" {
		t.Fatalf("edit: %v, held %q", err, held())
	}
	if err := set("yes"); err == nil || !strings.Contains(err.Error(), "podConfigSpec.option[0].option.value") || held() != "0" {
		t.Fatalf("value yes: %v, held %q", err, held())
	}
	add := types.StorageDrsOptionSpec{ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationAdd},
		Option: &types.OptionValue{Key: ignoreAffinityForMaintenance, Value: "1"}}
	err := e.configure(types.StorageDrsConfigSpec{PodConfigSpec: &types.StorageDrsPodConfigSpec{Option: []types.StorageDrsOptionSpec{add}}}, true)
	if err == nil || !strings.Contains(err.Error(), "podConfigSpec.option[0].option.key") {
		t.Fatalf("adding a held key: %v", err)
	}
	remove := types.StorageDrsOptionSpec{ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationRemove,
		RemoveKey: ignoreAffinityForMaintenance}}
	if err := e.configure(types.StorageDrsConfigSpec{PodConfigSpec: &types.StorageDrsPodConfigSpec{Option: []types.StorageDrsOptionSpec{remove}}}, true); err != nil || held() != "" {
		t.Fatalf("remove: %v, held %q", err, held())
	}
	err = e.configure(types.StorageDrsConfigSpec{PodConfigSpec: &types.StorageDrsPodConfigSpec{Option: []types.StorageDrsOptionSpec{remove}}}, true)
	if err == nil || !strings.Contains(err.Error(), "podConfigSpec.option[0].removeKey") {
		t.Fatalf("removing a key the pod lacks: %v", err)
	}
}

// A destroyed VM's settings leave the pod's configuration, as vCenter drops them; the others stay.
func TestADestroyedVmsSettingsLeaveThePod(t *testing.T) {
	three := world
	three.VMs = append(append([]VMSpec(nil), world.VMs...), VMSpec{Name: "vm3", Host: "h1", Disks: []DiskSpec{
		{Name: "disk1", SizeGB: 1, Datastore: "ds1"}}})
	e := start(t, three, Options{})
	vm1, vm2, vm3 := e.vm("vm1").Reference(), e.vm("vm2").Reference(), e.vm("vm3").Reference()
	behavior := func(vm *types.ManagedObjectReference, b string) types.StorageDrsVmConfigSpec {
		return types.StorageDrsVmConfigSpec{ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationAdd},
			Info: &types.StorageDrsVmConfigInfo{Vm: vm, Behavior: b}}
	}
	if err := e.configure(types.StorageDrsConfigSpec{
		PodConfigSpec: &types.StorageDrsPodConfigSpec{Rule: []types.ClusterRuleSpec{
			antiAffinity("trio", vm1, vm2, vm3), antiAffinity("duo", vm2, vm3), antiAffinity("others", vm1, vm3)}},
		VmConfigSpec: []types.StorageDrsVmConfigSpec{behavior(&vm1, "manual"), behavior(&vm2, "automated")}}, true); err != nil {
		t.Fatal(err)
	}
	destroy, err := e.vm("vm2").Destroy(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := destroy.Wait(e.ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (len(e.podConfig("POD0").VmConfig) != 1 || len(e.podConfig("POD0").PodConfig.Rule) != 2) {
		time.Sleep(20 * time.Millisecond)
	}
	c := e.podConfig("POD0")
	if len(c.VmConfig) != 1 || *c.VmConfig[0].Vm != vm1 || c.VmConfig[0].Behavior != "manual" {
		t.Fatalf("after vm2 was destroyed: %#v", c.VmConfig)
	}
	members := map[string][]types.ManagedObjectReference{}
	for _, r := range c.PodConfig.Rule {
		anti := r.(*types.ClusterAntiAffinityRuleSpec)
		members[anti.Name] = anti.Vm
		if anti.Enabled == nil || !*anti.Enabled || anti.Key == 0 {
			t.Errorf("rule %s lost its settings: %#v", anti.Name, anti)
		}
	}
	want := map[string][]types.ManagedObjectReference{"trio": {vm1, vm3}, "others": {vm1, vm3}}
	if !reflect.DeepEqual(members, want) {
		t.Fatalf("rules after vm2 was destroyed (duo has one VM left and goes): %v, want %v", members, want)
	}
}
