package io.opensdrs.testbed.worlds;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.opensdrs.scenario.DatastoreClusterSpec;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DeviceSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.PhaseSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.DeviceProfiles;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random worlds from a seed, for benchmarks that must run on worlds nobody tuned for
 * (SPEC §8): datastores drawn from the calibrated profiles and generic arrays, hosts that
 * each see a group of datastores, VMs whose disks run workloads of Romano Table 7 (after
 * Wang) at random concurrency, some with busy hours, placed at random with capacity to spare.
 */
public final class RandomWorldGenerator {
    /** Romano Table 7: name, IO size KB, read %, random %. */
    private static final Object[][] TABLE7 = {
            {"webfile", 4, 95, 75}, {"webfile", 8, 95, 75}, {"webfile", 64, 95, 75}, {"supportdb", 1024, 100, 100},
            {"media", 64, 98, 0}, {"sqllog", 64, 0, 0}, {"weblog", 8, 0, 100}, {"oltp", 8, 70, 100},
            {"exchange", 4, 67, 100}, {"workstation", 8, 80, 80}, {"vod", 512, 100, 100}};

    private RandomWorldGenerator() {
    }

    public static Scenario generate(long seed, int datastoreCount, int vmCount, double hours) {
        if (datastoreCount < 1 || vmCount < 0 || !(hours > 0)) {
            throw new IllegalArgumentException("need ≥ 1 datastore, ≥ 0 VMs and hours > 0");
        }
        SplittableRandom rng = new SplittableRandom(seed);
        List<DatastoreSpec> datastores = new ArrayList<>();
        double[] free = new double[datastoreCount];
        for (int i = 0; i < datastoreCount; i++) {
            DeviceSpec dev;
            double capacity;
            switch (rng.nextInt(6)) {
                case 0:
                    dev = new DeviceSpec.Ssd(DeviceProfiles.INTEL_D3_S4610, null, null, null, null);
                    capacity = 1024;
                    break;
                case 1:
                    dev = new DeviceSpec.HddArray(DeviceProfiles.IBM_M1015_RAID5, null, null, null, null, null, null, null);
                    capacity = 8192;
                    break;
                case 2:
                    dev = new DeviceSpec.HddArray(rng.nextBoolean() ? DeviceProfiles.HGST_7K2 : DeviceProfiles.WD740GD_10K,
                            null, null, null, null, null, null, null);
                    capacity = 1024;
                    break;
                default:
                    int disks = 4 + rng.nextInt(9);
                    dev = new DeviceSpec.HddArray(null, disks, rng.nextBoolean() ? 15000 : 10000,
                            rng.nextInt(4) == 0 ? "raid10" : "raid5", 64, (double) rng.nextInt(5),
                            (double) (256 * rng.nextInt(4)), true);
                    if (((DeviceSpec.HddArray) dev).raid().equals("raid10") && disks % 2 == 1) {
                        dev = new DeviceSpec.HddArray(null, disks + 1, ((DeviceSpec.HddArray) dev).rpm(), "raid10", 64,
                                ((DeviceSpec.HddArray) dev).readCacheGB(), ((DeviceSpec.HddArray) dev).writeCacheMB(), true);
                    }
                    capacity = 4096;
            }
            free[i] = capacity;
            datastores.add(new DatastoreSpec(String.format("ds%02d", i + 1), capacity, rng.nextInt(8) == 0, dev));
        }
        // Hosts come in groups of two; each group sees up to 16 consecutive datastores.
        int groups = Math.max(1, (datastoreCount + 15) / 16);
        List<HostSpec> hosts = new ArrayList<>();
        List<DatastoreClusterSpec> clusters = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            List<String> seen = new ArrayList<>();
            for (int i = g * 16; i < Math.min(datastoreCount, (g + 1) * 16); i++) {
                seen.add(datastores.get(i).name());
            }
            clusters.add(new DatastoreClusterSpec(String.format("pod%02d", g + 1), seen));
            for (int h = 0; h < 2; h++) {
                hosts.add(new HostSpec(String.format("esx%02d", 2 * g + h + 1), seen));
            }
        }
        List<VmSpec> vms = new ArrayList<>();
        for (int v = 0; v < vmCount; v++) {
            int g = rng.nextInt(groups);
            HostSpec host = hosts.get(2 * g + rng.nextInt(2));
            int diskCount = 1 + rng.nextInt(3);
            List<DiskSpec> disks = new ArrayList<>();
            for (int d = 0; d < diskCount; d++) {
                Object[] w = TABLE7[rng.nextInt(TABLE7.length)];
                double size = 10 + rng.nextInt(20) * 10;
                String ds = host.datastores().get(rng.nextInt(host.datastores().size()));
                int idx = Integer.parseInt(ds.substring(2)) - 1;
                if (free[idx] < size) {
                    continue;
                }
                free[idx] -= size;
                List<PhaseSpec> phases = rng.nextInt(3) == 0
                        ? List.of(new PhaseSpec(9, 17, (double) (2 + rng.nextInt(15)), null, null, null, null))
                        : null;
                disks.add(new DiskSpec("disk" + d, size, ds, null,
                        new WorkloadSpec(1 + rng.nextInt(8), ((Integer) w[1]).doubleValue(), ((Integer) w[2]).doubleValue(),
                                ((Integer) w[3]).doubleValue(), null, phases)));
            }
            if (!disks.isEmpty()) {
                vms.add(new VmSpec(String.format("vm%04d", v + 1), host.name(), null, null, disks));
            }
        }
        return new Scenario(String.format("random-%d-%dds", seed, datastoreCount),
                "Random world from seed " + seed + " (RandomWorldGenerator).", seed, hours, clusters, datastores, hosts,
                vms, null, null);
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL).build();

    /** The scenario as compact JSON in the scenario-file format. */
    public static String toJson(Scenario s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
