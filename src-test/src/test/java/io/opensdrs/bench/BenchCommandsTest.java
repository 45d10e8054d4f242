package io.opensdrs.bench;

import io.opensdrs.cli.SdrsRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `sdrs bench` lists every benchmark command; `sdrs bench b1|b2|b4v` refuse a bad option value
 * naming it, before measuring anything; B4v on a tiny world stores every sample it published.
 */
class BenchCommandsTest {

    /** Every benchmark of SPEC §8 that is a command is one of `sdrs bench`, in src-test. */
    @Test
    void benchListsEveryBenchmarkCommand() {
        SdrsRun r = SdrsRun.of("bench", "--help");
        assertThat(r.exit()).isZero();
        for (String b : List.of("b1", "b1q", "b2", "b3", "b4", "b4v", "b5", "b6")) {
            assertThat(r.out()).as(b).containsPattern("(?m)^\\s+" + b + "\\s");
        }
    }

    @Test
    void b2RefusesNegativeReferenceAndExhaustiveMoves() {
        SdrsRun exhaustive = SdrsRun.of("bench", "b2", "--exhaustive-moves", "-1");
        assertThat(exhaustive.exit()).isEqualTo(2);
        assertThat(exhaustive.err()).contains("error: --exhaustive-moves must be ≥ 0, was -1");
        assertThat(exhaustive.out()).isEmpty();
        SdrsRun greedy = SdrsRun.of("bench", "b2", "--reference-moves", "-2");
        assertThat(greedy.exit()).isEqualTo(2);
        assertThat(greedy.err()).contains("error: --reference-moves must be ≥ 0, was -2");
    }

    @Test
    void b2RefusesAnUnknownStrategyNamingTheKnownOnes() {
        SdrsRun r = SdrsRun.of("bench", "b2", "--strategy", "romano,bogus");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown strategy 'bogus' (--strategy); known: ").contains("romano");
    }

    @Test
    void b1RefusesTooFewIosPerPoint() {
        SdrsRun r = SdrsRun.of("bench", "b1", "--ios", "10");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("error: --ios must be ≥ 50");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void b1qRefusesBadValuesNamingTheOption() {
        SdrsRun ios = SdrsRun.of("bench", "b1q", "--ios", "10");
        assertThat(ios.exit()).isEqualTo(2);
        assertThat(ios.err()).contains("error: --ios must be ≥ 50, got 10");
        SdrsRun device = SdrsRun.of("bench", "b1q", "--devices", "no-such-disk");
        assertThat(device.exit()).isEqualTo(2);
        assertThat(device.err()).contains("--devices: unknown device profile no-such-disk");
        assertThat(device.out()).isEmpty();
    }

    @Test
    void b1qOnTheSsdPrintsEveryScenarioAndWritesEveryRun(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("b1q.csv");
        SdrsRun r = SdrsRun.of("bench", "b1q", "--devices", "intel-d3-s4610", "--ios", "60", "--interpolation", "1",
                "--threads", "1", "--csv", csv.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("interpolation", "more threads", "2 VMs", "3 VMs", "repeat floor",
                "goal queueing mean relative error ≤ 5 %");
        // per class: 1 interpolation + 8 more-threads + 6 + 6 VM runs, each scored by five models
        assertThat(Files.readAllLines(csv)).hasSize(1 + 4 * 21 * 5);
    }

    @Test
    void b1RefusesANegativeNumberOfMixes() {
        SdrsRun r = SdrsRun.of("bench", "b1", "--mixes", "-1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("error: --mixes must be between 0 and 4000, got -1");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void b4vRefusesBadValuesNamingTheOption() {
        for (List<String> bad : List.of(List.of("--disks", "0"), List.of("--periods", "0"), List.of("--period", "500ms"),
                List.of("--period", "soon"), List.of("--batch-size", "0"), List.of("--parallel-calls", "0"), List.of("--check-disks", "-1"))) {
            List<String> args = new java.util.ArrayList<>(List.of("bench", "b4v"));
            args.addAll(bad);
            SdrsRun r = SdrsRun.of(args.toArray(String[]::new));
            assertThat(r.exit()).as(String.join(" ", bad)).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", bad)).contains("error: " + bad.get(0));
            assertThat(r.out()).as(String.join(" ", bad)).isEmpty();
        }
        SdrsRun scenario = SdrsRun.of("bench", "b4v", "--scenario", "no-such-world");
        assertThat(scenario.exit()).isEqualTo(2);
        assertThat(scenario.err()).contains("no shipped scenario named 'no-such-world'");
    }

    /**
     * The demo's world grown to 30 disks (8 on generated VMs), vcsim and the server jar as processes,
     * two periods of 2 s: every disk's published sample is stored by the server and read back.
     */
    @Test
    void b4vOnATinyWorldStoresEveryPublishedSample(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("b4v.csv");
        // C1 only and a small heap: the server starts in a third of the time on a loaded 2-core machine
        SdrsRun r = SdrsRun.of("bench", "b4v", "--scenario", "demo", "--disks", "30", "--periods", "2", "--period", "2s",
                "--server-jvm", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx384m",
                "--work-dir", dir.resolve("work").toString(), "--csv", csv.toString());
        System.out.println(r.out());
        System.err.println(r.err());
        assertThat(r.exit()).as("exit code (1: a sample not stored)").isZero();
        assertThat(r.out()).contains("world: demo-b4v-30 — 30 disks").contains("3 generated with 3 disks each")
                .contains("goal ≤ 5 s per period: met").contains("every published sample stored")
                .contains("vcsim and the server stopped").doesNotContain("FAILED");
        assertThat(r.out().lines().filter(l -> l.matches("^(warm-up|1|2) .*")).toList()).hasSize(3)
                .allSatisfy(l -> assertThat(l).contains(" 30/30 ").contains(" 8/8 "));
        List<String> rows = Files.readAllLines(csv);
        assertThat(rows).hasSize(4);
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            assertThat(f[3]).as("windows expected").isEqualTo("30");
            assertThat(f[4]).as("windows stored by the server: " + row).isEqualTo("30");
            assertThat(f[12]).as("disks read back matching the sample").isEqualTo("8");
            assertThat(Double.parseDouble(f[9])).as("the server's read, s").isPositive().isLessThan(5);
            assertThat(Double.parseDouble(f[14])).as("server CPU over the period, s").isPositive();
        }
    }
}
