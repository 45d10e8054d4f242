package io.opensdrs.server.balancing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.DefaultModelRule;
import io.opensdrs.balance.DisplayNames;
import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.HostState;
import io.opensdrs.balance.LatencyPercentiles;
import io.opensdrs.balance.MaintenanceState;
import io.opensdrs.balance.Rule;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.VmState;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.ModelRegistry;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.models.FitPoint;
import io.opensdrs.server.models.ModelRecord;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.stats.WindowPercentiles;
import io.opensdrs.server.stats.WorkloadMetric;
import io.opensdrs.server.stats.WorkloadPercentiles;
import io.opensdrs.server.vsphere.StorageDrsRules;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds the engine's {@link ClusterState} of one datastore cluster from what the server stores:
 * the inventory (datastores of the StoragePod, hosts, VMs and their disks on those datastores),
 * the P² percentiles (per disk: the medians of its workload characteristics, Pesto §5.2; per
 * datastore: observed p50/p70/p90 latency), each datastore's model of the kind it uses under the
 * cluster's setting ({@link DatastoreModels#selectKind(String, String)}: under {@code auto} its own
 * most accurate kind, so one cluster may hold several kinds; datastores without a valid one get
 * {@link DefaultModelRule}'s model, Pesto §5.1.3), the settings, per-VM
 * overrides and the maintenance requests.
 *
 * <p>Ids: datastores and hosts by managed object id (what the migration applier takes), disks as
 * {@code vm/diskKey} (the statistics' disk identity, {@link WorkloadPercentiles#diskId}).
 */
@Component
public class ClusterStateAssembler {

    private static final Logger log = LoggerFactory.getLogger(ClusterStateAssembler.class);
    /** Bytes in the GB (GiB) the engine counts space in. */
    static final double GB = 1024.0 * 1024 * 1024;

    /** A disk the agents have not reported yet: no load, Pesto's injector shape (4 KiB random reads). */
    static final Workload UNOBSERVED = new Workload(0, 4, 1, 1);

    private final BalancingRepository store;
    private final WorkloadPercentiles percentiles;
    private final DatastoreModels models;
    private final ClusterPolicies policies;
    private final ObjectMapper json;
    private final ModelRegistry registry = ModelRegistry.withBuiltInModels();

    public ClusterStateAssembler(BalancingRepository store, WorkloadPercentiles percentiles, DatastoreModels models, ClusterPolicies policies,
                                 ObjectMapper json) {
        this.json = json;
        this.store = store;
        this.percentiles = percentiles;
        this.models = models;
        this.policies = policies;
    }

    /** A datastore of the cluster as the inventory has it. */
    public record DatastoreRow(String id, String name, long capacityBytes, long freeBytes, boolean accessible, String vcenterMaintenance) {
        public double usedGb() {
            return Math.max(0, capacityBytes - freeBytes) / GB;
        }
    }

    /**
     * The assembled state plus what the server needs to turn the engine's answer back into its own terms.
     *
     * @param modelSource per datastore id, the model kind it uses, or {@link DefaultModelRule#MODEL_NAME}
     */
    public record Assembled(ClusterState state, Map<String, DatastoreRow> datastores, Map<String, String> modelSource) {
        public String datastoreName(String id) {
            return state.names().datastore(id);
        }
    }

    public boolean clusterExists(String clusterId) {
        return store.clusterExists(clusterId);
    }

    public List<String> clusterIds() {
        return store.clusterIds();
    }

    public List<DatastoreRow> datastores(String clusterId) {
        return store.datastores(clusterId);
    }

    public Assembled assemble(String clusterId) {
        return assemble(clusterId, policies.balancingSettings(clusterId));
    }

    public Assembled assemble(String clusterId, BalancingSettings settings) {
        if (!clusterExists(clusterId)) {
            throw new NotFoundException("no datastore cluster " + clusterId + " in the inventory");
        }
        List<DatastoreRow> rows = datastores(clusterId);
        Map<String, DatastoreRow> byId = new LinkedHashMap<>();
        rows.forEach(r -> byId.put(r.id(), r));
        Map<String, String> kinds = models.selectKinds(policies.settings(clusterId).getModelKind(),
                rows.stream().map(DatastoreRow::name).toList());
        Map<String, MaintenanceState> requested = store.maintenanceStates(clusterId);

        Map<String, String> modelSource = new LinkedHashMap<>();
        List<DatastoreState> datastores = new ArrayList<>();
        for (DatastoreRow r : rows) {
            String kind = kinds.get(r.name());
            DatastoreModel model = fittedModel(r.name(), kind);
            modelSource.put(r.id(), model != null ? kind : DefaultModelRule.MODEL_NAME);
            // capacity must be > 0 for the engine; an unreadable datastore reports 0 and is then inaccessible
            double capacityGb = r.capacityBytes() > 0 ? r.capacityBytes() / GB : 1e-9;
            datastores.add(new DatastoreState(r.id(), capacityGb, r.usedGb(), r.accessible() && r.capacityBytes() > 0,
                    maintenance(requested.get(r.id()), r.vcenterMaintenance()), model, observedLatency(r.name())));
        }

        Map<String, Set<String>> hostDatastores = new LinkedHashMap<>();
        Map<String, String> hostNames = new LinkedHashMap<>();
        for (BalancingRepository.Mount m : store.mounts(clusterId)) {
            // the inventory sync may commit between this server's reads: only the datastores read above count
            if (byId.containsKey(m.datastoreId())) {
                hostDatastores.computeIfAbsent(m.hostId(), h -> new LinkedHashSet<>()).add(m.datastoreId());
                if (m.hostName() != null) {
                    hostNames.put(m.hostId(), m.hostName());
                }
            }
        }
        List<HostState> hosts = new ArrayList<>();
        hostDatastores.forEach((h, ds) -> hosts.add(new HostState(h, ds)));

        Map<String, VmOverride> overrides = policies.vmOverrides(clusterId);
        Map<String, String> vmHost = new LinkedHashMap<>();
        Map<String, List<DiskState>> vmDisks = new LinkedHashMap<>();
        Map<String, String> vmNames = new LinkedHashMap<>();
        Map<String, String> diskNames = new LinkedHashMap<>();
        Duration window = longestWindow();
        Map<String, String> homeOf = new LinkedHashMap<>();
        Map<String, Double> homeGb = new LinkedHashMap<>();
        Map<String, Integer> allDisks = new LinkedHashMap<>();
        for (BalancingRepository.ClusterDisk d : store.disks(clusterId)) {
            String vm = d.vmId();
            String diskId = WorkloadPercentiles.diskId(vm, d.diskKey());
            vmHost.put(vm, d.hostId());
            vmNames.put(vm, d.vmName());
            homeOf.put(vm, d.homeDatastoreId());
            homeGb.put(vm, d.homeBytes() / GB);
            allDisks.put(vm, d.vmDiskCount());
            diskNames.put(diskId, "disk " + d.diskKey() + " of VM " + d.vmName());
            Optional<WindowPercentiles> p = diskPercentiles(diskId, window);
            vmDisks.computeIfAbsent(vm, v -> new ArrayList<>()).add(new DiskState(diskId, d.diskKey(), d.sizeBytes() / GB, d.datastoreId(),
                    p.map(ClusterStateAssembler::medianWorkload).orElse(UNOBSERVED),
                    p.map(w -> median(w, WorkloadMetric.IOPS)).orElse(0.0)));
        }
        StorageDrsRules vcenterRules = storageDrsRules(clusterId);
        Map<String, StorageDrsRules.VmRules> vmRules = new LinkedHashMap<>();
        vcenterRules.vms().forEach(r -> vmRules.put(r.vmId(), r));
        // a VM with a disk on a datastore the first read did not see (added to the cluster by a sync that committed
        // since) sits this run out whole: half a VM would be planned as if it were all of it
        vmDisks.values().removeIf(disks -> disks.stream().anyMatch(d -> !byId.containsKey(d.datastoreId())));
        List<VmState> vms = new ArrayList<>();
        vmDisks.forEach((vm, disks) -> {
            String host = vmHost.get(vm);
            // a home outside the cluster (or unknown) is no datastore of the engine's, but still lands with a whole-VM move
            String home = byId.containsKey(homeOf.get(vm)) ? homeOf.get(vm) : null;
            // disks outside the cluster the engine does not plan; a move of all the others is no move of the whole VM
            int outside = Math.max(0, allDisks.get(vm) - disks.size());
            vms.add(new VmState(vm, host != null && hostDatastores.containsKey(host) ? host : null,
                    overrides.getOrDefault(vm, VmOverride.DEFAULT), keepTogether(vmRules.get(vm)), disks, home, homeGb.get(vm), outside));
        });
        List<Rule> rules = rules(vcenterRules, vmDisks);
        Map<String, String> datastoreNames = new LinkedHashMap<>();
        rows.forEach(r -> datastoreNames.put(r.id(), r.name()));
        ClusterState state = DefaultModelRule.withDefaultModels(new ClusterState(clusterId, datastores, hosts, vms, rules, settings,
                new DisplayNames(datastoreNames, hostNames, vmNames, diskNames)));
        return new Assembled(state, byId, modelSource);
    }

    /**
     * The state with the VMs whose home is on the datastore and which have no disk in the cluster (or
     * sat the run out): diskless in the state, for {@code VmHomeEvacuation} to place their homes too.
     */
    public Assembled withHomesOn(Assembled a, String datastoreId) {
        ClusterState state = a.state();
        Set<String> known = new HashSet<>();
        state.vms().forEach(v -> known.add(v.id()));
        Set<String> hosts = new HashSet<>();
        state.hosts().forEach(h -> hosts.add(h.id()));
        Map<String, VmOverride> overrides = policies.vmOverrides(state.clusterId());
        List<VmState> vms = new ArrayList<>(state.vms());
        Map<String, String> vmNames = new LinkedHashMap<>(state.names().vms());
        for (BalancingRepository.Home h : store.homesOn(datastoreId)) {
            String vm = h.vmId();
            if (known.add(vm)) {
                String host = h.hostId();
                vms.add(new VmState(vm, host != null && hosts.contains(host) ? host : null, overrides.getOrDefault(vm, VmOverride.DEFAULT),
                        null, List.of(), datastoreId, h.homeBytes() / GB));
                vmNames.put(vm, h.vmName());
            }
        }
        DisplayNames n = state.names();
        ClusterState with = new ClusterState(state.clusterId(), state.datastores(), state.hosts(), vms, state.rules(), state.settings(),
                new DisplayNames(n.datastores(), n.hosts(), vmNames, n.disks()));
        return new Assembled(with, a.datastores(), a.modelSource());
    }

    /** The pod's rules as the last inventory sync stored them; none for a pod stored before rules were read. */
    public StorageDrsRules storageDrsRules(String clusterId) {
        String stored = store.storageDrsRulesJson(clusterId);
        if (stored == null) {
            return StorageDrsRules.NONE;
        }
        try {
            return json.readValue(stored, StorageDrsRules.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored Storage DRS rules of " + clusterId + " are unreadable: " + e.getMessage(), e);
        }
    }

    /**
     * A VM's own keep-together setting, or null for the cluster's default (the product's setting,
     * {@code keepVmdksTogether}). A VMDK anti-affinity rule keeps the VM's disks apart, so vCenter
     * turns keep-together off with it; an enabled one here does the same.
     */
    static Boolean keepTogether(StorageDrsRules.VmRules r) {
        if (r == null) {
            return null;
        }
        if (r.vmdkAntiAffinity() != null && r.vmdkAntiAffinity().enabled()) {
            return false;
        }
        return r.keepTogether();
    }

    /**
     * vCenter's enabled anti-affinity rules over what this cluster holds: a rule's VMs or disks
     * outside the cluster constrain nothing here, and a rule left with fewer than two is dropped.
     */
    static List<Rule> rules(StorageDrsRules vcenter, Map<String, List<DiskState>> vmDisks) {
        List<Rule> rules = new ArrayList<>();
        for (StorageDrsRules.VmAntiAffinity r : vcenter.vmAntiAffinity()) {
            Set<String> members = new LinkedHashSet<>(r.vmIds());
            members.retainAll(vmDisks.keySet());
            if (r.enabled() && members.size() >= 2) {
                rules.add(new Rule.VmAntiAffinity(r.name(), members));
            }
        }
        for (StorageDrsRules.VmRules v : vcenter.vms()) {
            StorageDrsRules.VmdkAntiAffinity a = v.vmdkAntiAffinity();
            if (a == null || !a.enabled() || !vmDisks.containsKey(v.vmId())) {
                continue;
            }
            Set<String> held = new LinkedHashSet<>();
            vmDisks.get(v.vmId()).forEach(d -> held.add(d.id()));
            Set<String> disks = new LinkedHashSet<>();
            for (int key : a.diskKeys()) {
                String id = WorkloadPercentiles.diskId(v.vmId(), key);
                if (held.contains(id)) {
                    disks.add(id);
                }
            }
            if (disks.size() >= 2) {
                rules.add(new Rule.VmdkAntiAffinity(a.name(), v.vmId(), disks));
            }
        }
        return rules;
    }

    /** OpenSDRS's own maintenance request wins; otherwise vCenter's datastore maintenance mode. */
    static MaintenanceState maintenance(MaintenanceState requested, String vcenter) {
        if (requested != null) {
            return requested;
        }
        if ("inMaintenance".equals(vcenter)) {
            return MaintenanceState.IN_MAINTENANCE;
        }
        if ("enteringMaintenance".equals(vcenter)) {
            return MaintenanceState.ENTERING;
        }
        return MaintenanceState.NORMAL;
    }

    /** The kind's newest valid fit, refitted from its stored points (exactly the model the history shows), or null. */
    DatastoreModel fittedModel(String datastoreName, String kind) {
        Optional<ModelRecord> record = models.latestValid(datastoreName, kind);
        if (record.isEmpty() || !registry.names().contains(kind)) {
            return null;
        }
        try {
            DatastoreModel m = registry.create(kind);
            List<Observation> points = new ArrayList<>();
            for (FitPoint p : record.get().fitPoints()) {
                if (p.latencyMs() > 0) {
                    Workload w = new Workload(p.outstandingIos(), p.ioSizeKb(), p.readShare(), p.randomness());
                    points.add(p.iops() == null ? new Observation(w, p.latencyMs()) : new Observation(w, p.latencyMs(), p.iops()));
                }
            }
            m.fit(points);
            return m.isFitted() ? m : null;
        } catch (RuntimeException e) {
            log.warn("model {} of datastore {} cannot be rebuilt: {}", kind, datastoreName, e.toString());
            return null;
        }
    }

    LatencyPercentiles observedLatency(String datastoreName) {
        for (Duration w : windowsLongestFirst()) {
            Optional<WindowPercentiles> p = percentiles.datastore(datastoreName, w);
            if (p.isPresent() && p.get().samples() > 0 && p.get().values().get(WorkloadMetric.LATENCY_MS) != null) {
                double[] v = p.get().values().get(WorkloadMetric.LATENCY_MS).clone();
                Arrays.sort(v);
                if (Arrays.stream(v).allMatch(x -> x >= 0 && Double.isFinite(x))) {
                    return new LatencyPercentiles(v[0], v[1], v[2]);
                }
            }
        }
        return null;
    }

    private Optional<WindowPercentiles> diskPercentiles(String diskId, Duration longest) {
        for (Duration w : windowsLongestFirst()) {
            Optional<WindowPercentiles> p = percentiles.disk(diskId, w);
            if (p.isPresent() && p.get().samples() > 0) {
                return p;
            }
        }
        return Optional.empty();
    }

    /** The balancing period's window first (16 h by default = the invocation period), shorter ones while it is empty. */
    private List<Duration> windowsLongestFirst() {
        List<Duration> w = new ArrayList<>(percentiles.windows());
        w.sort((a, b) -> b.compareTo(a));
        return w;
    }

    private Duration longestWindow() {
        return windowsLongestFirst().get(0);
    }

    /** A disk's workload: the median of each characteristic (Pesto §5.2 keeps percentiles per virtual disk). */
    static Workload medianWorkload(WindowPercentiles p) {
        double o = Math.max(0, median(p, WorkloadMetric.OUTSTANDING_IOS));
        double z = median(p, WorkloadMetric.IO_SIZE_KB);
        double r = clamp01(median(p, WorkloadMetric.READ_SHARE));
        double x = clamp01(median(p, WorkloadMetric.RANDOMNESS));
        return new Workload(Double.isFinite(o) ? o : 0, z > 0 && Double.isFinite(z) ? z : 4, r, x);
    }

    static double median(WindowPercentiles p, WorkloadMetric m) {
        double[] v = p.values().get(m);
        return v == null || v.length == 0 || !Double.isFinite(v[0]) ? 0 : v[0];
    }

    private static double clamp01(double v) {
        return Double.isFinite(v) ? Math.max(0, Math.min(1, v)) : 0;
    }
}
