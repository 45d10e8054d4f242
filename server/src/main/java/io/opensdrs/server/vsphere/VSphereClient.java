package io.opensdrs.server.vsphere;

import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the server asks of vCenter, behind one interface so that the small vim25
 * client ({@link io.opensdrs.server.vsphere.object.Vim25VSphereClient}) can be swapped for VMware's official SDK. Object ids
 * are managed-object ids ({@code vm-42}, {@code datastore-17}). Calls fail with
 * {@link VimFaultException}, whose fault type names what went wrong.
 */
public interface VSphereClient extends AutoCloseable {

    /** Product, version and instance of the vCenter this client talks to. */
    VCenterAbout about();

    /** A full read of the inventory the product cares about. */
    InventorySnapshot inventory() throws VimFaultException;

    /**
     * Starts watching the inventory for changes (PropertyCollector + WaitForUpdatesEx): each
     * call of {@link InventoryWatch#awaitChange} returns the inventory after the next change.
     */
    InventoryWatch watchInventory() throws VimFaultException;

    /** Storage vMotion of the given disks (disk key → destination datastore id); the VM stays where it runs. */
    String relocateDisks(String vmId, Map<Integer, String> diskToDatastore) throws VimFaultException;

    /** Storage vMotion of a whole VM — its home and every disk — to one datastore. */
    String relocateVm(String vmId, String datastoreId) throws VimFaultException;

    /**
     * Storage vMotion of the VM's home alone — its configuration file and the files beside it — to
     * a datastore: {@code spec.datastore} is the destination and every disk has a locator for the
     * datastore it is on, so that none moves with the home.
     *
     * @param disksStayOn every disk of the VM (key → the datastore it is on now)
     */
    String relocateHome(String vmId, String datastoreId, Map<Integer, String> disksStayOn) throws VimFaultException;

    /**
     * DatastoreEnterMaintenanceMode: vCenter marks the datastore {@code enteringMaintenance} and
     * returns a task that completes once no virtual machine uses it ({@code inMaintenance}).
     *
     * @return the task's id, or null when vCenter returns none
     */
    String enterDatastoreMaintenanceMode(String datastoreId) throws VimFaultException;

    /** DatastoreExitMaintenanceMode_Task: back to {@code normal}; a running enter task is cancelled. */
    String exitDatastoreMaintenanceMode(String datastoreId) throws VimFaultException;

    /** The datastore's Storage I/O Control settings as vCenter holds them now ({@code iormConfiguration}); empty when it holds none. */
    Optional<IormConfiguration> iormConfiguration(String datastoreId) throws VimFaultException;

    /**
     * Sets the datastore's SIOC congestion threshold, the latency beyond which ESXi throttles its
     * IO: ConfigureDatastoreIORM_Task with {@code congestionThresholdMode = manual} and
     * {@code congestionThreshold = thresholdMs} (vSphere takes 5 to 100 ms). SIOC's {@code enabled}
     * is not sent, so it stays as the administrator has it. Returns the task id.
     */
    String configureCongestionThreshold(String datastoreId, int thresholdMs) throws VimFaultException;

    /**
     * The pod's Storage DRS settings and rules as vCenter holds them now
     * ({@code podStorageDrsEntry.storageDrsConfig}).
     */
    StorageDrsRules storageDrsRules(String podId) throws VimFaultException;

    /**
     * Sets, in one ConfigureStorageDrsForPod_Task (modify=true, so nothing else of the pod's
     * configuration changes), the pod settings {@code change} holds (its non-null values) and each
     * listed VM's automation as the vSphere Client's "VM Overrides" hold it: EXCLUDED is
     * {@code enabled = false}, MANUAL and AUTOMATED its {@code behavior}, DEFAULT neither (the VM's
     * keep-together and VMDK rule stay). Returns the task id.
     */
    String configureStorageDrsForPod(String podId, StorageDrsRules.PodSettings change,
                                     Map<String, io.opensdrs.balance.VmOverride> vmAutomation) throws VimFaultException;

    /**
     * Adds an enabled VM anti-affinity rule to the pod (ConfigureStorageDrsForPod_Task,
     * {@code podConfigSpec.rule} operation add; vCenter assigns the key). Returns the task id.
     */
    String addVmAntiAffinityRule(String podId, String name, java.util.List<String> vmIds) throws VimFaultException;

    /**
     * Removes the pod's VM anti-affinity rule of that name (operation remove by the key vCenter
     * holds for it now). Returns the task id; fails with {@code NotFound} when the pod has no such rule.
     */
    String removeVmAntiAffinityRule(String podId, String name) throws VimFaultException;

    /**
     * Gives the VM a VMDK anti-affinity rule over the listed disks (its {@code vmConfig} entry's
     * {@code intraVmAntiAffinity}, with {@code intraVmAffinity} false: disks kept apart cannot be
     * kept together), adding the entry or editing the one the pod holds. Returns the task id.
     */
    String addVmdkAntiAffinityRule(String podId, String vmId, String name, java.util.List<Integer> diskKeys) throws VimFaultException;

    /**
     * Removes the VM's VMDK anti-affinity rule and keeps its other settings (its keep-together
     * stays false): one task removes the VM's entry and adds it back without the rule (an edit
     * cannot unset a property). Returns the
     * task id; fails with {@code NotFound} when the VM has no such rule.
     */
    String removeVmdkAntiAffinityRule(String podId, String vmId) throws VimFaultException;

    /**
     * Sets the VM's own "Keep VMDKs together" ({@code vmConfig.intraVmAffinity}): true or false
     * (entry added or edited), or null to follow the pod's default again (the entry rewritten
     * without it, as for {@link #removeVmdkAntiAffinityRule}). Returns the task id; fails with
     * {@code NotFound} when asked to clear a setting the VM does not have.
     */
    String configureVmKeepVmdksTogether(String podId, String vmId, Boolean keepTogether) throws VimFaultException;

    /** The state of a vCenter task, by task id. */
    TaskStatus task(String taskId) throws VimFaultException;

    void cancelTask(String taskId) throws VimFaultException;

    /**
     * Polls a task until it has finished; fails with the task's fault when it failed, and with
     * {@code Timedout} when it has not finished within the timeout.
     */
    default void completeTask(String taskId, Duration timeout) throws VimFaultException {
        long deadline = System.nanoTime() + timeout.toNanos();
        TaskStatus s = task(taskId);
        while (!s.done() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            s = task(taskId);
        }
        if (!s.done()) {
            throw new VimFaultException(taskId, "Timedout", "still " + s.state() + " after " + timeout.toSeconds() + " s");
        }
        if (!s.succeeded()) {
            throw new VimFaultException(taskId, s.faultType(), s.faultMessage());
        }
    }

    /**
     * The tasks vCenter lists in the VM's {@code recentTask} property (queued, running and
     * recently finished ones), oldest first. Used to find a task whose id was lost when the
     * server died between issuing a call and recording its answer.
     */
    java.util.List<RecentTask> recentTasks(String vmId) throws VimFaultException;

    /** Every counter of vCenter's PerformanceManager ({@code perfCounter}). */
    java.util.List<PerfCounter> perfCounters() throws VimFaultException;

    /**
     * PerformanceManager.QueryPerf in the realtime interval (20 s), all the queries in one call,
     * answered in the order asked. A structurally broken answer fails the call
     * ({@code InvalidResponse}); a series that cannot be read is returned with its problem named.
     */
    java.util.List<PerfSamples> queryPerf(java.util.List<PerfQuery> queries) throws VimFaultException;

    Optional<ExtensionRegistration> findExtension(String key) throws VimFaultException;

    /** Registers the extension, or updates it when one with that key exists. */
    void registerOrUpdateExtension(ExtensionRegistration extension) throws VimFaultException;

    void unregisterExtension(String key) throws VimFaultException;

    /** Logs out; the client is unusable afterwards. */
    @Override
    void close();

    /** An inventory being watched; close it to drop the server-side filter. */
    interface InventoryWatch extends AutoCloseable {
        /** The inventory after the next change, or empty when nothing changed within maxWait. */
        Optional<InventorySnapshot> awaitChange(Duration maxWait) throws VimFaultException;

        @Override
        void close();
    }
}
