package io.opensdrs.server.vsphere.object;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.IormConfiguration;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.vim25.DatastoreTypes.ConfigureDatastoreIORMRequest;
import io.opensdrs.server.vsphere.vim25.DatastoreTypes.StorageIORMConfigSpec;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ClusterAntiAffinityRuleSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ClusterRuleInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ClusterRuleSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ConfigureStorageDrsForPodRequest;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.OptionValueSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsAutomationConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsConfigSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsIoLoadBalanceConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsOptionSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsPodConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsPodConfigSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsSpaceLoadBalanceConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsVmConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsVmConfigSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.VirtualDiskAntiAffinityRuleSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.XsdInt;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The StorageResourceManager: a datastore's Storage I/O Control congestion threshold
 * (ConfigureDatastoreIORM_Task), and every change of a datastore cluster's Storage DRS settings and rules
 * is one ConfigureStorageDrsForPod_Task with {@code modify = true}, built from what the pod holds
 * now ({@link StoragePod#storageDrsConfig}) so that nothing else of its configuration changes.
 * Each change returns the task's id.
 */
final class StorageResourceManager {
    private final Session session;

    StorageResourceManager(Session session) {
        this.session = session;
    }

    /** ConfigureStorageDrsForPod_Task with modify = true: only what the spec sets changes. */
    String configureStorageDrsForPod(String podId, StorageDrsConfigSpec spec) throws VimFaultException {
        ConfigureStorageDrsForPodRequest req = new ConfigureStorageDrsForPodRequest();
        req.self = session.vim().serviceContent().storageResourceManager;
        req.pod = new ManagedObjectReference("StoragePod", podId);
        req.spec = spec;
        req.modify = true;
        return session.call(() -> session.vim().invoke("ConfigureStorageDrsForPod_Task", req, ManagedObjectReference.class))
                .value();
    }

    /**
     * ConfigureDatastoreIORM_Task setting the datastore's SIOC congestion threshold in manual mode;
     * {@code enabled} is not sent, so SIOC stays on or off as it is. Returns the task's id.
     */
    String configureCongestionThreshold(String datastoreId, int thresholdMs) throws VimFaultException {
        ConfigureDatastoreIORMRequest req = new ConfigureDatastoreIORMRequest();
        req.self = session.vim().serviceContent().storageResourceManager;
        req.datastore = new ManagedObjectReference("Datastore", datastoreId);
        req.spec = new StorageIORMConfigSpec();
        req.spec.congestionThresholdMode = IormConfiguration.MANUAL;
        req.spec.congestionThreshold = thresholdMs;
        return session.call(() -> session.vim().invoke("ConfigureDatastoreIORM_Task", req, ManagedObjectReference.class))
                .value();
    }

    /** The pod settings {@code change} holds (its non-null values) and each listed VM's automation, in one task. */
    String configureStorageDrsForPod(String podId, StorageDrsRules.PodSettings change, Map<String, VmOverride> vmAutomation)
            throws VimFaultException {
        StorageDrsConfigInfo held = new StoragePod(session, podId).storageDrsConfig();
        return configureStorageDrsForPod(podId, spec(held != null ? held : new StorageDrsConfigInfo(), change, vmAutomation));
    }

    /**
     * The change of {@code change}'s settings and of each VM's automation as the vSphere Client's
     * "VM Overrides" hold it: EXCLUDED is {@code enabled = false}, MANUAL and AUTOMATED its
     * {@code behavior}, DEFAULT neither; the VM's keep-together and VMDK rule stay.
     */
    static StorageDrsConfigSpec spec(StorageDrsConfigInfo config, StorageDrsRules.PodSettings change,
                                     Map<String, VmOverride> vmAutomation) {
        StorageDrsConfigSpec spec = new StorageDrsConfigSpec();
        if (!change.equals(StorageDrsRules.PodSettings.UNSET)) {
            spec.podConfigSpec = podConfigSpec(config.podConfig != null ? config.podConfig : new StorageDrsPodConfigInfo(), change);
        }
        for (Map.Entry<String, VmOverride> e : vmAutomation.entrySet()) {
            StorageDrsVmConfigInfo held = vmConfig(config, e.getKey());
            StorageDrsVmConfigInfo kept = held != null ? copy(held) : new StorageDrsVmConfigInfo();
            kept.vm = new ManagedObjectReference("VirtualMachine", e.getKey());
            // the vSphere Client's "Disabled" is enabled = false; manual and automated are the behavior
            kept.enabled = e.getValue() == VmOverride.EXCLUDED ? Boolean.FALSE : null;
            kept.behavior = switch (e.getValue()) {
                case MANUAL -> "manual";
                case AUTOMATED -> "automated";
                default -> null;
            };
            spec.vmConfigSpec.addAll(rewrite(e.getKey(), held, kept));
        }
        return spec;
    }

    static StorageDrsPodConfigSpec podConfigSpec(StorageDrsPodConfigInfo now, StorageDrsRules.PodSettings change) {
        StorageDrsPodConfigSpec pod = new StorageDrsPodConfigSpec();
        pod.enabled = change.storageDrsEnabled();
        pod.defaultVmBehavior = change.automationLevel();
        pod.ioLoadBalanceEnabled = change.ioLoadBalanceEnabled();
        pod.defaultIntraVmAffinity = change.keepVmdksTogether();
        // a config object is replaced whole, so what it holds and the server does not set is sent back as read
        if (change.spaceThresholdMode() != null || change.spaceThresholdPct() != null || change.freeSpaceThresholdGb() != null
                || change.minSpaceDifferencePct() != null) {
            StorageDrsSpaceLoadBalanceConfig space = now.spaceLoadBalanceConfig != null
                    ? now.spaceLoadBalanceConfig : new StorageDrsSpaceLoadBalanceConfig();
            space.spaceThresholdMode = or(change.spaceThresholdMode(), space.spaceThresholdMode);
            space.spaceUtilizationThreshold = or(change.spaceThresholdPct(), space.spaceUtilizationThreshold);
            space.freeSpaceThresholdGB = or(change.freeSpaceThresholdGb(), space.freeSpaceThresholdGB);
            space.minSpaceUtilizationDifference = or(change.minSpaceDifferencePct(), space.minSpaceUtilizationDifference);
            pod.spaceLoadBalanceConfig = space;
        }
        if (change.latencyThresholdMs() != null || change.ioImbalanceThreshold() != null || change.ioLoadBalanceEnabled() != null) {
            StorageDrsIoLoadBalanceConfig io = now.ioLoadBalanceConfig != null
                    ? now.ioLoadBalanceConfig : new StorageDrsIoLoadBalanceConfig();
            io.ioLatencyThreshold = or(change.latencyThresholdMs(), io.ioLatencyThreshold);
            io.ioLoadImbalanceThreshold = or(change.ioImbalanceThreshold(), io.ioLoadImbalanceThreshold);
            pod.ioLoadBalanceConfig = io;
        }
        if (change.spaceAutomationLevel() != null || change.ioAutomationLevel() != null || change.ruleAutomationLevel() != null
                || change.evacuationAutomationLevel() != null) {
            StorageDrsAutomationConfig auto = now.automationOverrides != null
                    ? now.automationOverrides : new StorageDrsAutomationConfig();
            auto.spaceLoadBalanceAutomationMode = automationMode(change.spaceAutomationLevel(), auto.spaceLoadBalanceAutomationMode);
            auto.ioLoadBalanceAutomationMode = automationMode(change.ioAutomationLevel(), auto.ioLoadBalanceAutomationMode);
            auto.ruleEnforcementAutomationMode = automationMode(change.ruleAutomationLevel(), auto.ruleEnforcementAutomationMode);
            auto.vmEvacuationAutomationMode = automationMode(change.evacuationAutomationLevel(), auto.vmEvacuationAutomationMode);
            pod.automationOverrides = auto;
        }
        if (change.ignoreAffinityForMaintenance() != null) {
            String key = StorageDrsRules.PodSettings.IGNORE_AFFINITY_FOR_MAINTENANCE;
            StorageDrsOptionSpec option = new StorageDrsOptionSpec();
            option.operation = StoragePod.option(now, key) == null ? "add" : "edit";
            option.option = new OptionValueSpec(key, change.ignoreAffinityForMaintenance() ? "1" : "0");
            pod.option.add(option);
        }
        return pod;
    }

    private static <T> T or(T wanted, T held) {
        return wanted != null ? wanted : held;
    }

    /** inherit is no mode: the subsystem follows the pod's defaultVmBehavior. */
    private static String automationMode(String wanted, String held) {
        return wanted == null ? held : "inherit".equals(wanted) ? null : wanted;
    }

    /** Adds an enabled VM anti-affinity rule ({@code podConfigSpec.rule}, operation add; vCenter assigns the key). */
    String addVmAntiAffinityRule(String podId, String name, List<String> vmIds) throws VimFaultException {
        ClusterAntiAffinityRuleSpec rule = new ClusterAntiAffinityRuleSpec();
        rule.name = name;
        rule.enabled = true;
        vmIds.forEach(vm -> rule.vm.add(new ManagedObjectReference("VirtualMachine", vm)));
        ClusterRuleSpec change = new ClusterRuleSpec();
        change.operation = "add";
        change.info = rule;
        return configureRule(podId, change);
    }

    /** Removes the VM anti-affinity rule of that name by the key vCenter holds for it; {@code NotFound} when none. */
    String removeVmAntiAffinityRule(String podId, String name) throws VimFaultException {
        Integer key = null;
        StorageDrsConfigInfo config = new StoragePod(session, podId).storageDrsConfig();
        if (config != null && config.podConfig != null) {
            for (ClusterRuleInfo r : config.podConfig.rule) {
                if (r instanceof ClusterAntiAffinityRuleSpec && name.equals(r.name)) {
                    key = r.key;
                }
            }
        }
        if (key == null) {
            throw new VimFaultException("ConfigureStorageDrsForPod_Task", "NotFound",
                    "datastore cluster " + podId + " has no VM anti-affinity rule " + name);
        }
        ClusterRuleSpec change = new ClusterRuleSpec();
        change.operation = "remove";
        change.removeKey = new XsdInt(key);
        return configureRule(podId, change);
    }

    /**
     * Gives the VM a VMDK anti-affinity rule over the listed disks, with {@code intraVmAffinity}
     * false (disks kept apart cannot be kept together), adding its entry or editing the one held.
     */
    String addVmdkAntiAffinityRule(String podId, String vmId, String name, List<Integer> diskKeys) throws VimFaultException {
        VirtualDiskAntiAffinityRuleSpec rule = new VirtualDiskAntiAffinityRuleSpec();
        rule.name = name;
        rule.enabled = true;
        rule.diskId.addAll(diskKeys);
        StorageDrsVmConfigInfo info = new StorageDrsVmConfigInfo();
        info.vm = new ManagedObjectReference("VirtualMachine", vmId);
        info.intraVmAffinity = false;
        info.intraVmAntiAffinity = rule;
        StorageDrsVmConfigSpec change = new StorageDrsVmConfigSpec();
        change.operation = vmConfig(podId, vmId) == null ? "add" : "edit";
        change.info = info;
        return configureVms(podId, List.of(change));
    }

    /** Removes the VM's VMDK anti-affinity rule and keeps its other settings; {@code NotFound} when it has none. */
    String removeVmdkAntiAffinityRule(String podId, String vmId) throws VimFaultException {
        StorageDrsVmConfigInfo held = vmConfig(podId, vmId);
        if (held == null || held.intraVmAntiAffinity == null) {
            throw new VimFaultException("ConfigureStorageDrsForPod_Task", "NotFound",
                    "datastore cluster " + podId + " holds no VMDK anti-affinity rule for " + vmId);
        }
        StorageDrsVmConfigInfo kept = copy(held);
        kept.intraVmAntiAffinity = null;
        return configureVms(podId, rewrite(vmId, held, kept));
    }

    /**
     * Sets the VM's own keep-together ({@code intraVmAffinity}), or with null clears it so that the
     * pod's default applies; {@code NotFound} when asked to clear a setting the VM does not have.
     */
    String configureVmKeepVmdksTogether(String podId, String vmId, Boolean keepTogether) throws VimFaultException {
        StorageDrsVmConfigInfo held = vmConfig(podId, vmId);
        if (keepTogether == null) {
            if (held == null || held.intraVmAffinity == null) {
                throw new VimFaultException("ConfigureStorageDrsForPod_Task", "NotFound",
                        "datastore cluster " + podId + " holds no keep-together setting for " + vmId);
            }
            StorageDrsVmConfigInfo kept = copy(held);
            kept.intraVmAffinity = null;
            return configureVms(podId, rewrite(vmId, held, kept));
        }
        StorageDrsVmConfigInfo info = new StorageDrsVmConfigInfo();
        info.vm = new ManagedObjectReference("VirtualMachine", vmId);
        info.intraVmAffinity = keepTogether;
        StorageDrsVmConfigSpec change = new StorageDrsVmConfigSpec();
        change.operation = held == null ? "add" : "edit";
        change.info = info;
        return configureVms(podId, List.of(change));
    }

    static StorageDrsVmConfigInfo copy(StorageDrsVmConfigInfo held) {
        StorageDrsVmConfigInfo c = new StorageDrsVmConfigInfo();
        c.vm = held.vm;
        c.enabled = held.enabled;
        c.behavior = held.behavior == null || held.behavior.isBlank() ? null : held.behavior;
        c.intraVmAffinity = held.intraVmAffinity;
        c.intraVmAntiAffinity = held.intraVmAntiAffinity;
        return c;
    }

    /**
     * The changes that replace the VM's entry ({@code held}, or none) with {@code kept}: an edit
     * cannot unset a property, so the entry is removed and, when anything is left, added back.
     */
    static List<StorageDrsVmConfigSpec> rewrite(String vmId, StorageDrsVmConfigInfo held, StorageDrsVmConfigInfo kept) {
        List<StorageDrsVmConfigSpec> changes = new ArrayList<>();
        if (held != null) {
            StorageDrsVmConfigSpec remove = new StorageDrsVmConfigSpec();
            remove.operation = "remove";
            remove.removeKey = new ManagedObjectReference("VirtualMachine", vmId);
            changes.add(remove);
        }
        if (kept.enabled != null || kept.behavior != null || kept.intraVmAffinity != null || kept.intraVmAntiAffinity != null) {
            StorageDrsVmConfigSpec addBack = new StorageDrsVmConfigSpec();
            addBack.operation = "add";
            addBack.info = kept;
            changes.add(addBack);
        }
        return changes;
    }

    /** The VM's entry in the pod's vmConfig, or null. */
    private StorageDrsVmConfigInfo vmConfig(String podId, String vmId) throws VimFaultException {
        StorageDrsConfigInfo config = new StoragePod(session, podId).storageDrsConfig();
        return config == null ? null : vmConfig(config, vmId);
    }

    static StorageDrsVmConfigInfo vmConfig(StorageDrsConfigInfo config, String vmId) {
        for (StorageDrsVmConfigInfo v : config.vmConfig) {
            if (v.vm != null && vmId.equals(v.vm.value())) {
                return v;
            }
        }
        return null;
    }

    private String configureVms(String podId, List<StorageDrsVmConfigSpec> changes) throws VimFaultException {
        StorageDrsConfigSpec spec = new StorageDrsConfigSpec();
        spec.vmConfigSpec.addAll(changes);
        return configureStorageDrsForPod(podId, spec);
    }

    private String configureRule(String podId, ClusterRuleSpec change) throws VimFaultException {
        StorageDrsPodConfigSpec pod = new StorageDrsPodConfigSpec();
        pod.rule.add(change);
        StorageDrsConfigSpec spec = new StorageDrsConfigSpec();
        spec.podConfigSpec = pod;
        return configureStorageDrsForPod(podId, spec);
    }
}
