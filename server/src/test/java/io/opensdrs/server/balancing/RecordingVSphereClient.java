package io.opensdrs.server.balancing;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.ExtensionRegistration;
import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.IormConfiguration;
import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.VCenterAbout;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TEST FIXTURE: a vCenter that records every RelocateVM_Task it is asked for, so that a test can
 * say "no relocation was issued" (manual mode) or "one was" (automated). Its inventory is whatever
 * the test sets; relocation tasks stay running (the applier's later steps are the migration package's
 * tests). It keeps the pod settings and VM automation it is given; rule changes it refuses.
 */
public class RecordingVSphereClient implements VSphereClient {

    public final List<String> relocations = new CopyOnWriteArrayList<>();
    /** DatastoreEnterMaintenanceMode and DatastoreExitMaintenanceMode_Task calls: "enter datastore-11", "exit datastore-11". */
    public final List<String> maintenanceCalls = new CopyOnWriteArrayList<>();
    /** DatastoreEnterMaintenanceMode and DatastoreExitMaintenanceMode_Task fail with InvalidState while this is set. */
    public volatile boolean refusesMaintenance;
    /** ConfigureStorageDrsForPod_Task fails with NotSupported while this is set. */
    public volatile boolean refusesPodConfiguration;
    /** ConfigureDatastoreIORM_Task calls: "datastore-11 27" (datastore, manual threshold ms). */
    public final List<String> congestionThresholdCalls = new CopyOnWriteArrayList<>();
    private final Map<String, IormConfiguration> iorm = new ConcurrentHashMap<>();
    private final Map<String, StorageDrsRules.PodSettings> podSettings = new ConcurrentHashMap<>();
    /** pod → VM → its automation other than DEFAULT. */
    private final Map<String, Map<String, VmOverride>> vmAutomation = new ConcurrentHashMap<>();
    private final Set<String> completedTasks = ConcurrentHashMap.newKeySet();
    private volatile InventorySnapshot inventory = new InventorySnapshot("0", List.of(), List.of(), List.of(), List.of(), List.of());
    private final AtomicInteger tasks = new AtomicInteger();

    public void setInventory(InventorySnapshot s) {
        inventory = s;
    }

    @Override
    public VCenterAbout about() {
        return new VCenterAbout("recording fixture", "VirtualCenter", "8.0.2.0", "fixture");
    }

    @Override
    public InventorySnapshot inventory() {
        return inventory;
    }

    @Override
    public InventoryWatch watchInventory() {
        return new InventoryWatch() {
            @Override
            public Optional<InventorySnapshot> awaitChange(Duration maxWait) {
                return Optional.empty();
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public String relocateDisks(String vmId, Map<Integer, String> diskToDatastore) {
        relocations.add(vmId + " disks " + diskToDatastore);
        return "task-" + tasks.incrementAndGet();
    }

    @Override
    public String relocateVm(String vmId, String datastoreId) {
        relocations.add(vmId + " -> " + datastoreId);
        return "task-" + tasks.incrementAndGet();
    }

    @Override
    public String relocateHome(String vmId, String datastoreId, Map<Integer, String> disksStayOn) {
        relocations.add(vmId + " home -> " + datastoreId + " disks stay " + disksStayOn);
        return "task-" + tasks.incrementAndGet();
    }

    @Override
    public String enterDatastoreMaintenanceMode(String datastoreId) throws VimFaultException {
        if (refusesMaintenance) {
            throw new VimFaultException("DatastoreEnterMaintenanceMode", "InvalidState", "the recording fixture refuses maintenance mode");
        }
        maintenanceCalls.add("enter " + datastoreId);
        return "task-" + tasks.incrementAndGet(); // runs until the datastore is empty: never completes here
    }

    @Override
    public String exitDatastoreMaintenanceMode(String datastoreId) throws VimFaultException {
        if (refusesMaintenance) {
            throw new VimFaultException("DatastoreExitMaintenanceMode_Task", "InvalidState", "the recording fixture refuses maintenance mode");
        }
        maintenanceCalls.add("exit " + datastoreId);
        String task = "task-" + tasks.incrementAndGet();
        completedTasks.add(task);
        return task;
    }

    /** The task ends, successful. */
    public void complete(String taskId) {
        completedTasks.add(taskId);
    }

    @Override
    public TaskStatus task(String taskId) {
        return completedTasks.contains(taskId) ? new TaskStatus(taskId, "success", 100, null, null)
                : new TaskStatus(taskId, "running", 10, null, null);
    }

    @Override
    public void cancelTask(String taskId) {
    }

    @Override
    public Optional<IormConfiguration> iormConfiguration(String datastoreId) {
        return Optional.ofNullable(iorm.get(datastoreId));
    }

    /** Holds the threshold at once (the task it answers is complete), as vCenter does once its task ends. */
    @Override
    public String configureCongestionThreshold(String datastoreId, int thresholdMs) {
        congestionThresholdCalls.add(datastoreId + " " + thresholdMs);
        IormConfiguration held = iorm.get(datastoreId);
        iorm.put(datastoreId, new IormConfiguration(held != null && held.enabled(), IormConfiguration.MANUAL, thresholdMs,
                held == null ? 90 : held.percentOfPeakThroughput()));
        String id = "task-" + tasks.incrementAndGet();
        completedTasks.add(id);
        return id;
    }

    @Override
    public StorageDrsRules storageDrsRules(String podId) {
        List<StorageDrsRules.VmRules> vms = new ArrayList<>();
        new TreeMap<>(vmAutomation.getOrDefault(podId, Map.of())).forEach((vm, o) -> vms.add(new StorageDrsRules.VmRules(vm, null, null,
                o == VmOverride.EXCLUDED ? Boolean.FALSE : null,
                o == VmOverride.MANUAL ? "manual" : o == VmOverride.AUTOMATED ? "automated" : null)));
        return new StorageDrsRules(podSettings.getOrDefault(podId, StorageDrsRules.PodSettings.UNSET), List.of(), vms);
    }

    /** Keeps the pod settings and VM automation it is given (what a change sets replaces what the pod held), unless told to refuse. */
    @Override
    public String configureStorageDrsForPod(String podId, StorageDrsRules.PodSettings change, Map<String, VmOverride> automation)
            throws VimFaultException {
        if (refusesPodConfiguration) {
            throw notSupported();
        }
        Map<String, VmOverride> vms = vmAutomation.computeIfAbsent(podId, p -> new ConcurrentHashMap<>());
        automation.forEach((vm, o) -> {
            if (o == VmOverride.DEFAULT) {
                vms.remove(vm);
            } else {
                vms.put(vm, o);
            }
        });
        podSettings.merge(podId, change, (held, c) -> new StorageDrsRules.PodSettings(or(c.storageDrsEnabled(), held.storageDrsEnabled()),
                or(c.automationLevel(), held.automationLevel()),
                or(c.ioLoadBalanceEnabled(), held.ioLoadBalanceEnabled()), or(c.keepVmdksTogether(), held.keepVmdksTogether()),
                or(c.spaceThresholdMode(), held.spaceThresholdMode()), or(c.spaceThresholdPct(), held.spaceThresholdPct()),
                or(c.freeSpaceThresholdGb(), held.freeSpaceThresholdGb()), or(c.minSpaceDifferencePct(), held.minSpaceDifferencePct()),
                or(c.latencyThresholdMs(), held.latencyThresholdMs()), or(c.ioImbalanceThreshold(), held.ioImbalanceThreshold()),
                or(c.spaceAutomationLevel(), held.spaceAutomationLevel()), or(c.ioAutomationLevel(), held.ioAutomationLevel()),
                or(c.ruleAutomationLevel(), held.ruleAutomationLevel()), or(c.evacuationAutomationLevel(), held.evacuationAutomationLevel()),
                or(c.ignoreAffinityForMaintenance(), held.ignoreAffinityForMaintenance())));
        String task = "task-" + tasks.incrementAndGet();
        completedTasks.add(task);
        return task;
    }

    private static <T> T or(T change, T held) {
        return change != null ? change : held;
    }

    @Override
    public String addVmAntiAffinityRule(String podId, String name, List<String> vmIds) throws VimFaultException {
        throw notSupported();
    }

    @Override
    public String removeVmAntiAffinityRule(String podId, String name) throws VimFaultException {
        throw notSupported();
    }

    @Override
    public String addVmdkAntiAffinityRule(String podId, String vmId, String name, List<Integer> diskKeys) throws VimFaultException {
        throw notSupported();
    }

    @Override
    public String removeVmdkAntiAffinityRule(String podId, String vmId) throws VimFaultException {
        throw notSupported();
    }

    @Override
    public String configureVmKeepVmdksTogether(String podId, String vmId, Boolean keepTogether) throws VimFaultException {
        throw notSupported();
    }

    private static VimFaultException notSupported() {
        return new VimFaultException("ConfigureStorageDrsForPod_Task", "NotSupported", "the recording fixture refuses pod configuration");
    }

    @Override
    public List<RecentTask> recentTasks(String vmId) {
        return new ArrayList<>();
    }

    /** A vCenter without performance data: the balancing tests feed statistics themselves. */
    @Override
    public List<io.opensdrs.server.vsphere.PerfCounter> perfCounters() throws VimFaultException {
        throw new VimFaultException("RetrievePropertiesEx", "NotSupported", "the recording fixture keeps no performance counters");
    }

    @Override
    public List<io.opensdrs.server.vsphere.PerfSamples> queryPerf(List<io.opensdrs.server.vsphere.PerfQuery> queries)
            throws VimFaultException {
        throw new VimFaultException("QueryPerf", "NotSupported", "the recording fixture keeps no performance counters");
    }

    @Override
    public Optional<ExtensionRegistration> findExtension(String key) {
        return Optional.empty();
    }

    @Override
    public void registerOrUpdateExtension(ExtensionRegistration extension) {
    }

    @Override
    public void unregisterExtension(String key) {
    }

    @Override
    public void close() {
    }
}
