package io.opensdrs.server.vsphere;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes;
import io.opensdrs.server.vsphere.vim25.InventoryTypes;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PerformanceTypes;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes;
import io.opensdrs.server.vsphere.vim25.TaskTypes;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.GregorianCalendar;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@link VSphereClient} over the small vim25 SOAP client: one logged-in session, kept alive
 * with {@code CurrentTime}, logged in again once when vCenter reports
 * {@code NotAuthenticated} (an expired session); a second refusal is the caller's fault to
 * handle.
 */
public final class Vim25VSphereClient implements VSphereClient {
    private static final Logger log = LoggerFactory.getLogger(Vim25VSphereClient.class);

    private final VCenterConnection connection;
    private final Vim25Client vim;
    private final ScheduledExecutorService keepAlive;

    private Vim25VSphereClient(VCenterConnection connection, Vim25Client vim) {
        this.connection = connection;
        this.vim = vim;
        this.keepAlive = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vcenter-keepalive");
            t.setDaemon(true);
            return t;
        });
        long period = connection.keepAlive().toMillis();
        keepAlive.scheduleWithFixedDelay(this::ping, period, period, TimeUnit.MILLISECONDS);
    }

    /** Connects and logs in; fails with the fault vCenter gave (InvalidLogin, Transport, ...). */
    public static Vim25VSphereClient login(VCenterConnection connection) throws VimFaultException {
        Vim25Client vim = Vim25Client.connect(connection.sdkUrl(), connection.trust(), connection.timeout());
        vim.login(connection.user(), connection.currentPassword());
        return new Vim25VSphereClient(connection, vim);
    }

    /** The underlying method-level client, for tests and tools. */
    public Vim25Client vim25() {
        return vim;
    }

    private void ping() {
        try {
            call(vim::currentTime);
        } catch (VimFaultException e) {
            log.warn("vCenter keep-alive failed: {}", e.getMessage());
        }
    }

    @FunctionalInterface
    private interface VimCall<T> {
        T call() throws VimFaultException;
    }

    private <T> T call(VimCall<T> c) throws VimFaultException {
        try {
            return c.call();
        } catch (VimFaultException e) {
            if (!e.isNotAuthenticated()) {
                throw e;
            }
            log.info("vCenter session expired; logging in again as {}", connection.user());
            vim.login(connection.user(), connection.currentPassword());
            return c.call();
        }
    }

    @Override
    public VCenterAbout about() {
        InventoryTypes.AboutInfo a = vim.serviceContent().about;
        return new VCenterAbout(a.fullName, a.apiType, a.apiVersion, a.instanceUuid);
    }

    @Override
    public InventorySnapshot inventory() throws VimFaultException {
        return call(() -> {
            ManagedObjectReference view = vim.createContainerView(vim.serviceContent().rootFolder,
                    InventoryAssembler.TYPES, true);
            try {
                InventoryAssembler a = new InventoryAssembler();
                vim.retrieveAll(InventoryAssembler.filterSpec(view), 500).forEach(a::put);
                return a.snapshot("");
            } finally {
                vim.destroyView(view);
            }
        });
    }

    @Override
    public InventoryWatch watchInventory() throws VimFaultException {
        return call(() -> {
            ManagedObjectReference collector = vim.createPropertyCollector();
            ManagedObjectReference view = vim.createContainerView(vim.serviceContent().rootFolder,
                    InventoryAssembler.TYPES, true);
            vim.createFilter(collector, InventoryAssembler.filterSpec(view), false);
            return new Watch(collector, view);
        });
    }

    private final class Watch implements InventoryWatch {
        private final ManagedObjectReference collector;
        private final ManagedObjectReference view;
        private final InventoryAssembler assembler = new InventoryAssembler();
        private String version = "";

        Watch(ManagedObjectReference collector, ManagedObjectReference view) {
            this.collector = collector;
            this.view = view;
        }

        @Override
        public synchronized Optional<InventorySnapshot> awaitChange(Duration maxWait) throws VimFaultException {
            int seconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, maxWait.toSeconds()));
            PropertyCollectorTypes.UpdateSet updates = vim.waitForUpdatesEx(collector, version, seconds);
            if (updates == null) {
                return Optional.empty();
            }
            boolean changed = false;
            // vCenter returns at most maxObjectUpdates objects per call (100 by default, and its policy
            // may cap a larger ask): a truncated set is the first page of the change, and the rest comes
            // from calling again at once with the version it gave. A snapshot of the first page alone was
            // an inventory of 100 objects, which later incremental syncs grew by 100 at a time.
            while (true) {
                version = updates.version;
                changed |= assembler.apply(updates);
                if (!Boolean.TRUE.equals(updates.truncated)) {
                    break;
                }
                updates = vim.waitForUpdatesEx(collector, version, 0);
                if (updates == null) {
                    break;
                }
            }
            return changed ? Optional.of(assembler.snapshot(version)) : Optional.empty();
        }

        @Override
        public void close() {
            try {
                vim.destroyView(view);
                vim.destroyPropertyCollector(collector);
            } catch (VimFaultException e) {
                log.debug("closing an inventory watch: {}", e.getMessage());
            }
        }
    }

    @Override
    public String relocateDisks(String vmId, Map<Integer, String> diskToDatastore) throws VimFaultException {
        if (diskToDatastore.isEmpty()) {
            throw new IllegalArgumentException("diskToDatastore: no disk to relocate");
        }
        TaskTypes.VirtualMachineRelocateSpec spec = new TaskTypes.VirtualMachineRelocateSpec();
        diskToDatastore.forEach((key, ds) ->
                spec.disk.add(new TaskTypes.DiskLocator(key, new ManagedObjectReference("Datastore", ds))));
        return call(() -> vim.relocateVMTask(new ManagedObjectReference("VirtualMachine", vmId), spec)).value();
    }

    @Override
    public String relocateVm(String vmId, String datastoreId) throws VimFaultException {
        TaskTypes.VirtualMachineRelocateSpec spec = new TaskTypes.VirtualMachineRelocateSpec();
        spec.datastore = new ManagedObjectReference("Datastore", datastoreId);
        return call(() -> vim.relocateVMTask(new ManagedObjectReference("VirtualMachine", vmId), spec)).value();
    }

    @Override
    public String relocateHome(String vmId, String datastoreId, Map<Integer, String> disksStayOn) throws VimFaultException {
        TaskTypes.VirtualMachineRelocateSpec spec = new TaskTypes.VirtualMachineRelocateSpec();
        spec.datastore = new ManagedObjectReference("Datastore", datastoreId);
        disksStayOn.forEach((key, ds) -> spec.disk.add(new TaskTypes.DiskLocator(key, new ManagedObjectReference("Datastore", ds))));
        return call(() -> vim.relocateVMTask(new ManagedObjectReference("VirtualMachine", vmId), spec)).value();
    }

    @Override
    public String enterDatastoreMaintenanceMode(String datastoreId) throws VimFaultException {
        TaskTypes.StoragePlacementResult r = call(() -> vim.datastoreEnterMaintenanceMode(new ManagedObjectReference("Datastore", datastoreId)));
        return r == null || r.task == null ? null : r.task.value();
    }

    @Override
    public String exitDatastoreMaintenanceMode(String datastoreId) throws VimFaultException {
        return call(() -> vim.datastoreExitMaintenanceModeTask(new ManagedObjectReference("Datastore", datastoreId))).value();
    }

    @Override
    public StorageDrsRules storageDrsRules(String podId) throws VimFaultException {
        return InventoryAssembler.rules(podStorageDrsConfig(podId));
    }

    /** The pod's podStorageDrsEntry.storageDrsConfig as vCenter holds it now (null when unset). */
    private Object podStorageDrsConfig(String podId) throws VimFaultException {
        PropertyCollectorTypes.ObjectContent oc = call(() -> vim.retrieveProperties(new ManagedObjectReference("StoragePod", podId),
                InventoryAssembler.STORAGE_DRS_CONFIG));
        if (oc == null) {
            throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "datastore cluster " + podId + " is gone");
        }
        return oc.get(InventoryAssembler.STORAGE_DRS_CONFIG);
    }

    @Override
    public String configureStorageDrsForPod(String podId, StorageDrsRules.PodSettings change,
                                            Map<String, VmOverride> vmAutomation) throws VimFaultException {
        InventoryTypes.StorageDrsConfigInfo config = podStorageDrsConfig(podId) instanceof InventoryTypes.StorageDrsConfigInfo c
                ? c : new InventoryTypes.StorageDrsConfigInfo();
        InventoryTypes.StorageDrsConfigSpec spec = new InventoryTypes.StorageDrsConfigSpec();
        if (!change.equals(StorageDrsRules.PodSettings.UNSET)) {
            spec.podConfigSpec = podConfigSpec(config.podConfig != null ? config.podConfig : new InventoryTypes.StorageDrsPodConfigInfo(),
                    change);
        }
        for (Map.Entry<String, VmOverride> e : vmAutomation.entrySet()) {
            InventoryTypes.StorageDrsVmConfigInfo held = vmConfig(config, e.getKey());
            InventoryTypes.StorageDrsVmConfigInfo kept = held != null ? copy(held) : new InventoryTypes.StorageDrsVmConfigInfo();
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
        return configure(podId, spec);
    }

    private static InventoryTypes.StorageDrsPodConfigSpec podConfigSpec(InventoryTypes.StorageDrsPodConfigInfo now,
                                                                         StorageDrsRules.PodSettings change) {
        InventoryTypes.StorageDrsPodConfigSpec pod = new InventoryTypes.StorageDrsPodConfigSpec();
        pod.enabled = change.storageDrsEnabled();
        pod.defaultVmBehavior = change.automationLevel();
        pod.ioLoadBalanceEnabled = change.ioLoadBalanceEnabled();
        pod.defaultIntraVmAffinity = change.keepVmdksTogether();
        // a config object is replaced whole, so what it holds and the server does not set is sent back as read
        if (change.spaceThresholdMode() != null || change.spaceThresholdPct() != null || change.freeSpaceThresholdGb() != null
                || change.minSpaceDifferencePct() != null) {
            InventoryTypes.StorageDrsSpaceLoadBalanceConfig space = now.spaceLoadBalanceConfig != null
                    ? now.spaceLoadBalanceConfig : new InventoryTypes.StorageDrsSpaceLoadBalanceConfig();
            space.spaceThresholdMode = or(change.spaceThresholdMode(), space.spaceThresholdMode);
            space.spaceUtilizationThreshold = or(change.spaceThresholdPct(), space.spaceUtilizationThreshold);
            space.freeSpaceThresholdGB = or(change.freeSpaceThresholdGb(), space.freeSpaceThresholdGB);
            space.minSpaceUtilizationDifference = or(change.minSpaceDifferencePct(), space.minSpaceUtilizationDifference);
            pod.spaceLoadBalanceConfig = space;
        }
        if (change.latencyThresholdMs() != null || change.ioImbalanceThreshold() != null || change.ioLoadBalanceEnabled() != null) {
            InventoryTypes.StorageDrsIoLoadBalanceConfig io = now.ioLoadBalanceConfig != null
                    ? now.ioLoadBalanceConfig : new InventoryTypes.StorageDrsIoLoadBalanceConfig();
            io.ioLatencyThreshold = or(change.latencyThresholdMs(), io.ioLatencyThreshold);
            io.ioLoadImbalanceThreshold = or(change.ioImbalanceThreshold(), io.ioLoadImbalanceThreshold);
            pod.ioLoadBalanceConfig = io;
        }
        if (change.spaceAutomationLevel() != null || change.ioAutomationLevel() != null || change.ruleAutomationLevel() != null
                || change.evacuationAutomationLevel() != null) {
            InventoryTypes.StorageDrsAutomationConfig auto = now.automationOverrides != null
                    ? now.automationOverrides : new InventoryTypes.StorageDrsAutomationConfig();
            auto.spaceLoadBalanceAutomationMode = automationMode(change.spaceAutomationLevel(), auto.spaceLoadBalanceAutomationMode);
            auto.ioLoadBalanceAutomationMode = automationMode(change.ioAutomationLevel(), auto.ioLoadBalanceAutomationMode);
            auto.ruleEnforcementAutomationMode = automationMode(change.ruleAutomationLevel(), auto.ruleEnforcementAutomationMode);
            auto.vmEvacuationAutomationMode = automationMode(change.evacuationAutomationLevel(), auto.vmEvacuationAutomationMode);
            pod.automationOverrides = auto;
        }
        if (change.ignoreAffinityForMaintenance() != null) {
            String key = StorageDrsRules.PodSettings.IGNORE_AFFINITY_FOR_MAINTENANCE;
            InventoryTypes.StorageDrsOptionSpec option = new InventoryTypes.StorageDrsOptionSpec();
            option.operation = InventoryAssembler.option(now, key) == null ? "add" : "edit";
            option.option = new InventoryTypes.OptionValueSpec(key, change.ignoreAffinityForMaintenance() ? "1" : "0");
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

    @Override
    public String addVmAntiAffinityRule(String podId, String name, java.util.List<String> vmIds) throws VimFaultException {
        InventoryTypes.ClusterAntiAffinityRuleSpec rule = new InventoryTypes.ClusterAntiAffinityRuleSpec();
        rule.name = name;
        rule.enabled = true;
        vmIds.forEach(vm -> rule.vm.add(new ManagedObjectReference("VirtualMachine", vm)));
        InventoryTypes.ClusterRuleSpec change = new InventoryTypes.ClusterRuleSpec();
        change.operation = "add";
        change.info = rule;
        return configureRule(podId, change);
    }

    @Override
    public String removeVmAntiAffinityRule(String podId, String name) throws VimFaultException {
        Integer key = null;
        if (podStorageDrsConfig(podId) instanceof InventoryTypes.StorageDrsConfigInfo config && config.podConfig != null) {
            for (InventoryTypes.ClusterRuleInfo r : config.podConfig.rule) {
                if (r instanceof InventoryTypes.ClusterAntiAffinityRuleSpec && name.equals(r.name)) {
                    key = r.key;
                }
            }
        }
        if (key == null) {
            throw new VimFaultException("ConfigureStorageDrsForPod_Task", "NotFound",
                    "datastore cluster " + podId + " has no VM anti-affinity rule " + name);
        }
        InventoryTypes.ClusterRuleSpec change = new InventoryTypes.ClusterRuleSpec();
        change.operation = "remove";
        change.removeKey = new InventoryTypes.XsdInt(key);
        return configureRule(podId, change);
    }

    @Override
    public String addVmdkAntiAffinityRule(String podId, String vmId, String name, java.util.List<Integer> diskKeys)
            throws VimFaultException {
        InventoryTypes.VirtualDiskAntiAffinityRuleSpec rule = new InventoryTypes.VirtualDiskAntiAffinityRuleSpec();
        rule.name = name;
        rule.enabled = true;
        rule.diskId.addAll(diskKeys);
        InventoryTypes.StorageDrsVmConfigInfo info = new InventoryTypes.StorageDrsVmConfigInfo();
        info.vm = new ManagedObjectReference("VirtualMachine", vmId);
        info.intraVmAffinity = false;
        info.intraVmAntiAffinity = rule;
        InventoryTypes.StorageDrsVmConfigSpec change = new InventoryTypes.StorageDrsVmConfigSpec();
        change.operation = vmConfig(podId, vmId) == null ? "add" : "edit";
        change.info = info;
        return configureVms(podId, java.util.List.of(change));
    }

    @Override
    public String removeVmdkAntiAffinityRule(String podId, String vmId) throws VimFaultException {
        InventoryTypes.StorageDrsVmConfigInfo held = vmConfig(podId, vmId);
        if (held == null || held.intraVmAntiAffinity == null) {
            throw new VimFaultException("ConfigureStorageDrsForPod_Task", "NotFound",
                    "datastore cluster " + podId + " holds no VMDK anti-affinity rule for " + vmId);
        }
        InventoryTypes.StorageDrsVmConfigInfo kept = copy(held);
        kept.intraVmAntiAffinity = null;
        return rewriteVmConfig(podId, vmId, held, kept);
    }

    @Override
    public String configureVmKeepVmdksTogether(String podId, String vmId, Boolean keepTogether) throws VimFaultException {
        InventoryTypes.StorageDrsVmConfigInfo held = vmConfig(podId, vmId);
        if (keepTogether == null) {
            if (held == null || held.intraVmAffinity == null) {
                throw new VimFaultException("ConfigureStorageDrsForPod_Task", "NotFound",
                        "datastore cluster " + podId + " holds no keep-together setting for " + vmId);
            }
            InventoryTypes.StorageDrsVmConfigInfo kept = copy(held);
            kept.intraVmAffinity = null;
            return rewriteVmConfig(podId, vmId, held, kept);
        }
        InventoryTypes.StorageDrsVmConfigInfo info = new InventoryTypes.StorageDrsVmConfigInfo();
        info.vm = new ManagedObjectReference("VirtualMachine", vmId);
        info.intraVmAffinity = keepTogether;
        InventoryTypes.StorageDrsVmConfigSpec change = new InventoryTypes.StorageDrsVmConfigSpec();
        change.operation = held == null ? "add" : "edit";
        change.info = info;
        return configureVms(podId, java.util.List.of(change));
    }

    private static InventoryTypes.StorageDrsVmConfigInfo copy(InventoryTypes.StorageDrsVmConfigInfo held) {
        InventoryTypes.StorageDrsVmConfigInfo c = new InventoryTypes.StorageDrsVmConfigInfo();
        c.vm = held.vm;
        c.enabled = held.enabled;
        c.behavior = held.behavior == null || held.behavior.isBlank() ? null : held.behavior;
        c.intraVmAffinity = held.intraVmAffinity;
        c.intraVmAntiAffinity = held.intraVmAntiAffinity;
        return c;
    }

    /** Replaces the VM's entry ({@code held}) with {@code kept} in one task. */
    private String rewriteVmConfig(String podId, String vmId, InventoryTypes.StorageDrsVmConfigInfo held,
                                   InventoryTypes.StorageDrsVmConfigInfo kept) throws VimFaultException {
        return configureVms(podId, rewrite(vmId, held, kept));
    }

    /**
     * The changes that replace the VM's entry ({@code held}, or none) with {@code kept}: an edit
     * cannot unset a property, so the entry is removed and, when anything is left, added back.
     */
    private static java.util.List<InventoryTypes.StorageDrsVmConfigSpec> rewrite(String vmId, InventoryTypes.StorageDrsVmConfigInfo held,
                                                                                 InventoryTypes.StorageDrsVmConfigInfo kept) {
        java.util.List<InventoryTypes.StorageDrsVmConfigSpec> changes = new java.util.ArrayList<>();
        if (held != null) {
            InventoryTypes.StorageDrsVmConfigSpec remove = new InventoryTypes.StorageDrsVmConfigSpec();
            remove.operation = "remove";
            remove.removeKey = new ManagedObjectReference("VirtualMachine", vmId);
            changes.add(remove);
        }
        if (kept.enabled != null || kept.behavior != null || kept.intraVmAffinity != null || kept.intraVmAntiAffinity != null) {
            InventoryTypes.StorageDrsVmConfigSpec addBack = new InventoryTypes.StorageDrsVmConfigSpec();
            addBack.operation = "add";
            addBack.info = kept;
            changes.add(addBack);
        }
        return changes;
    }

    /** The VM's entry in the pod's vmConfig, or null. */
    private InventoryTypes.StorageDrsVmConfigInfo vmConfig(String podId, String vmId) throws VimFaultException {
        return podStorageDrsConfig(podId) instanceof InventoryTypes.StorageDrsConfigInfo config ? vmConfig(config, vmId) : null;
    }

    private static InventoryTypes.StorageDrsVmConfigInfo vmConfig(InventoryTypes.StorageDrsConfigInfo config, String vmId) {
        for (InventoryTypes.StorageDrsVmConfigInfo v : config.vmConfig) {
            if (v.vm != null && vmId.equals(v.vm.value())) {
                return v;
            }
        }
        return null;
    }

    private String configureVms(String podId, java.util.List<InventoryTypes.StorageDrsVmConfigSpec> changes) throws VimFaultException {
        InventoryTypes.StorageDrsConfigSpec spec = new InventoryTypes.StorageDrsConfigSpec();
        spec.vmConfigSpec.addAll(changes);
        return configure(podId, spec);
    }

    private String configureRule(String podId, InventoryTypes.ClusterRuleSpec change) throws VimFaultException {
        InventoryTypes.StorageDrsPodConfigSpec pod = new InventoryTypes.StorageDrsPodConfigSpec();
        pod.rule.add(change);
        return configurePod(podId, pod);
    }

    /** A change of the pod's own settings or rules. */
    private String configurePod(String podId, InventoryTypes.StorageDrsPodConfigSpec podChange) throws VimFaultException {
        InventoryTypes.StorageDrsConfigSpec spec = new InventoryTypes.StorageDrsConfigSpec();
        spec.podConfigSpec = podChange;
        return configure(podId, spec);
    }

    /** ConfigureStorageDrsForPod_Task with modify = true: only what the spec sets changes. */
    private String configure(String podId, InventoryTypes.StorageDrsConfigSpec spec) throws VimFaultException {
        return call(() -> vim.configureStorageDrsForPodTask(new ManagedObjectReference("StoragePod", podId), spec, true)).value();
    }

    @Override
    public TaskStatus task(String taskId) throws VimFaultException {
        TaskTypes.TaskInfo info = call(() -> vim.taskInfo(new ManagedObjectReference("Task", taskId)));
        String faultType = null;
        String message = null;
        if (info.error != null) {
            faultType = info.error.faultType();
            message = info.error.localizedMessage;
        }
        return new TaskStatus(taskId, info.state, info.progress, faultType, message, info.cancelable);
    }

    @Override
    public void cancelTask(String taskId) throws VimFaultException {
        call(() -> {
            vim.cancelTask(new ManagedObjectReference("Task", taskId));
            return null;
        });
    }

    @Override
    public java.util.List<RecentTask> recentTasks(String vmId) throws VimFaultException {
        return call(() -> {
            PropertyCollectorTypes.ObjectContent oc = vim.retrieveProperties(new ManagedObjectReference("VirtualMachine", vmId),
                    "recentTask");
            if (oc == null) {
                throw new VimFaultException("RetrievePropertiesEx", "ManagedObjectNotFound", "VM " + vmId + " is gone");
            }
            java.util.List<RecentTask> tasks = new java.util.ArrayList<>();
            if (oc.get("recentTask") instanceof PropertyCollectorTypes.ArrayOfManagedObjectReference refs) {
                for (ManagedObjectReference ref : refs.items) {
                    TaskTypes.TaskInfo info;
                    try {
                        info = vim.taskInfo(ref);
                    } catch (VimFaultException gone) {
                        if ("ManagedObjectNotFound".equals(gone.faultType())) {
                            continue; // dropped from the list between the two reads
                        }
                        throw gone;
                    }
                    tasks.add(new RecentTask(ref.value(), info.descriptionId, info.entity == null ? null : info.entity.value(),
                            info.state, info.queueTime == null ? null : info.queueTime.toGregorianCalendar().toInstant()));
                }
            }
            return tasks;
        });
    }

    @Override
    public java.util.List<PerfCounter> perfCounters() throws VimFaultException {
        java.util.List<PerformanceTypes.PerfCounterInfo> all = call(vim::perfCounter);
        java.util.List<PerfCounter> counters = new java.util.ArrayList<>(all.size());
        for (PerformanceTypes.PerfCounterInfo c : all) {
            if (c.groupInfo == null || c.nameInfo == null || c.rollupType == null) {
                continue; // a counter without a name cannot be asked for by name
            }
            counters.add(new PerfCounter(c.key, c.groupInfo.key + "." + c.nameInfo.key + "." + c.rollupType,
                    c.unitInfo == null ? "" : c.unitInfo.key, c.statsType));
        }
        return counters;
    }

    /** The realtime interval of hosts and VMs, seconds. */
    static final int REALTIME_INTERVAL = 20;

    @Override
    public java.util.List<PerfSamples> queryPerf(java.util.List<PerfQuery> queries) throws VimFaultException {
        java.util.List<PerformanceTypes.PerfQuerySpec> specs = new java.util.ArrayList<>(queries.size());
        for (PerfQuery q : queries) {
            PerformanceTypes.PerfQuerySpec spec = new PerformanceTypes.PerfQuerySpec();
            spec.entity = new ManagedObjectReference(q.entityType(), q.entityId());
            spec.startTime = q.after() == null ? null : q.after().toString();
            spec.maxSample = q.maxSamples();
            for (int key : q.counterKeys()) {
                spec.metricId.add(new PerformanceTypes.PerfMetricId(key, "*"));
            }
            spec.intervalId = REALTIME_INTERVAL;
            spec.format = "csv";
            specs.add(spec);
        }
        java.util.List<PerformanceTypes.PerfEntityMetricBase> answers = call(() -> vim.queryPerf(specs));
        java.util.List<PerfSamples> samples = new java.util.ArrayList<>(answers.size());
        for (PerformanceTypes.PerfEntityMetricBase a : answers) {
            samples.add(PerfCsv.read(a));
        }
        return samples;
    }

    @Override
    public Optional<ExtensionRegistration> findExtension(String key) throws VimFaultException {
        ExtensionTypes.Extension e = call(() -> vim.findExtension(key));
        if (e == null) {
            return Optional.empty();
        }
        String manifest = e.client.isEmpty() ? null : e.client.get(0).url;
        String thumb = e.server.isEmpty() ? null : e.server.get(0).serverThumbprint;
        String email = e.server.isEmpty() || e.server.get(0).adminEmail.isEmpty() ? null : e.server.get(0).adminEmail.get(0);
        return Optional.of(new ExtensionRegistration(e.key, e.version,
                e.description == null ? null : e.description.label, e.description == null ? null : e.description.summary,
                e.company, manifest == null ? "(none)" : manifest, thumb, email));
    }

    @Override
    public void registerOrUpdateExtension(ExtensionRegistration r) throws VimFaultException {
        ExtensionTypes.Extension e = new ExtensionTypes.Extension();
        e.key = r.key();
        e.version = r.version();
        e.company = r.company();
        e.description = new InventoryTypes.Description(r.label(), r.summary());
        e.lastHeartbeatTime = now();
        e.shownInSolutionManager = false;

        ExtensionTypes.ExtensionClientInfo client = new ExtensionTypes.ExtensionClientInfo();
        client.version = r.version();
        client.company = r.company();
        client.description = new InventoryTypes.Description(r.label(), r.summary());
        client.type = "vsphere-client-remote";
        client.url = r.manifestUrl();
        e.client.add(client);

        ExtensionTypes.ExtensionServerInfo server = new ExtensionTypes.ExtensionServerInfo();
        server.url = r.manifestUrl();
        server.company = r.company();
        server.description = new InventoryTypes.Description(r.label(), r.summary());
        server.type = "MANIFEST_SERVER";
        server.serverThumbprint = r.serverThumbprint();
        if (r.adminEmail() != null) {
            server.adminEmail.add(r.adminEmail());
        }
        e.server.add(server);

        call(() -> {
            if (vim.findExtension(r.key()) == null) {
                vim.registerExtension(e);
            } else {
                vim.updateExtension(e);
            }
            return null;
        });
    }

    @Override
    public void unregisterExtension(String key) throws VimFaultException {
        call(() -> {
            vim.unregisterExtension(key);
            return null;
        });
    }

    private static javax.xml.datatype.XMLGregorianCalendar now() {
        try {
            GregorianCalendar c = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
            c.setTimeInMillis(Instant.now().toEpochMilli());
            return DatatypeFactory.newInstance().newXMLGregorianCalendar(c);
        } catch (DatatypeConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        keepAlive.shutdownNow();
        try {
            vim.logout();
        } catch (VimFaultException e) {
            log.debug("logout: {}", e.getMessage());
        }
    }
}
