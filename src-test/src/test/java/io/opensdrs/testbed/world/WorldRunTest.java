package io.opensdrs.testbed.world;

import io.opensdrs.scenario.InvalidScenarioException;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.scenario.ScenarioLoader;
import io.opensdrs.testbed.sim.VirtualClock;
import io.opensdrs.testbed.stats.DatastoreWindow;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.worlds.RandomWorldGenerator;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorldRunTest {
    private static final String SMALL = """
            {"name": "small", "seed": 3, "hours": 1,
             "datastores": [
               {"name": "raid", "capacityGB": 1024, "device": {"type": "hdd-array", "profile": "ibm-m1015-8x2tb-raid5"}},
               {"name": "ssd", "capacityGB": 512, "device": {"type": "ssd", "profile": "intel-d3-s4610"}},
               {"name": "disk", "capacityGB": 512, "device": {"type": "hdd-array", "profile": "hgst-7k2"}}],
             "hosts": [{"name": "esx1", "datastores": ["raid", "ssd", "disk"]}],
             "vms": [
               {"name": "a", "host": "esx1", "disks": [
                 {"name": "d1", "sizeGB": 50, "datastore": "raid", "workload": {"oio": 8, "ioSizeKB": 8, "readPct": 70, "randomPct": 100}},
                 {"name": "d2", "sizeGB": 50, "datastore": "raid", "workload": {"oio": 4, "ioSizeKB": 4, "readPct": 100, "randomPct": 100}}]},
               {"name": "b", "host": "esx1", "disks": [
                 {"name": "d1", "sizeGB": 20, "datastore": "ssd", "workload": {"oio": 16, "ioSizeKB": 4, "readPct": 100, "randomPct": 100}},
                 {"name": "d2", "sizeGB": 20, "datastore": "disk", "workload": {"oio": 4, "ioSizeKB": 4, "readPct": 100, "randomPct": 100}}]}]}
            """;

    private static Map<String, double[]> meanLatency(World world, WorldRun.Method method, double hours) throws Exception {
        Map<String, double[]> acc = new HashMap<>();
        WorldRun.create(world, method, 11).run(hours, new VirtualClock(), (t, disks, dss) -> {
            if (t < 60_000) {
                return; // skip the first minute: warm-up
            }
            for (DatastoreWindow d : dss) {
                double[] a = acc.computeIfAbsent(d.datastore(), k -> new double[2]);
                a[0] += d.ios();
                a[1] += d.meanLatencyMs() * d.ios();
            }
        }, WorldRun.PlacementPolicy.NONE);
        return acc;
    }

    @Test
    void steadyStateMethodAgreesWithIoLevelWithinFivePercent() throws Exception {
        Scenario s = ScenarioLoader.parse(SMALL, "small");
        Map<String, double[]> io = meanLatency(World.build(s), WorldRun.Method.IO_LEVEL, 0.1);
        Map<String, double[]> ss = meanLatency(World.build(s), WorldRun.Method.STEADY_STATE, 0.1);
        for (String ds : List.of("raid", "ssd", "disk")) {
            double a = io.get(ds)[1] / io.get(ds)[0];
            double b = ss.get(ds)[1] / ss.get(ds)[0];
            assertThat(Math.abs(b - a) / a).as("%s: IO-level %.3f ms, steady-state %.3f ms", ds, a, b)
                    .isLessThanOrEqualTo(0.05);
        }
    }

    /**
     * The demo's gold-15k1 (the default 6 × 15k RAID-5 with a 512 MB write-back cache) under a write-heavy mix:
     * the cache absorbs the writes for the first seconds only, then every write waits for a RAID-5
     * read-modify-write, and the 4 GB read cache fills for about two minutes. A sample taken after 2 s of
     * warm-up measured the filling write cache (3.5 ms where IO by IO runs at 11.8); the sample must wait until
     * the caches are in their steady state.
     */
    @Test
    void steadyStateSampleWaitsForAWriteBackCacheToFill() throws Exception {
        Scenario s = ScenarioLoader.parse("""
                {"name": "wb", "seed": 3, "hours": 1,
                 "datastores": [{"name": "r5", "capacityGB": 2048, "device": {"type": "hdd-array", "disks": 6, "rpm": 15000,
                   "raid": "raid5", "readCacheGB": 4, "writeCacheMB": 512, "prefetch": true}}],
                 "hosts": [{"name": "esx1", "datastores": ["r5"]}],
                 "vms": [{"name": "a", "host": "esx1", "disks": [
                   {"name": "log", "sizeGB": 4, "datastore": "r5", "workload": {"oio": 2, "ioSizeKB": 16, "readPct": 5, "randomPct": 5}},
                   {"name": "db", "sizeGB": 10, "datastore": "r5", "workload": {"oio": 8, "ioSizeKB": 8, "readPct": 70, "randomPct": 100}}]}]}
                """, "wb");
        double io = mean(meanLatency(World.build(s), WorldRun.Method.IO_LEVEL, 0.1).get("r5"));
        double ss = mean(meanLatency(World.build(s), WorldRun.Method.STEADY_STATE, 0.1).get("r5"));
        assertThat(Math.abs(ss - io) / io).as("IO-level %.3f ms, steady-state %.3f ms", io, ss).isLessThanOrEqualTo(0.05);
    }

    private static double mean(double[] a) {
        return a[1] / a[0];
    }

    @Test
    void relocationLoadsBothSidesThenMovesTheDisk() throws Exception {
        String json = SMALL.replace("\"sizeGB\": 20, \"datastore\": \"disk\"", "\"sizeGB\": 1, \"datastore\": \"disk\"");
        World world = World.build(ScenarioLoader.parse(json, "small"));
        Map<String, Long> copyIos = new HashMap<>();
        WorldRun run = WorldRun.create(world, WorldRun.Method.IO_LEVEL, 5);
        run.run(0.05, new VirtualClock(), (t, disks, dss) -> {
            for (DiskWindow d : disks) {
                if (d.disk().startsWith("copy-")) {
                    copyIos.merge(d.disk() + "@" + d.datastore(), d.ios(), Long::sum);
                }
            }
        }, (w, now, disks, dss) -> {
            if (now == 20_000) {
                w.relocate("b/d2", "raid", now);
            }
        });
        assertThat(world.disk("b/d2").datastore()).isEqualTo("raid");
        assertThat(copyIos).containsKeys("copy-read:b/d2@disk", "copy-write:b/d2@raid");
        assertThat(world.log()).anyMatch(l -> l.contains("completed"));
    }

    @Test
    void unknownProfileIsRejectedNamingTheField() {
        String bad = SMALL.replace("\"profile\": \"hgst-7k2\"", "\"profile\": \"no-such-disk\"");
        assertThatThrownBy(() -> World.build(ScenarioLoader.parse(bad, "bad")))
                .isInstanceOf(InvalidScenarioException.class)
                .hasMessageContaining("$.datastores[2].device.profile");
    }

    @Test
    void shippedWorldsBuildAndHaveTheirShape() throws Exception {
        Scenario pesto = ScenarioCatalog.example("pesto-testbed");
        assertThat(pesto.datastores()).hasSize(7);
        assertThat(pesto.hosts()).hasSize(6);
        assertThat(pesto.vms()).hasSize(28);
        assertThat(pesto.diskCount()).isEqualTo(66);
        World.build(pesto);
        Scenario romano = ScenarioCatalog.example("romano-testbed");
        assertThat(romano.datastores()).hasSize(4);
        assertThat(romano.diskCount()).isBetween(8, 14);
        World.build(romano);
        Scenario big = ScenarioCatalog.example("datastores-64");
        assertThat(big.datastores()).hasSize(64);
        World.build(big);
        World.build(ScenarioCatalog.example("demo"));
    }

    @Test
    void randomWorldsAreValidAndReproducible() throws Exception {
        for (long seed = 1; seed <= 5; seed++) {
            Scenario s = RandomWorldGenerator.generate(seed, 12, 30, 6);
            String json = RandomWorldGenerator.toJson(s);
            World.build(ScenarioLoader.parse(json, "random"));
            assertThat(RandomWorldGenerator.toJson(RandomWorldGenerator.generate(seed, 12, 30, 6))).isEqualTo(json);
        }
    }
    /** Three windows of a steady-state run of {@code world}, its samples shared through {@code samples}. */
    private static List<List<DiskWindow>> threeWindows(World world, SteadyStateRun.Samples samples, int[] taken)
            throws Exception {
        List<List<DiskWindow>> out = new java.util.ArrayList<>();
        SteadyStateRun run = (SteadyStateRun) WorldRun.steadyState(world, 11, samples);
        run.run(WorldRun.WINDOW_MS * 3 / 3_600_000, new VirtualClock(), (t, disks, dss) -> out.add(disks),
                WorldRun.PlacementPolicy.NONE);
        taken[0] = run.samplesTaken();
        return out;
    }

    @Test
    void runsSharingSamplesAtOnceSimulateEachSampleOnceAndSeeWhatAnUnsharedRunSees() throws Exception {
        Scenario s = ScenarioLoader.parse(SMALL, "small");
        int[] alone = new int[1];
        List<List<DiskWindow>> unshared = threeWindows(World.build(s), new SteadyStateRun.Samples(), alone);
        assertThat(alone[0]).isEqualTo(3); // one sample per datastore: nothing changes in three windows

        SteadyStateRun.Samples shared = new SteadyStateRun.Samples();
        int[][] taken = new int[2][1];
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<List<List<DiskWindow>>>> runs = new java.util.ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int me = i;
                runs.add(pool.submit(() -> {
                    start.await();
                    return threeWindows(World.build(s), shared, taken[me]);
                }));
            }
            for (java.util.concurrent.Future<List<List<DiskWindow>>> r : runs) {
                assertThat(r.get()).isEqualTo(unshared);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(taken[0][0] + taken[1][0]).as("samples simulated by the two runs together").isEqualTo(3);
        assertThat(shared.size()).isEqualTo(3);
    }
}
