package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A balancing run's mutable, index-based copy of a {@link ClusterState}: where every disk is,
 * how full every datastore is, and each datastore's {@link DatastoreLoad}. Strategies try
 * moves here; the cluster state itself is never changed. Datastores without a fitted model get
 * {@link DefaultModelRule}'s model.
 */
public final class WorkingPlacement {

    final ClusterState state;
    final BalancingSettings settings;
    final int datastoreCount;
    final String[] datastoreIds;
    final Map<String, Integer> datastoreIndex = new HashMap<>();
    final DatastoreModel[] models;
    final String[] modelNames;
    final double[] capacityGb;
    final boolean[] acceptsDisks;
    final double[][] observedPercentiles;
    final double[] initialLatency;
    final String[] vmIds;
    final String[] vmHostIds;
    final BitSet[] vmSees;
    final VmOverride[] vmOverride;
    final boolean[] keepTogether;
    /** Per VM: it has disks outside the cluster ({@link VmState#disksOutsideCluster()}). */
    final boolean[] disksOutsideCluster;
    /** This placement evacuates a datastore for maintenance mode ({@link #forEvacuation}). */
    final boolean evacuation;
    final int[][] vmDisks;
    final String[] diskIds;
    /** Each disk's vCenter device key ({@link DiskState#key()}). */
    final int[] diskKeys;
    final double[] diskSizeGb;
    final Workload[] diskWorkload;
    /** Each disk's observed IOPS; 0 where none was observed. */
    final double[] diskIops;
    final int[] diskVm;
    final String[] ruleNames;
    /** Per VMDK anti-affinity rule: its disks. */
    final int[][] vmdkAntiAffinity;
    /** Per VM anti-affinity rule: its VMs. */
    final int[][] vmAntiAffinity;
    /** Per VM: indices of VMDK anti-affinity rules on it. */
    final int[][] vmdkRulesOfVm;
    /** Per VM: indices of VM anti-affinity rules naming it. */
    final int[][] vmRulesOfVm;

    // The mutable part.
    final int[] diskDatastore;
    final double[] usedGb;
    /** Per VM: its home's size, and its datastore (-1: unknown or outside the cluster); a whole-VM move takes it along. */
    final double[] homeGb;
    final int[] homeDatastore;
    final DatastoreLoad[] loads;
    /**
     * The IO rates of the disks as the run predicts them ({@link #ioRate}): per disk a rate in units
     * of its datastore's {@code rateScale}, so that a change of a datastore's latency rescales all
     * of its disks at once; per datastore Σ rate (IOPS) and Σ O of its disks that do IO.
     */
    final double[] diskRate;
    final double[] rateScale;
    final double[] datastoreRate;
    final double[] datastoreRateOio;
    /** Per datastore: its IO-weighted latency when the run began ({@link #ioP90}). */
    final double[] initialIoLatency;

    public WorkingPlacement(ClusterState state) {
        this(state, false);
    }

    /**
     * The placement of a datastore's evacuation for maintenance mode ({@link MaintenanceEvacuation}):
     * a move of all of a VM's disks moves the whole VM there, kept together or not ({@link #carriesHome}).
     */
    public static WorkingPlacement forEvacuation(ClusterState state) {
        return new WorkingPlacement(state, true);
    }

    private WorkingPlacement(ClusterState state, boolean evacuation) {
        this.state = state;
        this.evacuation = evacuation;
        this.settings = state.settings();
        List<DatastoreState> ds = state.datastores();
        datastoreCount = ds.size();
        datastoreIds = new String[datastoreCount];
        models = new DatastoreModel[datastoreCount];
        modelNames = new String[datastoreCount];
        capacityGb = new double[datastoreCount];
        usedGb = new double[datastoreCount];
        acceptsDisks = new boolean[datastoreCount];
        observedPercentiles = new double[datastoreCount][];
        initialLatency = new double[datastoreCount];
        List<DatastoreModel> fitted = new ArrayList<>();
        for (int j = 0; j < datastoreCount; j++) {
            DatastoreState d = ds.get(j);
            datastoreIds[j] = d.id();
            datastoreIndex.put(d.id(), j);
            capacityGb[j] = d.capacityGb();
            usedGb[j] = d.usedGb();
            acceptsDisks[j] = d.accessible() && d.maintenance() == MaintenanceState.NORMAL;
            observedPercentiles[j] = d.observed() == null ? null : d.observed().toArray();
            d.fittedModel().ifPresent(fitted::add);
        }
        DatastoreModel fallback = null;
        for (int j = 0; j < datastoreCount; j++) {
            DatastoreState d = ds.get(j);
            if (d.fittedModel().isPresent()) {
                models[j] = d.model();
                modelNames[j] = d.model().name();
            } else {
                if (fallback == null) {
                    fallback = DefaultModelRule.defaultModel(fitted);
                }
                models[j] = fallback;
                modelNames[j] = DefaultModelRule.MODEL_NAME;
            }
        }
        Map<String, Integer> hostIndex = new HashMap<>();
        BitSet[] hostSees = new BitSet[state.hosts().size()];
        for (int h = 0; h < hostSees.length; h++) {
            HostState host = state.hosts().get(h);
            hostIndex.put(host.id(), h);
            hostSees[h] = new BitSet(datastoreCount);
            for (String id : host.datastores()) {
                hostSees[h].set(datastoreIndex.get(id));
            }
        }
        List<VmState> vms = state.vms();
        int vmCount = vms.size();
        vmIds = new String[vmCount];
        vmHostIds = new String[vmCount];
        vmSees = new BitSet[vmCount];
        vmOverride = new VmOverride[vmCount];
        keepTogether = new boolean[vmCount];
        disksOutsideCluster = new boolean[vmCount];
        vmDisks = new int[vmCount][];
        homeGb = new double[vmCount];
        homeDatastore = new int[vmCount];
        int diskCount = vms.stream().mapToInt(v -> v.disks().size()).sum();
        diskIds = new String[diskCount];
        diskKeys = new int[diskCount];
        diskSizeGb = new double[diskCount];
        diskWorkload = new Workload[diskCount];
        diskIops = new double[diskCount];
        diskVm = new int[diskCount];
        diskDatastore = new int[diskCount];
        Map<String, Integer> vmIndex = new HashMap<>();
        Map<String, Integer> diskIndex = new HashMap<>();
        Set<String> together = state.vmsKeepingTogether();
        int k = 0;
        for (int v = 0; v < vmCount; v++) {
            VmState vm = vms.get(v);
            vmIds[v] = vm.id();
            vmIndex.put(vm.id(), v);
            vmHostIds[v] = vm.hostId();
            // A VM without a host (not registered anywhere) may go wherever any host reaches.
            if (vm.hostId() == null) {
                BitSet any = new BitSet(datastoreCount);
                for (BitSet b : hostSees) {
                    any.or(b);
                }
                vmSees[v] = any;
            } else {
                vmSees[v] = hostSees[hostIndex.get(vm.hostId())];
            }
            vmOverride[v] = vm.override();
            keepTogether[v] = together.contains(vm.id());
            disksOutsideCluster[v] = vm.disksOutsideCluster() > 0;
            homeGb[v] = vm.homeGb();
            homeDatastore[v] = vm.homeDatastoreId() == null ? -1 : datastoreIndex.getOrDefault(vm.homeDatastoreId(), -1);
            vmDisks[v] = new int[vm.disks().size()];
            for (int i = 0; i < vm.disks().size(); i++) {
                DiskState d = vm.disks().get(i);
                diskIds[k] = d.id();
                diskKeys[k] = d.key();
                diskIndex.put(d.id(), k);
                diskSizeGb[k] = d.sizeGb();
                diskWorkload[k] = d.workload();
                diskIops[k] = d.observedIops() > 0 && Double.isFinite(d.observedIops()) ? d.observedIops() : 0;
                diskVm[k] = v;
                diskDatastore[k] = datastoreIndex.get(d.datastoreId());
                vmDisks[v][i] = k;
                k++;
            }
        }
        List<int[]> vmdkRules = new ArrayList<>();
        List<int[]> vmRules = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> vmRuleNames = new ArrayList<>();
        for (Rule r : state.rules()) {
            if (r instanceof Rule.VmdkAntiAffinity) {
                Rule.VmdkAntiAffinity a = (Rule.VmdkAntiAffinity) r;
                vmdkRules.add(a.diskIds().stream().mapToInt(diskIndex::get).sorted().toArray());
                names.add(a.name());
            } else if (r instanceof Rule.VmAntiAffinity) {
                Rule.VmAntiAffinity a = (Rule.VmAntiAffinity) r;
                vmRules.add(a.vmIds().stream().mapToInt(vmIndex::get).sorted().toArray());
                vmRuleNames.add(a.name());
            }
        }
        names.addAll(vmRuleNames);
        ruleNames = names.toArray(new String[0]);
        vmdkAntiAffinity = vmdkRules.toArray(new int[0][]);
        vmAntiAffinity = vmRules.toArray(new int[0][]);
        vmdkRulesOfVm = invert(vmCount, vmdkAntiAffinity, true);
        vmRulesOfVm = invert(vmCount, vmAntiAffinity, false);

        int[][] members = membersByDatastore();
        loads = new DatastoreLoad[datastoreCount];
        for (int j = 0; j < datastoreCount; j++) {
            loads[j] = DatastoreLoad.of(models[j], diskWorkload, members[j]);
            initialLatency[j] = loads[j].current().latencyMs();
        }
        diskRate = new double[diskCount];
        rateScale = new double[datastoreCount];
        datastoreRate = new double[datastoreCount];
        datastoreRateOio = new double[datastoreCount];
        Arrays.fill(rateScale, 1);
        for (int i = 0; i < diskCount; i++) {
            int j = diskDatastore[i];
            double o = diskWorkload[i].outstandingIos();
            double modelMs = initialLatency[j];
            // observed where the disk was seen doing IO; else what its model's latency gives its O (Little's law)
            double rate = diskIops[i] > 0 ? diskIops[i] : o > 0 && modelMs > 0 ? 1000 * o / modelMs : 0;
            if (o > 0 && rate > 0) {
                diskRate[i] = rate;
                datastoreRate[j] += rate;
                datastoreRateOio[j] += o;
            }
        }
        initialIoLatency = new double[datastoreCount];
        for (int j = 0; j < datastoreCount; j++) {
            initialIoLatency[j] = ioWeightedLatency(j);
        }
    }

    private int[][] invert(int vmCount, int[][] rules, boolean byDisk) {
        List<List<Integer>> lists = new ArrayList<>();
        for (int v = 0; v < vmCount; v++) {
            lists.add(new ArrayList<>());
        }
        for (int r = 0; r < rules.length; r++) {
            for (int m : rules[r]) {
                int v = byDisk ? diskVm[m] : m;
                if (!lists.get(v).contains(r)) {
                    lists.get(v).add(r);
                }
            }
        }
        int[][] out = new int[vmCount][];
        for (int v = 0; v < vmCount; v++) {
            out[v] = lists.get(v).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }

    private WorkingPlacement(WorkingPlacement o) {
        state = o.state;
        settings = o.settings;
        datastoreCount = o.datastoreCount;
        datastoreIds = o.datastoreIds;
        datastoreIndex.putAll(o.datastoreIndex);
        models = o.models;
        modelNames = o.modelNames;
        capacityGb = o.capacityGb;
        acceptsDisks = o.acceptsDisks;
        observedPercentiles = o.observedPercentiles;
        initialLatency = o.initialLatency;
        vmIds = o.vmIds;
        vmHostIds = o.vmHostIds;
        vmSees = o.vmSees;
        vmOverride = o.vmOverride;
        keepTogether = o.keepTogether;
        disksOutsideCluster = o.disksOutsideCluster;
        evacuation = o.evacuation;
        vmDisks = o.vmDisks;
        diskIds = o.diskIds;
        diskKeys = o.diskKeys;
        diskSizeGb = o.diskSizeGb;
        diskWorkload = o.diskWorkload;
        diskIops = o.diskIops;
        diskVm = o.diskVm;
        ruleNames = o.ruleNames;
        vmdkAntiAffinity = o.vmdkAntiAffinity;
        vmAntiAffinity = o.vmAntiAffinity;
        vmdkRulesOfVm = o.vmdkRulesOfVm;
        vmRulesOfVm = o.vmRulesOfVm;
        diskDatastore = o.diskDatastore.clone();
        usedGb = o.usedGb.clone();
        homeGb = o.homeGb;
        homeDatastore = o.homeDatastore.clone();
        diskRate = o.diskRate.clone();
        rateScale = o.rateScale.clone();
        datastoreRate = o.datastoreRate.clone();
        datastoreRateOio = o.datastoreRateOio.clone();
        initialIoLatency = o.initialIoLatency;
        loads = new DatastoreLoad[o.loads.length];
        for (int j = 0; j < loads.length; j++) {
            loads[j] = o.loads[j].copy();
        }
    }

    /** An independent copy (simulated annealing explores one without touching the run's placement). */
    public WorkingPlacement copy() {
        return new WorkingPlacement(this);
    }

    private int[][] membersByDatastore() {
        int[] counts = new int[datastoreCount];
        for (int d : diskDatastore) {
            counts[d]++;
        }
        int[][] members = new int[datastoreCount][];
        for (int j = 0; j < datastoreCount; j++) {
            members[j] = new int[counts[j]];
        }
        int[] fill = new int[datastoreCount];
        for (int i = 0; i < diskDatastore.length; i++) {
            int j = diskDatastore[i];
            members[j][fill[j]++] = i;
        }
        return members;
    }

    public ClusterState state() {
        return state;
    }

    public BalancingSettings settings() {
        return settings;
    }

    public int datastoreCount() {
        return datastoreCount;
    }

    public int vmCount() {
        return vmIds.length;
    }

    public int diskCount() {
        return diskIds.length;
    }

    public String datastoreId(int j) {
        return datastoreIds[j];
    }

    /** The datastore as a sentence names it ({@link DisplayNames}). */
    public String datastoreName(int j) {
        return state.names().datastore(datastoreIds[j]);
    }

    public int datastoreIndex(String id) {
        Integer j = datastoreIndex.get(id);
        if (j == null) {
            throw new IllegalArgumentException("unknown datastore " + id);
        }
        return j;
    }

    public String modelName(int j) {
        return modelNames[j];
    }

    public DatastoreModel model(int j) {
        return models[j];
    }

    public DatastoreLoad load(int j) {
        return loads[j];
    }

    public boolean acceptsDisks(int j) {
        return acceptsDisks[j];
    }

    public double usedGb(int j) {
        return usedGb[j];
    }

    public double capacityGb(int j) {
        return capacityGb[j];
    }

    public double utilization(int j) {
        return usedGb[j] / capacityGb[j];
    }

    public boolean overSpaceThreshold(int j) {
        return usedGb[j] > settings.spaceLimitGb(capacityGb[j]) + 1e-9;
    }

    public String vmId(int v) {
        return vmIds[v];
    }

    /** The VM as a sentence names it ({@link DisplayNames}). */
    public String vmName(int v) {
        return state.names().vm(vmIds[v]);
    }

    /** The VM's host as a sentence names it; null when the VM runs on no known host. */
    public String vmHostName(int v) {
        return state.names().host(vmHostIds[v]);
    }

    public String vmHostId(int v) {
        return vmHostIds[v];
    }

    public VmOverride vmOverride(int v) {
        return vmOverride[v];
    }

    public boolean keepsTogether(int v) {
        return keepTogether[v];
    }

    public int[] vmDisks(int v) {
        return vmDisks[v];
    }

    public String diskId(int i) {
        return diskIds[i];
    }

    /** vCenter's device key of disk i ({@link DiskState#key()}). */
    public int diskKey(int i) {
        return diskKeys[i];
    }

    /** The disk as a sentence names it: "disk 2000 of VM db" ({@link DisplayNames#disk}). */
    public String diskName(int i) {
        return state.names().disk(diskIds[i]);
    }

    /**
     * What a storage vMotion of {@code u} moves, as a sentence names it: "VM db" when it carries
     * all of the VM's disks, else its disks ("disk 2001 of VM db").
     */
    public String unitName(MovableUnit u) {
        if (u.disks().length == vmDisks[u.vm()].length) {
            return "VM " + vmName(u.vm());
        }
        List<String> names = new ArrayList<>();
        for (int i : u.disks()) {
            names.add(diskName(i));
        }
        return String.join(", ", names);
    }

    public int diskDatastore(int i) {
        return diskDatastore[i];
    }

    public double diskSizeGb(int i) {
        return diskSizeGb[i];
    }

    public Workload diskWorkload(int i) {
        return diskWorkload[i];
    }

    public Workload[] diskWorkloads() {
        return diskWorkload;
    }

    public int diskVm(int i) {
        return diskVm[i];
    }

    /** Predicted mean latency of datastore j now. */
    public double latency(int j) {
        return loads[j].current().latencyMs();
    }

    public Prediction prediction(int j) {
        return loads[j].current();
    }

    /**
     * Datastore j's p50/p70/p90 as the run believes them now: the observed percentiles shifted
     * by the change the model predicts since the run began — the observation gives the level,
     * the model the change (Pesto §5.4 works from the current percentiles and the load moved);
     * without observations, the model's mean for all three. A shift rather than a ratio, because
     * a ratio explodes on a nearly idle datastore (Pesto uses the LQ line there).
     */
    public double[] percentiles(int j) {
        return percentilesFor(j, latency(j));
    }

    /** Datastore j's percentiles if its predicted mean latency became {@code predictedMs}. */
    public double[] percentilesFor(int j, double predictedMs) {
        double[] obs = observedPercentiles[j];
        if (obs == null) {
            return new double[] {predictedMs, predictedMs, predictedMs};
        }
        double shift = predictedMs - initialLatency[j];
        return new double[] {Math.max(0, obs[0] + shift), Math.max(0, obs[1] + shift), Math.max(0, obs[2] + shift)};
    }

    /**
     * Datastore j's IO rate (IOPS) as the run predicts it: its disks' observed rates, each changed
     * since the run began as its datastore's model latency changed (the workloads are closed loops
     * of fixed outstanding IOs, so a disk's rate is O / L by Little's law, and its latency follows
     * the datastore's). A disk moved in this run carries its rate from the datastore it left
     * ({@link #rateAfter}).
     */
    public double ioRate(int j) {
        return datastoreRate[j];
    }

    /**
     * Datastore j's latency as its IOs see it — what its latency statistics, and SDRS's p90, are
     * made of: Σ O / Σ IOPS of its disks (Little's law), in ms. Its model's latency when none of
     * its disks does IO.
     */
    public double ioWeightedLatency(int j) {
        return datastoreRate[j] > 0 && datastoreRateOio[j] > 0 ? 1000 * datastoreRateOio[j] / datastoreRate[j] : latency(j);
    }

    /** Σ O of datastore j's disks that do IO. */
    public double ioOutstanding(int j) {
        return datastoreRateOio[j];
    }

    /**
     * Datastore j's p90 as its IOs would report it now: the observed p90 changed in proportion to
     * its IO-weighted latency since the run began (its IOs' latencies scale together, and a changed
     * mix of disks changes which IOs it averages); without observed percentiles, its IO-weighted
     * latency.
     */
    public double ioP90(int j) {
        double now = ioWeightedLatency(j);
        double[] obs = observedPercentiles[j];
        if (obs == null || !(initialIoLatency[j] > 0)) {
            return now;
        }
        return obs[2] * now / initialIoLatency[j];
    }

    /** The worst datastore's {@link #ioP90} now. */
    public double worstIoP90() {
        double worst = 0;
        for (int j = 0; j < datastoreCount; j++) {
            worst = Math.max(worst, ioP90(j));
        }
        return worst;
    }

    /** The cluster's per-IO latency as the run predicts it (ms): Σ O / Σ IOPS over every disk that does IO. */
    public double perIoLatency() {
        double oio = 0;
        double rate = 0;
        for (int j = 0; j < datastoreCount; j++) {
            oio += datastoreRateOio[j];
            rate += datastoreRate[j];
        }
        return rate > 0 ? 1000 * oio / rate : 0;
    }

    /** The cluster's IO rate as the run predicts it (IOPS). */
    public double ioRate() {
        double rate = 0;
        for (int j = 0; j < datastoreCount; j++) {
            rate += datastoreRate[j];
        }
        return rate;
    }

    /** Disk i's IO rate as the run predicts it (IOPS; 0 for a disk without IO). */
    public double diskIoRate(int i) {
        return diskRate[i] * rateScale[diskDatastore[i]];
    }

    /**
     * The two datastores' IO rates (IOPS) if {@code disks} moved from {@code source} to
     * {@code destination}, their model latencies becoming {@code sourceAfterMs} and
     * {@code destinationAfterMs}: {source, destination}. The workloads are closed loops, so Σ O is
     * fixed and the cluster's per-IO latency Σ O / Σ IOPS falls exactly when the rate rises — what
     * the VMs feel, where the mean of the datastores' latencies can fall while most IOs slow down.
     * Each remaining disk's latency scales with its datastore's model latency; a moving disk keeps
     * its latency relative to its datastore's IO-weighted latency (its size and pattern made it
     * faster or slower than its neighbours there and will on the destination), the destination's
     * being its model's when it carries no IO.
     */
    public double[] rateAfter(int[] disks, int source, int destination, double sourceAfterMs, double destinationAfterMs) {
        double moving = 0;
        double movingOio = 0;
        for (int i : disks) {
            if (diskDatastore[i] == source) {
                moving += diskIoRate(i);
                movingOio += diskWorkload[i].outstandingIos();
            }
        }
        double sourceNow = latency(source);
        double destinationNow = latency(destination);
        double remaining = Math.max(0, datastoreRate[source] - moving);
        double sourceRate = remaining <= 1e-12 * Math.max(1, datastoreRate[source]) ? 0
                : remaining * ratio(sourceNow, sourceAfterMs);
        double destinationRate = datastoreRate[destination] * ratio(destinationNow, destinationAfterMs);
        if (moving > 0) {
            // its latency O/rate, relative to its source's IO-weighted latency, carried to the destination's
            double relative = 1000 * movingOio / moving / ioWeightedLatency(source);
            double there = datastoreRate[destination] > 0
                    ? ioWeightedLatency(destination) * (destinationAfterMs / destinationNow)
                    : destinationAfterMs;
            destinationRate += there > 0 && Double.isFinite(there) ? 1000 * movingOio / (relative * there) : moving;
        }
        return new double[] {sourceRate, destinationRate};
    }

    /** How a rate scales when the model latency goes from {@code now} to {@code after}: now / after. */
    private static double ratio(double now, double after) {
        return now > 0 && after > 0 && Double.isFinite(now / after) ? now / after : 1;
    }

    public boolean hasObservedPercentiles(int j) {
        return observedPercentiles[j] != null;
    }

    /** The 90th percentile SDRS compares with its IO latency threshold. */
    public double p90(int j) {
        return percentiles(j)[2];
    }

    /** The datastore a unit is on (all its disks are together). */
    public int datastoreOf(MovableUnit u) {
        return diskDatastore[u.disks()[0]];
    }

    /**
     * The units balancing may move: whole VMs whose VMDKs are kept together and sit on one
     * datastore, single disks otherwise; never a VM excluded from SDRS, nor a unit on a datastore
     * entering (or in) maintenance mode — its evacuation ({@link MaintenanceEvacuation}) moves
     * those, and a balancing move of the same disks would be a second relocation of them. A
     * kept-together VM already spread over datastores is not a unit (RuleChecker reports it).
     */
    public List<MovableUnit> units() {
        List<MovableUnit> out = new ArrayList<>();
        for (int v = 0; v < vmIds.length; v++) {
            if (vmOverride[v] == VmOverride.EXCLUDED || vmDisks[v].length == 0) {
                continue;
            }
            for (MovableUnit u : unitsOf(v)) {
                if (state.datastores().get(datastoreOf(u)).maintenance() == MaintenanceState.NORMAL) {
                    out.add(u);
                }
            }
        }
        return out;
    }

    /** The units of one VM (whatever its override). */
    public List<MovableUnit> unitsOf(int v) {
        List<MovableUnit> out = new ArrayList<>();
        int[] disks = vmDisks[v];
        if (disks.length == 0) {
            return out;
        }
        if (keepTogether[v]) {
            int first = diskDatastore[disks[0]];
            for (int i : disks) {
                if (diskDatastore[i] != first) {
                    return out;
                }
            }
            out.add(unit(v, disks));
        } else {
            for (int i : disks) {
                out.add(unit(v, new int[] {i}));
            }
        }
        return out;
    }

    /** The unit of these disks of VM v: its size is what the move copies, the home along when it carries it. */
    MovableUnit unit(int v, int[] disks) {
        double size = carriesHome(v, disks) ? homeGb[v] : 0;
        double oio = 0;
        for (int i : disks) {
            size += diskSizeGb[i];
            oio += diskWorkload[i].outstandingIos();
        }
        return new MovableUnit(v, disks, size, oio);
    }

    /** Units currently on datastore j. */
    public List<MovableUnit> unitsOn(List<MovableUnit> units, int j) {
        List<MovableUnit> out = new ArrayList<>();
        for (MovableUnit u : units) {
            if (datastoreOf(u) == j) {
                out.add(u);
            }
        }
        return out;
    }

    /**
     * Whether a move of these disks is a move of the whole VM, its home along (the plan records it so,
     * {@link Move#wholeVm()}): vCenter relocates a VM that keeps its VMDKs together as one, every file of
     * it, a VM with one disk as much as one with several; and an evacuation for maintenance mode moves a
     * VM with all its disks whole, kept together or not, since vCenter counts a datastore empty only once
     * no VM has a file on it, the home included. Never a VM with disks outside the cluster: those stay.
     */
    public boolean carriesHome(int vm, int[] disks) {
        return (keepTogether[vm] || evacuation) && disks.length == vmDisks[vm].length && !disksOutsideCluster[vm];
    }

    /** GB of the VM's home that a move of these disks lands on the destination: 0 unless it carries a home from elsewhere. */
    public double homeArrivingGb(int vm, int[] disks, int destination) {
        return carriesHome(vm, disks) && homeDatastore[vm] != destination ? homeGb[vm] : 0;
    }

    /** Applies a move to this working placement (never to the cluster state). */
    public void move(int[] disks, int destination) {
        // Disks may come from more than one datastore (rule repairs): remove per source.
        Map<Integer, List<Integer>> bySource = new HashMap<>();
        for (int i : disks) {
            int s = diskDatastore[i];
            if (s != destination) {
                bySource.computeIfAbsent(s, x -> new ArrayList<>()).add(i);
            }
        }
        for (Map.Entry<Integer, List<Integer>> e : bySource.entrySet()) {
            int src = e.getKey();
            int[] leaving = e.getValue().stream().mapToInt(Integer::intValue).toArray();
            double sourceAfter = loads[src].predictWith(null, leaving, null).latencyMs();
            double destinationAfter = loads[destination].predictWith(leaving, null, null).latencyMs();
            moveRates(leaving, src, destination, sourceAfter, destinationAfter);
            loads[src].apply(null, leaving);
            loads[destination].apply(leaving, null);
            for (int i : leaving) {
                usedGb[src] -= diskSizeGb[i];
                usedGb[destination] += diskSizeGb[i];
                diskDatastore[i] = destination;
            }
        }
        int v = disks.length == 0 ? -1 : diskVm[disks[0]];
        if (v >= 0 && carriesHome(v, disks) && homeDatastore[v] != destination) {
            if (homeDatastore[v] >= 0) {
                usedGb[homeDatastore[v]] -= homeGb[v];
            }
            usedGb[destination] += homeGb[v];
            homeDatastore[v] = destination;
        }
    }

    /** The IO rates after {@code leaving} (all on {@code src}) move to {@code dst}, as {@link #rateAfter} predicts them. */
    private void moveRates(int[] leaving, int src, int dst, double sourceAfterMs, double destinationAfterMs) {
        double[] after = rateAfter(leaving, src, dst, sourceAfterMs, destinationAfterMs);
        double moving = 0;
        double movingOio = 0;
        double[] rates = new double[leaving.length];
        for (int k = 0; k < leaving.length; k++) {
            int i = leaving[k];
            rates[k] = diskIoRate(i);
            if (diskRate[i] > 0) {
                moving += rates[k];
                movingOio += diskWorkload[i].outstandingIos();
            }
        }
        double remaining = datastoreRate[src] - moving;
        if (remaining > 1e-12 * Math.max(1, datastoreRate[src]) && after[0] > 0) {
            rateScale[src] *= after[0] / remaining;
            datastoreRate[src] = after[0];
        } else {
            datastoreRate[src] = 0;
        }
        datastoreRateOio[src] = Math.max(0, datastoreRateOio[src] - movingOio);
        double resident = datastoreRate[dst] * ratio(latency(dst), destinationAfterMs);
        rateScale[dst] *= ratio(latency(dst), destinationAfterMs);
        double arriving = Math.max(0, after[1] - resident);
        datastoreRate[dst] = resident;
        for (int k = 0; k < leaving.length; k++) {
            int i = leaving[k];
            if (diskRate[i] > 0) {
                double rate = moving > 0 ? rates[k] / moving * arriving : 0;
                diskRate[i] = rate / rateScale[dst];
                datastoreRate[dst] += rate;
                datastoreRateOio[dst] += diskWorkload[i].outstandingIos();
            }
        }
    }

    /** Predicted mean latencies of every datastore now. */
    public double[] latencies() {
        double[] out = new double[datastoreCount];
        for (int j = 0; j < datastoreCount; j++) {
            out[j] = latency(j);
        }
        return out;
    }

    /** Sorted copy, for tests and explanations. */
    static int[] sorted(int[] a) {
        int[] c = a.clone();
        Arrays.sort(c);
        return c;
    }
}
