package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.HostState;
import io.opensdrs.balance.InitialPlacement;
import io.opensdrs.balance.LatencyPercentiles;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.StrategyRegistry;
import io.opensdrs.balance.VmState;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.RomanoModel;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.sim.VirtualClock;
import io.opensdrs.testbed.stats.DatastoreWindow;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.world.Datastore;
import io.opensdrs.testbed.world.VirtualDisk;
import io.opensdrs.testbed.world.World;
import io.opensdrs.testbed.world.WorldRun;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * One B2 trial: one world, one strategy, in the testbed's virtual time (steady-state method).
 * Measure the "before" steady state over three 20-s windows; build the {@link ClusterState} a
 * real server would have — each datastore's model fitted from injector runs on its device,
 * each disk's workload (O, Z, R, X) and IOPS from its 20-s statistics, each datastore's
 * p50/p70/p90 from those windows; run the strategy; apply the whole plan in the testbed wave by
 * wave (storage vMotion with its copy load on source and destination, Pesto §5.4.1); when the
 * last copy has finished, measure "after" over three windows the same way.
 */
public final class BalancingTrial {
    static final int MEASURED_WINDOWS = 3;
    /** Virtual-time budget for the copies; a trial that has not settled by then is reported as such. */
    static final double MAX_HOURS = 12;
    /** One outstanding 4 KiB random read. */
    private static final Workload IDLE_PROBE = new Workload(1, 4, 1, 1);

    /**
     * What one trial found. {@code settled} is false when the copies did not finish in {@link #MAX_HOURS};
     * {@code plan} is each move as "VM source→destination: the strategy's explanation", then the plan's notes.
     */
    public record Outcome(String world, String group, String strategy, DatastoreLatencies before,
                          DatastoreLatencies after, int moves, boolean settled, double copyHours, List<String> notes,
                          List<String> plan, MeasuredGreedyReference.IntervalCheck intervals) {
        public Outcome(String world, String group, String strategy, DatastoreLatencies before, DatastoreLatencies after,
                       int moves, boolean settled, double copyHours, List<String> notes, List<String> plan) {
            this(world, group, strategy, before, after, moves, settled, copyHours, notes, plan, null);
        }
    }

    private static final class Finished extends RuntimeException {
        Finished() {
            super(null, null, false, false);
        }
    }

    private final InjectorObservations injector;
    private final BalancingSettings settings;

    public BalancingTrial(InjectorObservations injector, BalancingSettings settings) {
        this.injector = injector;
        this.settings = settings;
    }

    public Outcome run(Scenario scenario, String group, String strategy, long seed)
            throws InvalidScenarioException, InterruptedException {
        World world = World.build(BalancingWorlds.steady(scenario));
        WorldRun run = WorldRun.create(world, WorldRun.Method.STEADY_STATE, seed);
        Progress p = new Progress(world, strategy, seed);
        try {
            run.run(MAX_HOURS, new VirtualClock(), p::window, p::afterWindow);
        } catch (Finished done) {
            // the trial measured what it needed
        }
        Map<String, Double> idle = idleLatencies(world);
        DatastoreLatencies after = latencies(p.after.size() == MEASURED_WINDOWS ? p.after : p.lastWindows(), idle);
        return new Outcome(scenario.name(), group, strategy, latencies(p.before, idle), after, p.moves,
                p.after.size() == MEASURED_WINDOWS, p.copyMs / 3_600_000, p.notes, p.plan);
    }

    /** The trial's state machine, driven by the run's windows. */
    private final class Progress {
        final World world;
        final String strategy;
        final long seed;
        final List<List<DiskWindow>> before = new ArrayList<>();
        final List<List<DiskWindow>> after = new ArrayList<>();
        final List<List<DiskWindow>> recent = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final List<String> plan = new ArrayList<>();
        List<List<Move>> waves = List.of();
        int nextWave;
        int moves;
        boolean planned;
        boolean measuringAfter;
        double copyStartMs = -1;
        double copyMs;

        Progress(World world, String strategy, long seed) {
            this.world = world;
            this.strategy = strategy;
            this.seed = seed;
        }

        void window(double startMs, List<DiskWindow> disks, List<DatastoreWindow> datastores) {
            recent.add(disks);
            if (recent.size() > MEASURED_WINDOWS) {
                recent.remove(0);
            }
            if (!planned) {
                before.add(disks);
            } else if (measuringAfter) {
                after.add(disks);
                if (after.size() == MEASURED_WINDOWS) {
                    throw new Finished();
                }
            }
        }

        List<List<DiskWindow>> lastWindows() {
            return recent;
        }

        void afterWindow(World w, double nowMs, List<DiskWindow> disks, List<DatastoreWindow> datastores) {
            if (!planned) {
                if (before.size() < MEASURED_WINDOWS) {
                    return;
                }
                planned = true;
                MovePlan plan = StrategyRegistry.withBuiltInStrategies().create(strategy, seed)
                        .plan(clusterState(world, before, strategy));
                moves = plan.moves().size();
                for (Move m : plan.moves()) {
                    this.plan.add(m.vmId() + " " + m.sourceDatastoreId() + "→" + m.destinationDatastoreId() + ": "
                            + m.explanation().summary());
                }
                plan.notes().forEach(n -> this.plan.add("note: " + n));
                waves = waves(plan.moves());
                if (moves == 0) {
                    // Nothing moves: the steady state is the one measured (the steady-state run is deterministic).
                    after.addAll(before);
                    throw new Finished();
                }
                copyStartMs = nowMs;
            }
            if (!measuringAfter && world.relocations().isEmpty()) {
                if (nextWave < waves.size()) {
                    for (Move m : waves.get(nextWave++)) {
                        for (String disk : m.diskIds()) {
                            try {
                                world.relocate(disk, m.destinationDatastoreId(), nowMs);
                            } catch (IllegalArgumentException e) {
                                notes.add("move " + m.sequence() + " not applied: " + e.getMessage());
                            }
                        }
                    }
                    if (!world.relocations().isEmpty()) {
                        return;
                    }
                }
                if (nextWave >= waves.size()) {
                    // The copy that finished in this window still loaded it; measure from the next one.
                    measuringAfter = true;
                    copyMs = nowMs - copyStartMs;
                }
            }
        }
    }

    private static List<List<Move>> waves(List<Move> moves) {
        List<Move> sorted = new ArrayList<>(moves);
        sorted.sort(Comparator.comparingInt(Move::wave).thenComparingInt(Move::sequence));
        List<List<Move>> out = new ArrayList<>();
        int current = Integer.MIN_VALUE;
        for (Move m : sorted) {
            if (m.wave() != current) {
                out.add(new ArrayList<>());
                current = m.wave();
            }
            out.get(out.size() - 1).add(m);
        }
        return out;
    }

    static boolean isCopy(DiskWindow w) {
        return w.disk().startsWith("copy-");
    }

    /**
     * Steady-state latency per datastore (IO-weighted over its disks, copies excluded) and per IO
     * overall. Every datastore of the world counts: one that carries no IO counts at its idle
     * latency, {@code idleMs}. Leaving it out instead judged a world worse when a balancer emptied
     * a datastore whose latency was below the mean (romano moved all of pesto-like-10030's ds03,
     * 13.2 ms, to ds04, 6.2 → 6.5 ms; every IO got faster, and the mean over the datastores left
     * rose from 15.4 to 16.2 ms).
     */
    static DatastoreLatencies latencies(List<List<DiskWindow>> windows, Map<String, Double> idleMs) {
        Map<String, double[]> byDs = new LinkedHashMap<>(); // ios, latency × ios
        double ios = 0;
        double weighted = 0;
        for (List<DiskWindow> window : windows) {
            for (DiskWindow d : window) {
                if (isCopy(d) || d.ios() == 0) {
                    continue;
                }
                double[] a = byDs.computeIfAbsent(d.datastore(), k -> new double[2]);
                a[0] += d.ios();
                a[1] += d.ios() * d.meanLatencyMs();
                ios += d.ios();
                weighted += d.ios() * d.meanLatencyMs();
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        idleMs.forEach((ds, idle) -> {
            double[] a = byDs.get(ds);
            out.put(ds, a == null ? idle : a[1] / a[0]);
        });
        return new DatastoreLatencies(out, ios == 0 ? 0 : weighted / ios);
    }

    /**
     * Each datastore's idle latency: what one 4 KiB random read sees on its device alone (the
     * injector's lowest point, Pesto §5.1) — the latency the next IO placed there would get.
     */
    Map<String, Double> idleLatencies(World world) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Datastore ds : world.datastores()) {
            DeviceUnderTest device = new DeviceUnderTest(ds.name(), ds.profile(), ds.capacityBytes());
            out.put(ds.name(), injector.of(device, "idle", List.of(IDLE_PROBE)).get(0).latencyMs());
        }
        return out;
    }

    /** The cluster as a real server would see it after the "before" windows. */
    ClusterState clusterState(World world, List<List<DiskWindow>> windows, String strategy) {
        Map<String, List<DiskWindow>> perDisk = new HashMap<>();
        for (List<DiskWindow> window : windows) {
            for (DiskWindow d : window) {
                if (!isCopy(d)) {
                    perDisk.computeIfAbsent(d.disk(), k -> new ArrayList<>()).add(d);
                }
            }
        }
        Map<String, double[]> dsPercentiles = new LinkedHashMap<>(); // ios, p50 × ios, p90 × ios
        Map<String, Double> usedGb = new HashMap<>();
        Map<String, List<DiskState>> disksOfVm = new LinkedHashMap<>();
        Map<String, String> hostOfVm = new LinkedHashMap<>();
        for (VirtualDisk vd : world.disks()) {
            List<DiskWindow> ws = perDisk.getOrDefault(vd.id(), List.of());
            double n = Math.max(1, ws.size());
            double oio = 0;
            double sizeKb = 0;
            double read = 0;
            double random = 0;
            double iops = 0;
            long ios = 0;
            for (DiskWindow w : ws) {
                oio += w.meanOutstanding() / n;
                iops += w.iops() / n;
                ios += w.ios();
                if (w.ios() > 0) {
                    sizeKb += w.meanIoSizeKB() * w.ios();
                    read += w.readShare() * w.ios();
                    random += w.randomness() * w.ios();
                }
                double[] p = dsPercentiles.computeIfAbsent(vd.datastore(), k -> new double[3]);
                p[0] += w.ios();
                p[1] += w.ios() * w.p50Ms();
                p[2] += w.ios() * w.p90Ms();
            }
            Workload workload = ios == 0 ? new Workload(0, 4, 1, 1)
                    : new Workload(Math.max(0, oio), Math.max(0.5, sizeKb / ios), clamp(read / ios), clamp(random / ios));
            double gb = vd.sizeBytes() / (double) (1L << 30);
            usedGb.merge(vd.datastore(), gb, Double::sum);
            disksOfVm.computeIfAbsent(vd.vm(), k -> new ArrayList<>())
                    .add(new DiskState(vd.id(), gb, vd.datastore(), workload, iops));
            hostOfVm.putIfAbsent(vd.vm(), vd.host());
        }
        List<DatastoreState> datastores = new ArrayList<>();
        for (Datastore ds : world.datastores()) {
            double[] p = dsPercentiles.get(ds.name());
            LatencyPercentiles observed = null;
            if (p != null && p[0] > 0) {
                double p50 = p[1] / p[0];
                double p90 = Math.max(p50, p[2] / p[0]);
                // The testbed's windows carry p50 and p90; p70 is read between them.
                observed = new LatencyPercentiles(p50, (p50 + p90) / 2, p90);
            }
            DeviceUnderTest device = new DeviceUnderTest(ds.name(), ds.profile(), ds.capacityBytes());
            datastores.add(DatastoreState.of(ds.name(), ds.capacityBytes() / (double) (1L << 30),
                    usedGb.getOrDefault(ds.name(), 0.0), model(device, strategy), observed));
        }
        List<HostState> hosts = new ArrayList<>();
        for (HostSpec h : world.scenario().hosts()) {
            hosts.add(new HostState(h.name(), new LinkedHashSet<>(h.datastores())));
        }
        List<VmState> vms = new ArrayList<>();
        for (VmSpec vm : world.scenario().vms()) {
            List<DiskState> disks = disksOfVm.get(vm.name());
            if (disks != null) {
                vms.add(new VmState(vm.name(), hostOfVm.get(vm.name()), null, vm.keepTogether(), disks));
            }
        }
        return new ClusterState(world.scenario().name(), datastores, hosts, vms, List.of(), settings);
    }

    /**
     * Pesto Table 2's "IO balanced" initial setup: the same datastores, VMs and workloads, each VM
     * (in order, all its disks together) placed by the product's initial placement (Pesto §5.4.2,
     * {@link InitialPlacement#recommendDatastores} with the least latency variance) on the LQ
     * models the host agents' injector would give each datastore, knowing each disk's workload.
     */
    Scenario ioBalanced(Scenario s) throws InvalidScenarioException {
        Map<String, Double> usedGb = new LinkedHashMap<>();
        Map<String, DatastoreModel> models = new LinkedHashMap<>();
        for (Datastore ds : World.build(BalancingWorlds.steady(s)).datastores()) {
            models.put(ds.name(), model(new DeviceUnderTest(ds.name(), ds.profile(), ds.capacityBytes()), "pesto"));
            usedGb.put(ds.name(), 0.0);
        }
        List<HostState> hosts = new ArrayList<>();
        for (HostSpec h : s.hosts()) {
            hosts.add(new HostState(h.name(), new LinkedHashSet<>(h.datastores())));
        }
        List<VmState> placed = new ArrayList<>();
        List<VmSpec> vms = new ArrayList<>();
        for (VmSpec vm : s.vms()) {
            List<DatastoreState> datastores = new ArrayList<>();
            for (io.opensdrs.scenario.DatastoreSpec ds : s.datastores()) {
                datastores.add(DatastoreState.of(ds.name(), ds.capacityGB(), usedGb.get(ds.name()), models.get(ds.name()), null));
            }
            ClusterState state = new ClusterState(s.name(), datastores, hosts, placed, List.of(), settings);
            List<InitialPlacement.NewDisk> disks = new ArrayList<>();
            for (io.opensdrs.scenario.DiskSpec d : vm.disks()) {
                disks.add(new InitialPlacement.NewDisk(vm.name() + "/" + d.name(), d.sizeGB(), workload(d)));
            }
            InitialPlacement.Result r = InitialPlacement.recommendDatastores(state,
                    new InitialPlacement.NewVm(vm.name(), vm.host(), null, disks, List.of(), 0),
                    InitialPlacement.Objective.PESTO_BALANCE);
            if (r.recommendations().size() != 1) {
                throw new IllegalStateException("IO-balanced setup of " + s.name() + ": " + vm.name()
                        + " got " + r.recommendations().size() + " placements, faults " + r.faults());
            }
            String ds = r.recommendations().get(0).datastoreId();
            List<DiskState> states = new ArrayList<>();
            for (io.opensdrs.scenario.DiskSpec d : vm.disks()) {
                states.add(new DiskState(vm.name() + "/" + d.name(), d.sizeGB(), ds, workload(d), 0));
                usedGb.merge(ds, d.sizeGB(), Double::sum);
            }
            placed.add(new VmState(vm.name(), vm.host(), null, null, states));
            vms.add(BalancingWorlds.placed(vm, ds));
        }
        return BalancingWorlds.withVms(s, s.name().replace("pesto-like", "pesto-io"), vms);
    }

    private static Workload workload(io.opensdrs.scenario.DiskSpec d) {
        io.opensdrs.scenario.WorkloadSpec w = d.workload();
        return new Workload(w.oio(), w.ioSizeKB(), w.readPct() / 100, w.randomPct() / 100);
    }

    /**
     * The model a real server would hold for this datastore under this strategy: Romano's
     * from its calibration design for {@code romano}; otherwise the LQ model from the host
     * agent's injector runs, 4 and 256 KiB random reads (BASIL's P_j = 1/slope reads the same
     * line). A model the data cannot support (Pesto's R² &lt; 0.93 gate) is left out: the engine
     * then gives the datastore Pesto's default model (§5.1.3).
     */
    DatastoreModel model(DeviceUnderTest device, String strategy) {
        DatastoreModel model;
        List<Observation> obs;
        if (strategy.equals("romano")) {
            model = new RomanoModel();
            obs = injector.of(device, "romano-balancing", CalibrationDesign.romanoBalancingCalibration());
        } else {
            model = new LqSlopeModel();
            obs = injector.of(device, "pesto-injector", CalibrationDesign.pestoInjector());
        }
        try {
            model.fit(obs);
            return model;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
