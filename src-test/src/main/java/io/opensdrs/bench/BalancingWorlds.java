package io.opensdrs.bench;

import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DeviceSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.DeviceProfiles;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The random worlds B2 balances (SPEC §8), two kinds:
 * <ul>
 * <li><b>Pesto-like</b> (Pesto Table 2: "diverse workloads", 150 test cases): 4–6 datastores
 * drawn with repetition from a catalogue of heterogeneous devices (the four calibrated
 * profiles, spindle arrays of different width, speed, RAID and cache, a generic SSD), two
 * hosts that see all of them, 12–20 VMs with 1–3 disks of Romano Table 7 workloads at
 * 1–8 outstanding IOs, placed at random.</li>
 * <li><b>Romano-like</b> (Romano §5.5, Fig. 11): the four datastores of Romano Table 2 (E1,
 * E2, N1, N2 as the shipped {@code romano-testbed} describes them) and 8–14 workloads drawn
 * from Romano Table 7 with repetition, one 50 GB disk each, placed at random.</li>
 * </ul>
 * No phases and no timed events: B2 compares steady states before and after one balancing run.
 */
public final class BalancingWorlds {
    /** Romano Table 7 (after Wang) with the outstanding IOs the shipped romano-testbed gives each. */
    static final double[][] TABLE7 = {
            // oio, size KB, read %, random %
            {4, 4, 95, 75}, {8, 8, 95, 75}, {1, 64, 95, 75}, {1, 1024, 100, 100}, {8, 64, 98, 0}, {8, 64, 0, 0},
            {2, 8, 0, 100}, {2, 8, 70, 100}, {4, 4, 67, 100}, {8, 8, 80, 80}, {1, 512, 100, 100}};
    static final String[] TABLE7_NAMES = {"webfile4k", "webfile8k", "webfile64k", "supportdb", "media",
            "sqllog", "weblog", "oltp", "exchange", "workstation", "vod"};

    /** Heterogeneous devices for Pesto-like worlds, with the capacity each datastore gets (GB). */
    private static final Object[][] CATALOGUE = {
            {new DeviceSpec.HddArray(DeviceProfiles.HGST_7K2, null, null, null, null, null, null, null), 1024.0},
            {new DeviceSpec.HddArray(DeviceProfiles.WD740GD_10K, null, null, null, null, null, null, null), 1024.0},
            {new DeviceSpec.HddArray(DeviceProfiles.IBM_M1015_RAID5, null, null, null, null, null, null, null), 4096.0},
            {new DeviceSpec.Ssd(DeviceProfiles.INTEL_D3_S4610, null, null, null, null), 1024.0},
            {new DeviceSpec.HddArray(null, 4, 10000, "raid5", 64, 0.0, 0.0, true), 2048.0},
            {new DeviceSpec.HddArray(null, 6, 15000, "raid5", 64, 4.0, 512.0, true), 2048.0},
            {new DeviceSpec.HddArray(null, 8, 10000, "raid10", 64, 2.0, 256.0, true), 2048.0},
            {new DeviceSpec.HddArray(null, 12, 15000, "raid5", 64, 4.0, 512.0, true), 4096.0},
            {new DeviceSpec.Ssd(null, null, null, null, null), 1024.0}};

    private BalancingWorlds() {
    }

    public static Scenario pestoLike(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = 4 + rng.nextInt(3);
        List<DatastoreSpec> datastores = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object[] c = CATALOGUE[rng.nextInt(CATALOGUE.length)];
            String name = String.format("ds%02d", i + 1);
            names.add(name);
            datastores.add(new DatastoreSpec(name, (Double) c[1], false, (DeviceSpec) c[0]));
        }
        List<HostSpec> hosts = List.of(new HostSpec("esx01", names), new HostSpec("esx02", names));
        List<VmSpec> vms = new ArrayList<>();
        int vmCount = 12 + rng.nextInt(9);
        for (int v = 0; v < vmCount; v++) {
            int diskCount = 1 + rng.nextInt(3);
            List<DiskSpec> disks = new ArrayList<>();
            // A VM's disks start together, as vSphere places them (keep VMDKs together).
            String ds = names.get(rng.nextInt(n));
            for (int d = 0; d < diskCount; d++) {
                double[] w = TABLE7[rng.nextInt(TABLE7.length)];
                disks.add(new DiskSpec("disk" + d, 10 + 10 * rng.nextInt(5), ds, null,
                        new WorkloadSpec(1 + rng.nextInt(8), w[1], w[2], w[3], null, null)));
            }
            vms.add(new VmSpec(String.format("vm%02d", v + 1), hosts.get(v % 2).name(), null, null, disks));
        }
        return new Scenario("pesto-like-" + seed, "B2 Pesto-like world from seed " + seed, seed, 12.0, null,
                datastores, hosts, vms, null, null);
    }

    /** @param romanoDatastores the four Romano Table 2 datastores (from the shipped romano-testbed) */
    public static Scenario romanoLike(long seed, List<DatastoreSpec> romanoDatastores) {
        SplittableRandom rng = new SplittableRandom(seed);
        List<String> names = romanoDatastores.stream().map(DatastoreSpec::name).toList();
        List<HostSpec> hosts = List.of(new HostSpec("esx1", names), new HostSpec("esx2", names));
        List<VmSpec> vms = new ArrayList<>();
        int count = 8 + rng.nextInt(7);
        for (int v = 0; v < count; v++) {
            int k = rng.nextInt(TABLE7.length);
            double[] w = TABLE7[k];
            String ds = names.get(rng.nextInt(names.size()));
            vms.add(new VmSpec(String.format("%s-%02d", TABLE7_NAMES[k], v + 1), hosts.get(v % 2).name(), null, null,
                    List.of(new DiskSpec("data", 50, ds, null, new WorkloadSpec(w[0], w[1], w[2], w[3], null, null)))));
        }
        return new Scenario("romano-like-" + seed, "B2 Romano-like world from seed " + seed, seed, 12.0, null,
                romanoDatastores, hosts, vms, null, null);
    }

    /**
     * Pesto Table 2's "space balanced" initial setup: the same datastores, VMs and workloads,
     * each VM (in order, all its disks together) placed where the datastore's space utilization
     * after placing it is lowest, as an administrator filling datastores evenly would.
     */
    public static Scenario spaceBalanced(Scenario s) {
        java.util.Map<String, Double> used = new java.util.LinkedHashMap<>();
        java.util.Map<String, Double> capacity = new java.util.LinkedHashMap<>();
        for (DatastoreSpec ds : s.datastores()) {
            used.put(ds.name(), 0.0);
            capacity.put(ds.name(), ds.capacityGB());
        }
        List<VmSpec> vms = new ArrayList<>();
        for (VmSpec vm : s.vms()) {
            double size = vm.disks().stream().mapToDouble(DiskSpec::sizeGB).sum();
            String best = null;
            for (String ds : used.keySet()) {
                if (best == null || (used.get(ds) + size) / capacity.get(ds) < (used.get(best) + size) / capacity.get(best)) {
                    best = ds;
                }
            }
            used.merge(best, size, Double::sum);
            vms.add(placed(vm, best));
        }
        return withVms(s, s.name().replace("pesto-like", "pesto-space"), vms);
    }

    /** The VM with every disk on {@code datastore}. */
    static VmSpec placed(VmSpec vm, String datastore) {
        List<DiskSpec> disks = new ArrayList<>();
        for (DiskSpec d : vm.disks()) {
            disks.add(new DiskSpec(d.name(), d.sizeGB(), datastore, d.thin(), d.workload()));
        }
        return new VmSpec(vm.name(), vm.host(), vm.automation(), vm.keepTogether(), disks, vm.memoryMB());
    }

    static Scenario withVms(Scenario s, String name, List<VmSpec> vms) {
        return new Scenario(name, s.description(), s.seed(), s.hours(), s.datastoreClusters(), s.datastores(),
                s.hosts(), vms, s.rules(), s.events());
    }

    /** The scenario without timed events and with every workload's phases dropped (B2 compares steady states). */
    public static Scenario steady(Scenario s) {
        List<VmSpec> vms = new ArrayList<>();
        for (VmSpec vm : s.vms()) {
            List<DiskSpec> disks = new ArrayList<>();
            for (DiskSpec d : vm.disks()) {
                WorkloadSpec w = d.workload();
                disks.add(w == null ? d : new DiskSpec(d.name(), d.sizeGB(), d.datastore(), d.thin(),
                        new WorkloadSpec(w.oio(), w.ioSizeKB(), w.readPct(), w.randomPct(), w.thinkTimeMs(), null)));
            }
            vms.add(new VmSpec(vm.name(), vm.host(), vm.automation(), vm.keepTogether(), disks, vm.memoryMB()));
        }
        return new Scenario(s.name(), s.description(), s.seed(), s.hours(), s.datastoreClusters(), s.datastores(),
                s.hosts(), vms, s.rules(), null);
    }
}
