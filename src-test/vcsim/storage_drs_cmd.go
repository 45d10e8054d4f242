package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// storageDrsCmd is a minimal client for the pod's Storage DRS rules (govc has no command for
// them): it issues one ConfigureStorageDrsForPod_Task with modify=true. Results are checked with
// govc object.collect.
//
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -vm-anti-affinity NAME=VM1,VM2...
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -vmdk-anti-affinity VM=DISK1,DISK2...
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -keep-together VM=true|false
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -remove-rule NAME
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -default-keep-together true|false
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -vm-behavior VM=manual|automated|disabled|default
//	vcsim sdrs-rule -u URL [-dc DC] -pod POD -pod-config PROPERTY=VALUE,...
//
// -pod-config sets the pod's settings as the vSphere Client's "Edit Storage DRS" does, by their API
// names: defaultVmBehavior, ioLoadBalanceEnabled, spaceThresholdMode, spaceUtilizationThreshold,
// freeSpaceThresholdGB, minSpaceUtilizationDifference, ioLatencyThreshold, ioLoadImbalanceThreshold,
// spaceLoadBalanceAutomationMode, ioLoadBalanceAutomationMode (an empty value: the pod's level).
//
// A DISK is the disk file's base name, its label or its key, as for vcsim relocate.
func storageDrsCmd(args []string) int {
	fs := flag.NewFlagSet("sdrs-rule", flag.ContinueOnError)
	u := fs.String("u", os.Getenv("GOVC_URL"), "simulator URL (default $GOVC_URL)")
	dcName := fs.String("dc", "", "datacenter (default: the only one)")
	podName := fs.String("pod", "", "datastore cluster (StoragePod)")
	vmAnti := fs.String("vm-anti-affinity", "", "NAME=VM1,VM2,...: a VM anti-affinity rule")
	vmdkAnti := fs.String("vmdk-anti-affinity", "", "VM=DISK1,DISK2,...: the VM's VMDK anti-affinity rule")
	keep := fs.String("keep-together", "", "VM=true|false: the VM's keep-VMDKs-together setting")
	remove := fs.String("remove-rule", "", "NAME: removes the VM anti-affinity rule of that name")
	defaultKeep := fs.String("default-keep-together", "", "true|false: the pod's \"Keep VMDKs together by default\" (defaultIntraVmAffinity)")
	behavior := fs.String("vm-behavior", "", "VM=manual|automated|disabled|default: the VM's Storage DRS automation "+
		"(default removes the VM's own settings)")
	podCfg := fs.String("pod-config", "", "PROPERTY=VALUE,...: the pod's Storage DRS settings by API name")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	given := 0
	for _, s := range []string{*vmAnti, *vmdkAnti, *keep, *remove, *defaultKeep, *behavior, *podCfg} {
		if s != "" {
			given++
		}
	}
	if *u == "" || *podName == "" || given != 1 {
		fmt.Fprintln(os.Stderr, "usage: vcsim sdrs-rule -u URL -pod POD (-vm-anti-affinity NAME=VM,VM... | "+
			"-vmdk-anti-affinity VM=DISK,DISK... | -keep-together VM=BOOL | -remove-rule NAME | -default-keep-together BOOL | -vm-behavior VM=LEVEL | -pod-config PROPERTY=VALUE,...)")
		return 2
	}
	if err := doStorageDrs(*u, *dcName, *podName, *vmAnti, *vmdkAnti, *keep, *remove, *defaultKeep, *behavior, *podCfg); err != nil {
		fmt.Fprintln(os.Stderr, "sdrs-rule:", err)
		return 1
	}
	fmt.Println("OK")
	return 0
}

func doStorageDrs(rawURL, dcName, podName, vmAnti, vmdkAnti, keep, remove, defaultKeep, behavior, podCfg string) error {
	ctx := context.Background()
	c, f, logout, err := connect(ctx, rawURL, dcName)
	if err != nil {
		return err
	}
	defer logout()
	pod, err := f.DatastoreCluster(ctx, podName)
	if err != nil {
		return err
	}
	var spec types.StorageDrsConfigSpec
	switch {
	case podCfg != "":
		var current mo.StoragePod
		if err := pod.Properties(ctx, pod.Reference(), []string{podConfigProperty}, &current); err != nil {
			return err
		}
		var held types.StorageDrsPodConfigInfo
		if current.PodStorageDrsEntry != nil {
			held = current.PodStorageDrsEntry.StorageDrsConfig.PodConfig
		}
		s, err := podConfigSpec(held, podCfg)
		if err != nil {
			return err
		}
		spec.PodConfigSpec = s
	case defaultKeep != "":
		if defaultKeep != "true" && defaultKeep != "false" {
			return fmt.Errorf("-default-keep-together %q: want true or false", defaultKeep)
		}
		spec.PodConfigSpec = &types.StorageDrsPodConfigSpec{DefaultIntraVmAffinity: types.NewBool(defaultKeep == "true")}
	case vmAnti != "":
		name, list, ok := strings.Cut(vmAnti, "=")
		if !ok || name == "" {
			return fmt.Errorf("-vm-anti-affinity %q: want NAME=VM1,VM2", vmAnti)
		}
		rule := &types.ClusterAntiAffinityRuleSpec{ClusterRuleInfo: types.ClusterRuleInfo{Name: name, Enabled: types.NewBool(true)}}
		for _, n := range strings.Split(list, ",") {
			vm, err := f.VirtualMachine(ctx, n)
			if err != nil {
				return err
			}
			rule.Vm = append(rule.Vm, vm.Reference())
		}
		spec.PodConfigSpec = &types.StorageDrsPodConfigSpec{Rule: []types.ClusterRuleSpec{{
			ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationAdd}, Info: rule}}}
	case remove != "":
		var props mo.StoragePod
		if err := pod.Properties(ctx, pod.Reference(), []string{podConfigProperty}, &props); err != nil {
			return err
		}
		var key *int32
		if props.PodStorageDrsEntry != nil {
			for _, r := range props.PodStorageDrsEntry.StorageDrsConfig.PodConfig.Rule {
				if info := r.GetClusterRuleInfo(); info.Name == remove {
					k := info.Key
					key = &k
				}
			}
		}
		if key == nil {
			return fmt.Errorf("pod %s has no rule %q", podName, remove)
		}
		spec.PodConfigSpec = &types.StorageDrsPodConfigSpec{Rule: []types.ClusterRuleSpec{{
			ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: types.ArrayUpdateOperationRemove, RemoveKey: *key}}}}
	default:
		arg := vmdkAnti + keep + behavior
		vmName, value, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("%q: want VM=VALUE", arg)
		}
		vm, err := f.VirtualMachine(ctx, vmName)
		if err != nil {
			return err
		}
		ref := vm.Reference()
		info := &types.StorageDrsVmConfigInfo{Vm: &ref}
		if behavior != "" && value == "default" {
			spec.VmConfigSpec = []types.StorageDrsVmConfigSpec{{ArrayUpdateSpec: types.ArrayUpdateSpec{
				Operation: types.ArrayUpdateOperationRemove, RemoveKey: ref}}}
			break
		}
		if behavior != "" {
			switch value {
			case "disabled":
				info.Enabled = types.NewBool(false)
			case "manual", "automated":
				info.Enabled = types.NewBool(true)
				info.Behavior = value
			default:
				return fmt.Errorf("-vm-behavior %q: want VM=manual, automated, disabled or default", behavior)
			}
		} else if keep != "" {
			if value != "true" && value != "false" {
				return fmt.Errorf("-keep-together %q: want VM=true or VM=false", keep)
			}
			info.IntraVmAffinity = types.NewBool(value == "true")
		} else {
			devices, err := vm.Device(ctx)
			if err != nil {
				return err
			}
			rule := &types.VirtualDiskAntiAffinityRuleSpec{ClusterRuleInfo: types.ClusterRuleInfo{
				Name: vmName + "-vmdk-anti-affinity", Enabled: types.NewBool(true)}}
			for _, n := range strings.Split(value, ",") {
				d := findDisk(devices, n)
				if d == nil {
					return fmt.Errorf("vm %s has no disk %q", vmName, n)
				}
				rule.DiskId = append(rule.DiskId, d.Key)
			}
			info.IntraVmAntiAffinity = rule
			// VMDK anti-affinity needs the VM's disks apart, so it cannot keep them together
			info.IntraVmAffinity = types.NewBool(false)
		}
		op := types.ArrayUpdateOperationAdd
		var current mo.StoragePod
		if err := pod.Properties(ctx, pod.Reference(), []string{podConfigProperty}, &current); err != nil {
			return err
		}
		if current.PodStorageDrsEntry != nil {
			for _, v := range current.PodStorageDrsEntry.StorageDrsConfig.VmConfig {
				if v.Vm != nil && *v.Vm == ref {
					op = types.ArrayUpdateOperationEdit
				}
			}
		}
		spec.VmConfigSpec = []types.StorageDrsVmConfigSpec{{ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: op}, Info: info}}
	}
	task, err := object.NewStorageResourceManager(c.Client).ConfigureStorageDrsForPod(ctx, pod, spec, true)
	if err != nil {
		return err
	}
	return task.Wait(ctx)
}

// podConfigSpec turns PROPERTY=VALUE pairs into a pod spec. The space, IO and automation configs are
// replaced whole by ConfigureStorageDrsForPod_Task, so each starts from what the pod holds.
func podConfigSpec(held types.StorageDrsPodConfigInfo, pairs string) (*types.StorageDrsPodConfigSpec, error) {
	spec := &types.StorageDrsPodConfigSpec{}
	space := func() *types.StorageDrsSpaceLoadBalanceConfig {
		if spec.SpaceLoadBalanceConfig == nil {
			spec.SpaceLoadBalanceConfig = &types.StorageDrsSpaceLoadBalanceConfig{}
			if held.SpaceLoadBalanceConfig != nil {
				*spec.SpaceLoadBalanceConfig = *held.SpaceLoadBalanceConfig
			}
		}
		return spec.SpaceLoadBalanceConfig
	}
	io := func() *types.StorageDrsIoLoadBalanceConfig {
		if spec.IoLoadBalanceConfig == nil {
			spec.IoLoadBalanceConfig = &types.StorageDrsIoLoadBalanceConfig{}
			if held.IoLoadBalanceConfig != nil {
				*spec.IoLoadBalanceConfig = *held.IoLoadBalanceConfig
			}
		}
		return spec.IoLoadBalanceConfig
	}
	auto := func() *types.StorageDrsAutomationConfig {
		if spec.AutomationOverrides == nil {
			spec.AutomationOverrides = &types.StorageDrsAutomationConfig{}
			if held.AutomationOverrides != nil {
				*spec.AutomationOverrides = *held.AutomationOverrides
			}
		}
		return spec.AutomationOverrides
	}
	for _, pair := range strings.Split(pairs, ",") {
		name, value, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, fmt.Errorf("-pod-config %q: want PROPERTY=VALUE", pair)
		}
		number := func() (int32, error) {
			var n int32
			if _, err := fmt.Sscan(value, &n); err != nil {
				return 0, fmt.Errorf("-pod-config %s=%q: want a whole number", name, value)
			}
			return n, nil
		}
		var err error
		switch name {
		case "defaultVmBehavior":
			spec.DefaultVmBehavior = value
		case "ioLoadBalanceEnabled":
			if value != "true" && value != "false" {
				return nil, fmt.Errorf("-pod-config ioLoadBalanceEnabled=%q: want true or false", value)
			}
			spec.IoLoadBalanceEnabled = types.NewBool(value == "true")
			io() // vCenter keeps an IO config beside the switch
		case "spaceThresholdMode":
			space().SpaceThresholdMode = value
		case "spaceUtilizationThreshold":
			space().SpaceUtilizationThreshold, err = number()
		case "freeSpaceThresholdGB":
			space().FreeSpaceThresholdGB, err = number()
		case "minSpaceUtilizationDifference":
			space().MinSpaceUtilizationDifference, err = number()
		case "ioLatencyThreshold":
			io().IoLatencyThreshold, err = number()
		case "ioLoadImbalanceThreshold":
			io().IoLoadImbalanceThreshold, err = number()
		case "spaceLoadBalanceAutomationMode":
			auto().SpaceLoadBalanceAutomationMode = value
		case "ioLoadBalanceAutomationMode":
			auto().IoLoadBalanceAutomationMode = value
		case "ruleEnforcementAutomationMode":
			auto().RuleEnforcementAutomationMode = value
		case "vmEvacuationAutomationMode":
			auto().VmEvacuationAutomationMode = value
		case ignoreAffinityForMaintenance:
			// an advanced option: added, or edited when the pod holds it
			op := types.ArrayUpdateOperationAdd
			for _, o := range held.Option {
				if o.GetOptionValue().Key == name {
					op = types.ArrayUpdateOperationEdit
				}
			}
			spec.Option = append(spec.Option, types.StorageDrsOptionSpec{ArrayUpdateSpec: types.ArrayUpdateSpec{Operation: op},
				Option: &types.OptionValue{Key: name, Value: value}})
		default:
			return nil, fmt.Errorf("-pod-config: unknown property %q", name)
		}
		if err != nil {
			return nil, err
		}
	}
	return spec, nil
}
