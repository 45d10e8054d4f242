package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.ExtensionRegistration;
import io.opensdrs.server.vsphere.InventorySnapshot;
import io.opensdrs.server.vsphere.PerfCounter;
import io.opensdrs.server.vsphere.PerfQuery;
import io.opensdrs.server.vsphere.PerfSamples;
import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.VCenterAbout;
import io.opensdrs.server.vsphere.VCenterConnection;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes;
import io.opensdrs.server.vsphere.vim25.InventoryTypes;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PerformanceTypes;
import io.opensdrs.server.vsphere.vim25.PropertyCollectorTypes;
import io.opensdrs.server.vsphere.vim25.TaskTypes;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.GregorianCalendar;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;

/**
 * {@link VSphereClient} over the small vim25 SOAP client: one logged-in session, kept alive
 * with {@code CurrentTime}, logged in again once when vCenter reports
 * {@code NotAuthenticated} (an expired session); a second refusal is the caller's fault to
 * handle.
 */
public final class Vim25VSphereClient implements VSphereClient {
    private final Session session;
    private final Vim25Client vim;
    private final InventoryCollector inventory;
    private final StorageResourceManager storageResourceManager;

    private Vim25VSphereClient(Session session) {
        this.session = session;
        this.vim = session.vim();
        this.inventory = new InventoryCollector(session);
        this.storageResourceManager = new StorageResourceManager(session);
    }

    /** Connects and logs in; fails with the fault vCenter gave (InvalidLogin, Transport, ...). */
    public static Vim25VSphereClient login(VCenterConnection connection) throws VimFaultException {
        return new Vim25VSphereClient(Session.login(connection));
    }

    /** The underlying method-level client, for tests and tools. */
    public Vim25Client vim25() {
        return vim;
    }

    private <T> T call(Session.VimCall<T> c) throws VimFaultException {
        return session.call(c);
    }

    @Override
    public VCenterAbout about() {
        InventoryTypes.AboutInfo a = vim.serviceContent().about;
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
    public StorageDrsRules storageDrsRules(String podId) throws VimFaultException {
        return new StoragePod(session, podId).storageDrsRules();
    }

    @Override
    public String configureStorageDrsForPod(String podId, StorageDrsRules.PodSettings change,
                                            Map<String, VmOverride> vmAutomation) throws VimFaultException {
        return storageResourceManager.configureStorageDrsForPod(podId, change, vmAutomation);
    }

    @Override
    public String addVmAntiAffinityRule(String podId, String name, java.util.List<String> vmIds) throws VimFaultException {
        return storageResourceManager.addVmAntiAffinityRule(podId, name, vmIds);
    }

    @Override
    public String removeVmAntiAffinityRule(String podId, String name) throws VimFaultException {
        return storageResourceManager.removeVmAntiAffinityRule(podId, name);
    }

    @Override
    public String addVmdkAntiAffinityRule(String podId, String vmId, String name, java.util.List<Integer> diskKeys)
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
    public java.util.List<RecentTask> recentTasks(String vmId) throws VimFaultException {
        return new VirtualMachine(session, vmId).recentTasks();
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
        session.close();
    }
}
