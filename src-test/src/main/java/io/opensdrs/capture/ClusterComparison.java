package io.opensdrs.capture;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.testbed.sim.VirtualClock;
import io.opensdrs.testbed.stats.DatastoreWindow;
import io.opensdrs.testbed.world.World;
import io.opensdrs.testbed.world.WorldRun;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A captured scenario run in the testbed beside what the server measured: each datastore's
 * IO-weighted mean latency over a run of the scenario ({@code sdrs testbed run}'s steady-state
 * method, from hour 0) against the server's over the windows since the datastore's newest placement
 * change (the capture's {@code current}).
 */
public final class ClusterComparison {

    /** One datastore: the server's mean latency, the testbed's, and testbed ÷ server. */
    public record Row(String datastore, Double serverMs, double serverOio, double serverIops, Double testbedMs,
                      double testbedOio, double testbedIops) {
        public Double ratio() {
            return serverMs == null || testbedMs == null || serverMs == 0 ? null : testbedMs / serverMs;
        }
    }

    public record Result(double hours, List<Row> rows) {
        public void print(PrintWriter o) {
            o.printf(Locale.ROOT, "testbed run of the captured scenario, %.1f simulated h (steady state), against the server:%n", hours);
            o.printf("%-24s %16s %12s %11s %16s %12s %11s %8s%n", "datastore", "server mean ms", "server OIO", "server IOPS",
                    "testbed mean ms", "testbed OIO", "testbed IOPS", "ratio");
            for (Row r : rows) {
                o.printf(Locale.ROOT, "%-24s %16s %12.2f %11.1f %16s %12.2f %11.1f %8s%n", r.datastore(), ms(r.serverMs()), r.serverOio(),
                        r.serverIops(), ms(r.testbedMs()), r.testbedOio(), r.testbedIops(),
                        r.ratio() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.ratio()));
            }
        }

        private static String ms(Double v) {
            return v == null ? "no IO" : String.format(Locale.ROOT, "%.2f", v);
        }
    }

    private ClusterComparison() {
    }

    /** Runs {@code scenario} (what {@code capture} became) for {@code hours} and compares. */
    public static Result compare(JsonNode capture, Scenario scenario, double hours)
            throws InterruptedException, io.opensdrs.scenario.InvalidScenarioException {
        World world = World.build(scenario);
        Map<String, double[]> acc = new LinkedHashMap<>(); // ios, latency × ios, oio sum, windows, seconds
        WorldRun.create(world, WorldRun.Method.STEADY_STATE, scenario.seed()).run(hours, new VirtualClock(), (start, disks, dss) -> {
            for (DatastoreWindow d : dss) {
                double[] a = acc.computeIfAbsent(d.datastore(), k -> new double[5]);
                a[0] += d.ios();
                a[1] += d.meanLatencyMs() * d.ios();
                a[2] += d.meanOutstanding();
                a[3]++;
                a[4] += d.seconds();
            }
        }, WorldRun.PlacementPolicy.NONE);
        CapturedScenario.Names names = new CapturedScenario.Names();
        List<Row> rows = new ArrayList<>();
        for (JsonNode d : capture.path("datastores")) {
            String name = names.of(d.path("name").asText());
            JsonNode cur = d.path("current");
            double[] a = acc.getOrDefault(name, new double[5]);
            rows.add(new Row(name, cur.path("meanLatencyMs").isNumber() ? cur.get("meanLatencyMs").asDouble() : null,
                    cur.path("meanOio").asDouble(), cur.path("iops").asDouble(),
                    a[0] == 0 ? null : a[1] / a[0], a[3] == 0 ? 0 : a[2] / a[3], a[4] == 0 ? 0 : a[0] / a[4]));
        }
        return new Result(hours, rows);
    }
}
