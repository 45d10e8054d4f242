package io.opensdrs.server.vsphere.object;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.ExtensionRegistration;
import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.IormConfiguration;
import io.opensdrs.server.vsphere.PerfCounter;
import io.opensdrs.server.vsphere.PerfQuery;
import io.opensdrs.server.vsphere.PerfSamples;
import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.VCenterAbout;
import io.opensdrs.server.vsphere.VCenterConnection;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.ServiceInstanceTypes;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link VSphereClient} over the small vim25 SOAP client: it holds one logged-in {@link Session}
 * and hands each call to the managed object it is made on, as the vSphere API defines it.
 */
public final class Vim25VSphereClient implements VSphereClient {
    private final Session session;
    private final InventoryCollector inventory;
    private final StorageResourceManager storageResourceManager;
    private final PerformanceManager performanceManager;
    private final ExtensionManager extensionManager;

    private Vim25VSphereClient(Session session) {
        this.session = session;
        this.inventory = new InventoryCollector(session);
        this.storageResourceManager = new StorageResourceManager(session);
        this.performanceManager = new PerformanceManager(session);
        this.extensionManager = new ExtensionManager(session);
    }

    /** Connects and logs in; fails with the fault vCenter gave (InvalidLogin, Transport, ...). */
    public static Vim25VSphereClient login(VCenterConnection connection) throws VimFaultException {
        return new Vim25VSphereClient(Session.login(connection));
    }

    /** The underlying method-level client, for tests and tools. */
    public Vim25Client vim25() {
        return session.vim();
    }

    @Override
    public VCenterAbout about() {
        ServiceInstanceTypes.AboutInfo a = session.vim().serviceContent().about;
        return new VCenterAbout(a.fullName, a.apiType, a.apiVersion, a.instanceUuid);
    }

    @Override
    public InventorySnapshot inventory() throws VimFaultException {
        return inventory.inventory();
    }

    @Override
    public InventoryWatch watchInventory() throws VimFaultException {
        return inventory.watch();
    }

    @Override
    public String relocateDisks(String vmId, Map<Integer, String> diskToDatastore) throws VimFaultException {
        return new VirtualMachine(session, vmId).relocate(VirtualMachine.disks(diskToDatastore));
    }

    @Override
    public String relocateVm(String vmId, String datastoreId) throws VimFaultException {
        return new VirtualMachine(session, vmId).relocate(VirtualMachine.wholeVm(datastoreId));
    }

    @Override
    public String relocateHome(String vmId, String datastoreId, Map<Integer, String> disksStayOn) throws VimFaultException {
        return new VirtualMachine(session, vmId).relocate(VirtualMachine.home(datastoreId, disksStayOn));
    }

    @Override
    public String enterDatastoreMaintenanceMode(String datastoreId) throws VimFaultException {
        return new Datastore(session, datastoreId).enterMaintenanceMode();
    }

    @Override
    public String exitDatastoreMaintenanceMode(String datastoreId) throws VimFaultException {
        return new Datastore(session, datastoreId).exitMaintenanceMode();
    }

    @Override
    public Optional<IormConfiguration> iormConfiguration(String datastoreId) throws VimFaultException {
        return new Datastore(session, datastoreId).iormConfiguration();
    }

    @Override
    public String configureCongestionThreshold(String datastoreId, int thresholdMs) throws VimFaultException {
        return storageResourceManager.configureCongestionThreshold(datastoreId, thresholdMs);
    }

    @Override
    public StorageDrsRules storageDrsRules(String podId) throws VimFaultException {
        return new StoragePod(session, podId).storageDrsRules();
    }

    @Override
    public String configureStorageDrsForPod(String podId, StorageDrsRules.PodSettings change,
                                            Map<String, VmOverride> vmAutomation) throws VimFaultException {
        return storageResourceManager.configureStorageDrsForPod(podId, change, vmAutomation);
    }

    @Override
    public String addVmAntiAffinityRule(String podId, String name, List<String> vmIds) throws VimFaultException {
        return storageResourceManager.addVmAntiAffinityRule(podId, name, vmIds);
    }

    @Override
    public String removeVmAntiAffinityRule(String podId, String name) throws VimFaultException {
        return storageResourceManager.removeVmAntiAffinityRule(podId, name);
    }

    @Override
    public String addVmdkAntiAffinityRule(String podId, String vmId, String name, List<Integer> diskKeys)
            throws VimFaultException {
        return storageResourceManager.addVmdkAntiAffinityRule(podId, vmId, name, diskKeys);
    }

    @Override
    public String removeVmdkAntiAffinityRule(String podId, String vmId) throws VimFaultException {
        return storageResourceManager.removeVmdkAntiAffinityRule(podId, vmId);
    }

    @Override
    public String configureVmKeepVmdksTogether(String podId, String vmId, Boolean keepTogether) throws VimFaultException {
        return storageResourceManager.configureVmKeepVmdksTogether(podId, vmId, keepTogether);
    }

    @Override
    public TaskStatus task(String taskId) throws VimFaultException {
        return new Task(session, taskId).info();
    }

    @Override
    public void cancelTask(String taskId) throws VimFaultException {
        new Task(session, taskId).cancel();
    }

    @Override
    public List<RecentTask> recentTasks(String vmId) throws VimFaultException {
        return new VirtualMachine(session, vmId).recentTasks();
    }

    @Override
    public List<PerfCounter> perfCounters() throws VimFaultException {
        return performanceManager.perfCounter();
    }

    @Override
    public List<PerfSamples> queryPerf(List<PerfQuery> queries) throws VimFaultException {
        return performanceManager.queryPerf(queries);
    }

    @Override
    public Optional<ExtensionRegistration> findExtension(String key) throws VimFaultException {
        return extensionManager.findExtension(key);
    }

    @Override
    public void registerOrUpdateExtension(ExtensionRegistration extension) throws VimFaultException {
        extensionManager.registerOrUpdateExtension(extension);
    }

    @Override
    public void unregisterExtension(String key) throws VimFaultException {
        extensionManager.unregisterExtension(key);
    }

    @Override
    public void close() {
        session.close();
    }
}
