package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.DatastoreState;
import io.opensdrs.balance.DiskState;
import io.opensdrs.balance.HostState;
import io.opensdrs.balance.Rule;
import io.opensdrs.balance.VmOverride;
import io.opensdrs.balance.VmState;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.RomanoModel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A B3 world at SDRS's configuration maximums (SPEC §4): one datastore cluster of 64
 * datastores and 9,000 disks (3 per VM, 80 % of VMs keep their VMDKs together), 32 hosts each
 * missing ~10 % of the datastores, VM and VMDK anti-affinity rules, a skew that overloads
 * the first eighth of the datastores. Models: Pesto LQ lines fitted to a synthetic injector run
 * (4 and 256 KiB at OIO 2–32, as the agent's), so that each prediction carries its interval and
 * change error as in production, or Romano models fitted to a synthetic device law
 * P = s·O·(0.5 + 0.6·X + Z/64) over Romano's test vector; either kind fitted once and shared
 * read-only between clusters.
 */
public final class ScaleWorld {

    private ScaleWorld() {
    }

    /** Each pool is fitted when first asked for (the JVM initializes a holder class once, on first use). */
    private static final class RomanoPool {
        static final List<RomanoModel> MODELS = fitRomanoPool();
    }

    private static final class LqPool {
        static final List<LqSlopeModel> MODELS = fitLqPool();
    }

    /** Eight fitted Romano models of devices 1×–8× apart. */
    static List<RomanoModel> romanoPool() {
        return RomanoPool.MODELS;
    }

    /**
     * Sixteen LQ lines (m 0.02–0.12 ms per IO, C 1–6 ms, a 256-KiB IO weighing as 1 + 252/(K + 4)
     * reads of 4 KiB with K 32–512 KiB), each fitted to an injector run with 0.5 % noise (the
     * demo's injector runs fit with R² 0.998–1.000).
     */
    static List<LqSlopeModel> lqPool() {
        return LqPool.MODELS;
    }

    private static List<RomanoModel> fitRomanoPool() {
        List<RomanoModel> pool = new ArrayList<>();
        Random rnd = new Random(2012);
        for (int k = 0; k < 8; k++) {
            double speed = 0.005 * (1 + k);
            List<Observation> obs = new ArrayList<>();
            for (int x = 0; x <= 100; x += 25) {
                for (int r = 0; r <= 100; r += 50) {
                    for (int z = 1; z <= 64; z *= 4) {
                        for (int o = 1; o <= 64; o *= 2) {
                            Workload w = new Workload(o, z, r / 100.0, x / 100.0);
                            double truth = speed * o * (0.5 + 0.6 * w.randomFraction() + z / 64.0);
                            obs.add(new Observation(w, Math.max(1e-3, truth * (1 + 0.02 * rnd.nextGaussian()))));
                        }
                    }
                }
            }
            RomanoModel m = new RomanoModel();
            m.fit(obs);
            pool.add(m);
        }
        return List.copyOf(pool);
    }

    private static List<LqSlopeModel> fitLqPool() {
        List<LqSlopeModel> pool = new ArrayList<>();
        Random rnd = new Random(2011);
        for (int k = 0; k < 16; k++) {
            double m = 0.02 + 0.1 * rnd.nextDouble();
            double c = 1 + 5 * rnd.nextDouble();
            double scale = 32 << rnd.nextInt(5);
            List<Observation> obs = new ArrayList<>();
            for (double z : LqSlopeModel.injectorIoSizesKb()) {
                for (int o = 2; o <= 32; o *= 2) {
                    double truth = m * o * (scale + z) / (scale + LqSlopeModel.BASE_SIZE_KB) + c;
                    obs.add(new Observation(new Workload(o, z, 1, 1), truth * (1 + 0.005 * rnd.nextGaussian())));
                }
            }
            LqSlopeModel model = new LqSlopeModel();
            model.fit(obs);
            pool.add(model);
        }
        return List.copyOf(pool);
    }

    public static ClusterState generate(String id, int datastores, int disks, boolean romano, long seed) {
        Random rnd = new Random(seed);
        List<String> dsIds = new ArrayList<>();
        for (int j = 0; j < datastores; j++) {
            dsIds.add(id + "-ds" + j);
        }
        int hostCount = 32;
        List<HostState> hosts = new ArrayList<>();
        for (int h = 0; h < hostCount; h++) {
            Set<String> sees = new HashSet<>();
            for (String d : dsIds) {
                if (rnd.nextDouble() >= 0.1) {
                    sees.add(d);
                }
            }
            hosts.add(new HostState(id + "-h" + h, sees));
        }
        double[] used = new double[datastores];
        List<VmState> vms = new ArrayList<>();
        List<Rule> rules = new ArrayList<>();
        int diskNo = 0;
        int vmNo = 0;
        while (diskNo < disks) {
            HostState host = hosts.get(rnd.nextInt(hostCount));
            List<String> visible = new ArrayList<>(host.datastores());
            visible.sort(null);
            boolean together = rnd.nextDouble() < 0.8;
            int n = Math.min(3, disks - diskNo);
            List<DiskState> list = new ArrayList<>();
            String shared = skewed(rnd, visible, datastores);
            Set<String> usedHere = new HashSet<>();
            for (int k = 0; k < n; k++) {
                String ds = together ? shared : skewed(rnd, visible, datastores);
                if (!together) {
                    while (usedHere.contains(ds) && usedHere.size() < visible.size()) {
                        ds = visible.get(rnd.nextInt(visible.size()));
                    }
                }
                usedHere.add(ds);
                double size = 10 + rnd.nextInt(90);
                used[dsIds.indexOf(ds)] += size;
                Workload w = new Workload(0.2 + 2.8 * rnd.nextDouble(), new double[] {4, 8, 16, 32, 64}[rnd.nextInt(5)],
                        rnd.nextDouble(), rnd.nextDouble());
                list.add(new DiskState(id + "-d" + diskNo++, size, ds, w, 0));
            }
            String vmId = id + "-vm" + vmNo++;
            VmOverride override = rnd.nextDouble() < 0.02 ? VmOverride.EXCLUDED : VmOverride.DEFAULT;
            vms.add(new VmState(vmId, host.id(), override, together ? null : Boolean.FALSE, list));
            if (!together && list.size() >= 2 && usedHere.size() == list.size() && rnd.nextDouble() < 0.1) {
                Set<String> ids = new HashSet<>();
                list.forEach(d -> ids.add(d.id()));
                rules.add(new Rule.VmdkAntiAffinity(vmId + "-vmdk-aa", vmId, ids));
            }
        }
        // VM anti-affinity between pairs of kept-together VMs on different datastores.
        for (int r = 0; r < 50; r++) {
            VmState a = vms.get(rnd.nextInt(vms.size()));
            VmState b = vms.get(rnd.nextInt(vms.size()));
            if (a == b) {
                continue;
            }
            Set<String> da = new HashSet<>();
            a.disks().forEach(d -> da.add(d.datastoreId()));
            boolean disjoint = b.disks().stream().noneMatch(d -> da.contains(d.datastoreId()));
            if (disjoint) {
                rules.add(new Rule.VmAntiAffinity(id + "-vm-aa-" + r, Set.of(a.id(), b.id())));
            }
        }
        List<DatastoreState> list = new ArrayList<>();
        List<? extends DatastoreModel> pool = romano ? romanoPool() : lqPool();
        for (int j = 0; j < datastores; j++) {
            DatastoreModel model = pool.get(rnd.nextInt(pool.size()));
            double capacity = 16_384;
            list.add(new DatastoreState(dsIds.get(j), capacity, used[j], true, io.opensdrs.balance.MaintenanceState.NORMAL,
                    model, null));
        }
        return new ClusterState(id, list, hosts, vms, rules, BalancingSettings.defaults());
    }

    /** The first eighth of the datastores is twice as likely: an IO hot spot to balance. */
    private static String skewed(Random rnd, List<String> visible, int datastores) {
        String pick = visible.get(rnd.nextInt(visible.size()));
        if (rnd.nextDouble() < 0.25) {
            List<String> hot = new ArrayList<>();
            for (String v : visible) {
                int j = Integer.parseInt(v.substring(v.lastIndexOf("ds") + 2));
                if (j < Math.max(1, datastores / 8)) {
                    hot.add(v);
                }
            }
            if (!hot.isEmpty()) {
                pick = hot.get(rnd.nextInt(hot.size()));
            }
        }
        return pick;
    }
}
