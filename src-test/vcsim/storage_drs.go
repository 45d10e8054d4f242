package main

import (
	"fmt"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// storageResourceManager completes ConfigureStorageDrsForPod_Task (and adds ConfigureDatastoreIORM_Task,
// iorm.go): stock vcsim applies only
// podConfigSpec.enabled and defaultVmBehavior, and drops the pod's rules (VM anti-affinity) and the
// per-VM settings (keep VMDKs together, VMDK anti-affinity), which Storage DRS must honour.
type storageResourceManager struct {
	*simulator.StorageResourceManager
	session *simulator.Session
}

// podConfigProperty is the property a client watches for the pod's Storage DRS settings; updates
// name it exactly, since the simulator's collector matches a change to a nested path only by name.
const podConfigProperty = "podStorageDrsEntry.storageDrsConfig"

func routeStorageDrsCalls(ctx *simulator.Context, m *simulator.Method) (mo.Reference, bool) {
	if (m.Name != "ConfigureStorageDrsForPod_Task" && m.Name != "ConfigureDatastoreIORM_Task") || m.This.Type != "StorageResourceManager" {
		return nil, false
	}
	srm, ok := ctx.Map.Get(m.This).(*simulator.StorageResourceManager)
	if !ok {
		return nil, false
	}
	w := &storageResourceManager{StorageResourceManager: srm}
	w.session = routes.enter(ctx, w)
	return w, true
}

// ConfigureStorageDrsForPodTask overrides simulator.StorageResourceManager.ConfigureStorageDrsForPodTask.
// The whole spec is checked before anything changes: a fault leaves the pod as it was.
func (m *storageResourceManager) ConfigureStorageDrsForPodTask(ctx *simulator.Context, req *types.ConfigureStorageDrsForPod_Task) soap.HasFault {
	routes.leave(ctx, m.session, m.Self)
	body := &methods.ConfigureStorageDrsForPod_TaskBody{}
	pod, ok := ctx.Map.Get(req.Pod).(*simulator.StoragePod)
	if !ok {
		body.Fault_ = simulator.Fault("pod "+req.Pod.Value+" is not a StoragePod", &types.ManagedObjectNotFound{Obj: req.Pod})
		return body
	}
	task, tctx := startTask(ctx, m.StorageResourceManager, "configureStorageDrsForPod")
	var fault types.BaseMethodFault
	tctx.WithLock(pod, func() {
		if pod.PodStorageDrsEntry == nil {
			pod.PodStorageDrsEntry = new(types.PodStorageDrsEntry)
		}
		next, f := applyStorageDrsSpec(tctx, pod.PodStorageDrsEntry.StorageDrsConfig, req.Spec, req.Modify)
		if f != nil {
			fault = f
			return
		}
		pod.PodStorageDrsEntry.StorageDrsConfig = next
		tctx.Update(pod, []types.PropertyChange{{Name: podConfigProperty, Val: next}})
	})
	finishTask(tctx, task, fault)
	body.Res = &types.ConfigureStorageDrsForPod_TaskResponse{Returnval: task.Self}
	return body
}

// applyStorageDrsSpec returns the configuration after spec, or the first fault. With modify false
// the result matches the spec exactly: rules and VM settings not in it are gone.
func applyStorageDrsSpec(ctx *simulator.Context, cur types.StorageDrsConfigInfo, spec types.StorageDrsConfigSpec,
	modify bool) (types.StorageDrsConfigInfo, types.BaseMethodFault) {
	next := cur
	next.PodConfig.Rule = append([]types.BaseClusterRuleInfo(nil), cur.PodConfig.Rule...)
	next.VmConfig = append([]types.StorageDrsVmConfigInfo(nil), cur.VmConfig...)
	if !modify {
		next.PodConfig.Rule = nil
		next.VmConfig = nil
	}
	if s := spec.PodConfigSpec; s != nil {
		c := &next.PodConfig
		if s.Enabled != nil {
			c.Enabled = *s.Enabled
		}
		if s.IoLoadBalanceEnabled != nil {
			c.IoLoadBalanceEnabled = *s.IoLoadBalanceEnabled
		}
		if s.DefaultVmBehavior != "" {
			switch types.StorageDrsPodConfigInfoBehavior(s.DefaultVmBehavior) {
			case types.StorageDrsPodConfigInfoBehaviorManual, types.StorageDrsPodConfigInfoBehaviorAutomated:
				c.DefaultVmBehavior = s.DefaultVmBehavior
			default:
				return next, invalidProperty("podConfigSpec.defaultVmBehavior")
			}
		}
		if s.LoadBalanceInterval < 0 {
			return next, invalidProperty("podConfigSpec.loadBalanceInterval")
		}
		if s.LoadBalanceInterval > 0 {
			c.LoadBalanceInterval = s.LoadBalanceInterval
		}
		if s.DefaultIntraVmAffinity != nil {
			c.DefaultIntraVmAffinity = s.DefaultIntraVmAffinity
		}
		if f := checkPodThresholds(s); f != nil {
			return next, f
		}
		if s.SpaceLoadBalanceConfig != nil {
			c.SpaceLoadBalanceConfig = s.SpaceLoadBalanceConfig
		}
		if s.IoLoadBalanceConfig != nil {
			c.IoLoadBalanceConfig = s.IoLoadBalanceConfig
		}
		if s.AutomationOverrides != nil {
			c.AutomationOverrides = s.AutomationOverrides
		}
		for i, r := range s.Rule {
			rules, f := applyRule(ctx, c.Rule, r, fmt.Sprintf("podConfigSpec.rule[%d]", i))
			if f != nil {
				return next, f
			}
			c.Rule = rules
		}
		c.Option = append([]types.BaseOptionValue(nil), c.Option...)
		for i, o := range s.Option {
			options, f := applyOption(c.Option, o, fmt.Sprintf("podConfigSpec.option[%d]", i))
			if f != nil {
				return next, f
			}
			c.Option = options
		}
	}
	for i, v := range spec.VmConfigSpec {
		configs, f := applyVmConfig(ctx, next.VmConfig, v, fmt.Sprintf("vmConfigSpec[%d]", i))
		if f != nil {
			return next, f
		}
		next.VmConfig = configs
	}
	return next, nil
}

// applyRule adds, edits or removes one inter-VM rule. Storage DRS keeps VM anti-affinity rules
// only (VMDK anti-affinity is a VM's intraVmAntiAffinity; VM affinity is the keep-together default).
func applyRule(ctx *simulator.Context, rules []types.BaseClusterRuleInfo, r types.ClusterRuleSpec, field string) (
	[]types.BaseClusterRuleInfo, types.BaseMethodFault) {
	find := func(key int32) int {
		for i, x := range rules {
			if x.GetClusterRuleInfo().Key == key {
				return i
			}
		}
		return -1
	}
	switch r.Operation {
	case types.ArrayUpdateOperationRemove:
		key, ok := r.RemoveKey.(int32)
		if !ok || find(key) < 0 {
			return nil, invalidProperty(field + ".removeKey")
		}
		i := find(key)
		return append(rules[:i:i], rules[i+1:]...), nil
	case types.ArrayUpdateOperationAdd, types.ArrayUpdateOperationEdit:
	default:
		return nil, invalidProperty(field + ".operation")
	}
	anti, ok := r.Info.(*types.ClusterAntiAffinityRuleSpec)
	if !ok {
		return nil, invalidProperty(field + ".info")
	}
	rule := *anti
	rule.Vm = append([]types.ManagedObjectReference(nil), anti.Vm...)
	if rule.Name == "" {
		return nil, invalidProperty(field + ".info.name")
	}
	if len(rule.Vm) < 2 {
		return nil, invalidProperty(field + ".info.vm")
	}
	seen := map[types.ManagedObjectReference]bool{}
	for _, vm := range rule.Vm {
		if _, isVm := ctx.Map.Get(vm).(*simulator.VirtualMachine); !isVm || seen[vm] {
			return nil, invalidProperty(field + ".info.vm")
		}
		seen[vm] = true
	}
	if rule.Enabled == nil {
		rule.Enabled = types.NewBool(true)
	}
	if r.Operation == types.ArrayUpdateOperationEdit {
		i := find(rule.Key)
		if i < 0 {
			return nil, invalidProperty(field + ".info.key")
		}
		return append(append(rules[:i:i], &rule), rules[i+1:]...), nil
	}
	if rule.Key == 0 {
		for _, x := range rules {
			rule.Key = max(rule.Key, x.GetClusterRuleInfo().Key)
		}
		rule.Key++
	} else if find(rule.Key) >= 0 {
		return nil, invalidProperty(field + ".info.key")
	}
	rule.UserCreated = types.NewBool(true)
	return append(rules, &rule), nil
}

// applyVmConfig adds, edits or removes one VM's settings (keyed by the VM).
func applyVmConfig(ctx *simulator.Context, configs []types.StorageDrsVmConfigInfo, v types.StorageDrsVmConfigSpec,
	field string) ([]types.StorageDrsVmConfigInfo, types.BaseMethodFault) {
	find := func(ref types.ManagedObjectReference) int {
		for i, c := range configs {
			if c.Vm != nil && *c.Vm == ref {
				return i
			}
		}
		return -1
	}
	if v.Operation == types.ArrayUpdateOperationRemove {
		ref, ok := v.RemoveKey.(types.ManagedObjectReference)
		if !ok || find(ref) < 0 {
			return nil, invalidProperty(field + ".removeKey")
		}
		i := find(ref)
		return append(configs[:i:i], configs[i+1:]...), nil
	}
	if v.Operation != types.ArrayUpdateOperationAdd && v.Operation != types.ArrayUpdateOperationEdit {
		return nil, invalidProperty(field + ".operation")
	}
	if v.Info == nil || v.Info.Vm == nil {
		return nil, invalidProperty(field + ".info.vm")
	}
	vm, ok := ctx.Map.Get(*v.Info.Vm).(*simulator.VirtualMachine)
	if !ok {
		return nil, invalidProperty(field + ".info.vm")
	}
	info := *v.Info
	if b := info.Behavior; b != "" && b != string(types.StorageDrsPodConfigInfoBehaviorManual) &&
		b != string(types.StorageDrsPodConfigInfoBehaviorAutomated) {
		return nil, invalidProperty(field + ".info.behavior")
	}
	if a := info.IntraVmAntiAffinity; a != nil {
		keys := map[int32]bool{}
		for _, d := range vm.Config.Hardware.Device {
			if _, isDisk := d.(*types.VirtualDisk); isDisk {
				keys[d.GetVirtualDevice().Key] = true
			}
		}
		if len(a.DiskId) < 2 {
			return nil, invalidProperty(field + ".info.intraVmAntiAffinity.diskId")
		}
		for _, id := range a.DiskId {
			if !keys[id] {
				return nil, invalidProperty(field + ".info.intraVmAntiAffinity.diskId")
			}
			keys[id] = false // a disk listed twice
		}
		rule := *a
		rule.DiskId = append([]int32(nil), a.DiskId...)
		if rule.Enabled == nil {
			rule.Enabled = types.NewBool(true)
		}
		info.IntraVmAntiAffinity = &rule
	}
	i := find(*info.Vm)
	if v.Operation == types.ArrayUpdateOperationEdit && i >= 0 {
		// an edit changes what it sets and keeps the rest
		base := configs[i]
		if info.Enabled != nil {
			base.Enabled = info.Enabled
		}
		if info.Behavior != "" {
			base.Behavior = info.Behavior
		}
		if info.IntraVmAffinity != nil {
			base.IntraVmAffinity = info.IntraVmAffinity
		}
		if info.IntraVmAntiAffinity != nil {
			base.IntraVmAntiAffinity = info.IntraVmAntiAffinity
		}
		info = base
	}
	switch {
	case v.Operation == types.ArrayUpdateOperationAdd && i >= 0:
		return nil, invalidProperty(field + ".info.vm")
	case v.Operation == types.ArrayUpdateOperationEdit && i < 0:
		return nil, invalidProperty(field + ".info.vm")
	case i >= 0:
		return append(append(configs[:i:i], info), configs[i+1:]...), nil
	}
	return append(configs, info), nil
}

// ignoreAffinityForMaintenance is the pod's advanced option "Ignore affinity rules for maintenance":
// "1" lets maintenance-mode evacuations break affinity rules, "0" (or none) keeps them.
const ignoreAffinityForMaintenance = "IgnoreAffinityRulesForMaintenance"

// applyOption adds, edits or removes one of the pod's advanced options (podConfig.option, an
// ArrayUpdateSpec keyed by the option's key). Keys are free, as in the vSphere Client's advanced
// options; the value of IgnoreAffinityRulesForMaintenance must be 0 or 1.
func applyOption(options []types.BaseOptionValue, o types.StorageDrsOptionSpec, field string) ([]types.BaseOptionValue, types.BaseMethodFault) {
	find := func(key string) int {
		for i, v := range options {
			if v.GetOptionValue().Key == key {
				return i
			}
		}
		return -1
	}
	if o.Operation == types.ArrayUpdateOperationRemove {
		key, ok := o.RemoveKey.(string)
		i := find(key)
		if !ok || i < 0 {
			return nil, invalidProperty(field + ".removeKey")
		}
		return append(options[:i:i], options[i+1:]...), nil
	}
	if o.Option == nil || o.Option.GetOptionValue().Key == "" {
		return nil, invalidProperty(field + ".option.key")
	}
	v := *o.Option.GetOptionValue()
	if v.Key == ignoreAffinityForMaintenance {
		if s, _ := v.Value.(string); s != "0" && s != "1" {
			return nil, invalidProperty(field + ".option.value")
		}
	}
	i := find(v.Key)
	switch {
	case o.Operation == types.ArrayUpdateOperationAdd && i >= 0, o.Operation == types.ArrayUpdateOperationEdit && i < 0:
		return nil, invalidProperty(field + ".option.key")
	case o.Operation != types.ArrayUpdateOperationAdd && o.Operation != types.ArrayUpdateOperationEdit:
		return nil, invalidProperty(field + ".operation")
	case i >= 0:
		return append(append(options[:i:i], &v), options[i+1:]...), nil
	}
	return append(options, &v), nil
}

func invalidProperty(name string) types.BaseMethodFault {
	return &types.InvalidArgument{InvalidProperty: name}
}

// checkPodThresholds refuses what the vSphere Client's Storage DRS settings cannot hold: thresholds
// outside their ranges (space utilization 50–100 %, minimum difference 1–50 %, IO latency 5–100 ms,
// IO imbalance 1–100, free space at least 1 GB; 0 is unset) and unknown modes.
func checkPodThresholds(s *types.StorageDrsPodConfigSpec) types.BaseMethodFault {
	inRange := func(v, lo, hi int32) bool { return v == 0 || (v >= lo && v <= hi) }
	if c := s.SpaceLoadBalanceConfig; c != nil {
		switch {
		case c.SpaceThresholdMode != "" && c.SpaceThresholdMode != string(types.StorageDrsSpaceLoadBalanceConfigSpaceThresholdModeUtilization) &&
			c.SpaceThresholdMode != string(types.StorageDrsSpaceLoadBalanceConfigSpaceThresholdModeFreeSpace):
			return invalidProperty("podConfigSpec.spaceLoadBalanceConfig.spaceThresholdMode")
		case !inRange(c.SpaceUtilizationThreshold, 50, 100):
			return invalidProperty("podConfigSpec.spaceLoadBalanceConfig.spaceUtilizationThreshold")
		case !inRange(c.MinSpaceUtilizationDifference, 1, 50):
			return invalidProperty("podConfigSpec.spaceLoadBalanceConfig.minSpaceUtilizationDifference")
		case c.FreeSpaceThresholdGB < 0:
			return invalidProperty("podConfigSpec.spaceLoadBalanceConfig.freeSpaceThresholdGB")
		}
	}
	if c := s.IoLoadBalanceConfig; c != nil {
		switch {
		case !inRange(c.IoLatencyThreshold, 5, 100):
			return invalidProperty("podConfigSpec.ioLoadBalanceConfig.ioLatencyThreshold")
		case !inRange(c.IoLoadImbalanceThreshold, 1, 100):
			return invalidProperty("podConfigSpec.ioLoadBalanceConfig.ioLoadImbalanceThreshold")
		}
	}
	if c := s.AutomationOverrides; c != nil {
		modes := map[string]string{"spaceLoadBalanceAutomationMode": c.SpaceLoadBalanceAutomationMode,
			"ioLoadBalanceAutomationMode": c.IoLoadBalanceAutomationMode, "ruleEnforcementAutomationMode": c.RuleEnforcementAutomationMode,
			"policyEnforcementAutomationMode": c.PolicyEnforcementAutomationMode, "vmEvacuationAutomationMode": c.VmEvacuationAutomationMode}
		for name, m := range modes {
			if m != "" && m != string(types.StorageDrsPodConfigInfoBehaviorManual) && m != string(types.StorageDrsPodConfigInfoBehaviorAutomated) {
				return invalidProperty("podConfigSpec.automationOverrides." + name)
			}
		}
	}
	return nil
}

// forgetRemovedVms drops, from every pod's Storage DRS configuration, the VM settings (automation, keep
// together, VMDK anti-affinity) of VMs that no longer exist, and takes them out of the pod's VM
// anti-affinity rules, as vCenter does when a VM leaves its inventory (it keeps them only for a VM that
// is still there, moved out of the pod); polled, like the other changes no API call of this simulator
// sees happen. A rule left with fewer than two VMs keeps nothing apart and goes: vCenter would not
// accept it as a new rule either (applyRule).
func forgetRemovedVms() {
	ctx := simulator.SpoofContext()
	for _, e := range ctx.Map.All("StoragePod") {
		pod, ok := e.(*simulator.StoragePod)
		if !ok {
			continue
		}
		ctx.WithLock(pod, func() {
			if pod.PodStorageDrsEntry == nil {
				return
			}
			cfg := pod.PodStorageDrsEntry.StorageDrsConfig
			exists := func(vm types.ManagedObjectReference) bool { return ctx.Map.Get(vm) != nil }
			var kept []types.StorageDrsVmConfigInfo
			for _, v := range cfg.VmConfig {
				if v.Vm == nil || exists(*v.Vm) {
					kept = append(kept, v)
				}
			}
			changed := len(kept) != len(cfg.VmConfig)
			var rules []types.BaseClusterRuleInfo
			for _, r := range cfg.PodConfig.Rule {
				anti, ok := r.(*types.ClusterAntiAffinityRuleSpec)
				if !ok {
					rules = append(rules, r)
					continue
				}
				var vms []types.ManagedObjectReference
				for _, vm := range anti.Vm {
					if exists(vm) {
						vms = append(vms, vm)
					}
				}
				if len(vms) == len(anti.Vm) {
					rules = append(rules, r)
					continue
				}
				changed = true
				if len(vms) >= 2 {
					left := *anti
					left.Vm = vms
					rules = append(rules, &left)
				}
			}
			if !changed {
				return
			}
			cfg.VmConfig = kept
			cfg.PodConfig.Rule = rules
			pod.PodStorageDrsEntry.StorageDrsConfig = cfg
			ctx.Update(pod, []types.PropertyChange{{Name: podConfigProperty, Val: cfg}})
		})
	}
}
