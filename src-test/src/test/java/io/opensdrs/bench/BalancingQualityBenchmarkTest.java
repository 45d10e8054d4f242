package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.cli.SdrsCommand;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.ScenarioCatalog;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** B2 on three worlds: the table is produced, its counts add up, and auto's quality does not fall below a guard. */
class BalancingQualityBenchmarkTest {

    @Test
    void tinyB2ProducesAConsistentTable() throws Exception {
        List<DatastoreSpec> romano = ScenarioCatalog.example("romano-testbed").datastores();
        List<BalancingQualityBenchmark.GroupedWorld> worlds = List.of(
                new BalancingQualityBenchmark.GroupedWorld("pesto-like", BalancingWorlds.pestoLike(11)),
                new BalancingQualityBenchmark.GroupedWorld("romano-like", BalancingWorlds.romanoLike(12, romano)),
                new BalancingQualityBenchmark.GroupedWorld("romano-like", BalancingWorlds.romanoLike(13, romano)));
        List<String> strategies = List.of("basil", "pesto", "romano", BalancingTrial.AUTO, "space-only", "latency-greedy");
        ExecutorService executor = Executors.newFixedThreadPool(2);
        BalancingQualityBenchmark.Result r;
        try {
            r = new BalancingQualityBenchmark(strategies, BalancingSettings.defaults(), 5, 200, 1, 1, Set.of("romano-like"))
                    .run(worlds, executor);
        } finally {
            executor.shutdownNow();
        }
        assertEquals(18 + 2 + 8, r.outcomes().size(),
                "each strategy on each world, the measured reference and the four exhaustive rows on the Romano-like ones");
        assertEquals(12 + 1 + 4, r.rows().size(), "one row per group and strategy, and the references'");
        Set<String> seen = new HashSet<>();
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            seen.add(row.strategy());
            int inGroup = row.group().equals("pesto-like") ? 1 : 2;
            assertEquals(inGroup, row.worlds() + row.unsettled(), row.toString());
            assertTrue(row.worseOver10() <= row.worseAny() && row.worseAny() <= row.worlds(), row.toString());
            assertTrue(row.worse() <= row.worlds(), row.toString());
            // a captured share only where the group has the measured reference, which captures all of its own gain
            if (!row.group().equals("romano-like")) {
                assertTrue(Double.isNaN(row.captured()), row.toString());
            } else if (row.strategy().equals(MeasuredGreedyReference.NAME) && !Double.isNaN(row.captured())) {
                assertEquals(1.0, row.captured(), 1e-9, row.toString());
            }
            assertTrue(row.worsePerIo() <= row.worlds(), row.toString());
            assertTrue(row.movesMean() >= 0 && row.movesMean() <= row.movesMax(), row.toString());
            assertTrue(row.worseAnyShare() >= 0 && row.worseAnyShare() <= 1);
        }
        // Issue 41's goals guarded on these fixed worlds, so that a change that costs balancing quality fails here and not
        // only in the benchmark: auto makes no world worse and keeps most of the reference's per-IO gain on Romano's
        // arrays; romano itself keeps part of it (the values measured and the margins: src-test README, B2)
        for (BalancingQualityBenchmark.Row row : r.rows()) {
            if (row.strategy().equals(BalancingTrial.AUTO)) {
                assertEquals(0, row.worse(), "auto makes no world worse: " + row);
            }
        }
        assertTrue(row(r, "romano-like", BalancingTrial.AUTO).captured() >= 0.6, row(r, "romano-like", BalancingTrial.AUTO).toString());
        assertTrue(row(r, "romano-like", "romano").captured() >= 0.4, row(r, "romano-like", "romano").toString());
        Set<String> expected = new HashSet<>(strategies);
        expected.addAll(List.of(MeasuredGreedyReference.NAME, MeasuredExhaustiveReference.BEST_PER_IO,
                MeasuredExhaustiveReference.BEST_MEAN, MeasuredExhaustiveReference.BEST_MAX,
                MeasuredExhaustiveReference.BEST_VARIANCE));
        assertEquals(expected, seen);
        for (BalancingTrial.Outcome greedy : r.outcomes()) {
            if (greedy.strategy().equals(MeasuredGreedyReference.NAME)) {
                // With one move the exhaustive search measures the greedy reference's candidates too: the
                // same best per-IO latency under the same guard, and nothing better by mean, max or variance is missed.
                for (BalancingTrial.Outcome o : r.outcomes()) {
                    if (o.world().equals(greedy.world())) {
                        switch (o.strategy()) {
                            case MeasuredExhaustiveReference.BEST_PER_IO ->
                                    assertEquals(greedy.after().perIoMeanMs(), o.after().perIoMeanMs(), 1e-9);
                            case MeasuredExhaustiveReference.BEST_MEAN -> assertTrue(o.after().mean() <= greedy.after().mean() + 1e-9
                                    && o.after().mean() <= o.before().mean() + 1e-9, o.toString());
                            case MeasuredExhaustiveReference.BEST_MAX -> assertTrue(o.after().max() <= greedy.after().max() + 1e-9
                                    && o.after().max() <= o.before().max() + 1e-9, o.toString());
                            case MeasuredExhaustiveReference.BEST_VARIANCE -> assertTrue(
                                    o.after().variance() <= greedy.after().variance() + 1e-9, o.toString());
                            default -> { }
                        }
                    }
                }
            }
        }
        for (BalancingTrial.Outcome o : r.outcomes()) {
            assertTrue(o.before().byDatastore().size() >= 1, o.toString());
            assertTrue(o.before().max() >= o.before().mean() && o.before().variance() >= 0, o.toString());
            if (o.moves() == 0) {
                assertEquals(o.before(), o.after(), "no move, same steady state");
            }
            if (o.strategy().equals(MeasuredGreedyReference.NAME)) {
                assertTrue(o.group().equals("romano-like") && o.moves() <= 1, o.toString());
                assertTrue(o.after().perIoMeanMs() <= o.before().perIoMeanMs(), "the reference moves only to lower per-IO latency: " + o);
                assertFalse(DatastoreLatencies.worse(o.before(), o.after()), "the reference never makes a world worse: " + o);
            }
            assertEquals(o.moves(), o.plan().stream().filter(m -> !m.startsWith("note: ")).count(),
                    "the plan lists each move: " + o.plan());
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        B2Command.print(r, new PrintStream(buf, true, StandardCharsets.UTF_8));
        String table = buf.toString(StandardCharsets.UTF_8);
        for (String s : strategies) {
            assertTrue(table.contains(s), table);
        }
        assertTrue(table.contains("bound (romano-like): every placement within 1 single-VM move measured"), table);
    }

    private static BalancingQualityBenchmark.Row row(BalancingQualityBenchmark.Result r, String group, String strategy) {
        return r.rows().stream().filter(x -> x.group().equals(group) && x.strategy().equals(strategy)).findFirst().orElseThrow();
    }

    /** Pesto Table 2's initial setups: the same VMs, disks and workloads, only placed differently. */
    @Test
    void pestoTable2SetupsReplaceTheSameWorld() throws Exception {
        io.opensdrs.scenario.Scenario random = BalancingWorlds.pestoLike(10_007);
        io.opensdrs.scenario.Scenario space = BalancingWorlds.spaceBalanced(random);
        io.opensdrs.scenario.Scenario ioBalanced = new BalancingTrial(new InjectorObservations(200, 5, null), BalancingSettings.defaults())
                .ioBalanced(random);
        assertEquals("pesto-space-10007", space.name());
        assertEquals("pesto-io-10007", ioBalanced.name());
        for (io.opensdrs.scenario.Scenario s : List.of(space, ioBalanced)) {
            assertEquals(random.vms().size(), s.vms().size());
            for (int v = 0; v < random.vms().size(); v++) {
                var before = random.vms().get(v);
                var after = s.vms().get(v);
                assertEquals(before.name(), after.name());
                assertEquals(1, after.disks().stream().map(io.opensdrs.scenario.DiskSpec::datastore).distinct().count(),
                        "a VM's disks start together: " + after);
                for (int d = 0; d < before.disks().size(); d++) {
                    assertEquals(before.disks().get(d).workload(), after.disks().get(d).workload());
                    assertEquals(before.disks().get(d).sizeGB(), after.disks().get(d).sizeGB());
                }
            }
        }
        // Space balanced: no datastore's utilization exceeds another's by more than the largest VM.
        java.util.Map<String, Double> used = new java.util.HashMap<>();
        double largest = 0;
        for (var vm : space.vms()) {
            double gb = vm.disks().stream().mapToDouble(io.opensdrs.scenario.DiskSpec::sizeGB).sum();
            largest = Math.max(largest, gb);
            used.merge(vm.disks().get(0).datastore(), gb, Double::sum);
        }
        double lo = Double.MAX_VALUE, hi = 0;
        for (var ds : space.datastores()) {
            double u = used.getOrDefault(ds.name(), 0.0) / ds.capacityGB();
            lo = Math.min(lo, u);
            hi = Math.max(hi, u);
        }
        double smallest = space.datastores().stream().mapToDouble(io.opensdrs.scenario.DatastoreSpec::capacityGB).min().orElseThrow();
        assertTrue(hi - lo <= largest / smallest + 1e-9, "utilization " + lo + " … " + hi);
    }

    @Test
    void b1AndB2AreSubcommandsOfBench() {
        var bench = SdrsCommand.commandLine().getSubcommands().get("bench").getSubcommands();
        assertTrue(bench.containsKey("b1") && bench.containsKey("b2") && bench.containsKey("b3"), bench.keySet().toString());
    }
}
