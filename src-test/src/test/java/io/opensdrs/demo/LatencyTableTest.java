package io.opensdrs.demo;

import io.opensdrs.loop.MeasuredLatency.DatastoreLatency;
import io.opensdrs.scenario.DatastoreClusterSpec;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyTableTest {

    private static Map<String, DatastoreLatency> measured(double ssdP90, int ssdDisks, double arrayP90, int arrayDisks) {
        Map<String, DatastoreLatency> m = new LinkedHashMap<>();
        m.put("gold-ssd1", new DatastoreLatency("gold-ssd1", ssdDisks, Double.isNaN(ssdP90) ? 0 : 1000, ssdP90 / 2, ssdP90));
        m.put("gold-7k1", new DatastoreLatency("gold-7k1", arrayDisks, 5000, arrayP90 / 3, arrayP90));
        return m;
    }

    @Test
    void everyMeasurementSoFarIsAColumnGroupAndEachClustersWorstP90IsJudgedAgainstTheThreshold() {
        String table = LatencyTable.render(List.of("before", "after run 1", "after run 2"),
                List.of(measured(Double.NaN, 0, 94.33, 14), measured(0.35, 6, 28.64, 8), measured(0.5, 12, 12.0, 2)),
                List.of(new DatastoreClusterSpec("gold", List.of("gold-ssd1", "gold-7k1"))), 15);
        List<String> lines = table.lines().toList();
        assertThat(lines.get(1)).contains("| before", "| after run 1", "| after run 2");
        // an idle datastore reads idle, never a latency of 0.00
        assertThat(lines.get(3)).isEqualTo("gold-ssd1      |    idle    idle     0 |    0.18    0.35     6 |    0.25    0.50    12");
        assertThat(lines.get(4)).startsWith("gold-7k1       |   31.44   94.33    14 |");
        assertThat(lines.get(5)).isEqualTo("cluster gold: worst p90 94.33 → 28.64 → 12.00 ms (under the 15 ms threshold after run 2)");
    }

    @Test
    void aClusterStillOverTheThresholdSaysSo() {
        String table = LatencyTable.render(List.of("before", "after run 1"),
                List.of(measured(Double.NaN, 0, 94.33, 14), measured(0.35, 6, 28.64, 8)),
                List.of(new DatastoreClusterSpec("gold", List.of("gold-ssd1", "gold-7k1"))), 15);
        assertThat(table).contains("cluster gold: worst p90 94.33 → 28.64 ms (over the 15 ms threshold after run 1)");
    }
}
