package io.opensdrs.model.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PercentileTrackerTest {

    @Test
    void p2EstimatesTrackExponentialLatencyPercentilesPerDiskAndDatastore() {
        Random rnd = new Random(5);
        WorkloadStatistics stats = new WorkloadStatistics();
        for (int i = 0; i < 20_000; i++) {
            // Two disks on one datastore: exponential latencies with means 5 and 15 ms.
            stats.record("ds1", "disk-a", -5 * Math.log(1 - rnd.nextDouble()), 4, 100);
            stats.record("ds1", "disk-b", -15 * Math.log(1 - rnd.nextDouble()), 8, 50);
        }
        PercentileTracker a = stats.disk("disk-a", WorkloadStatistics.Metric.LATENCY_MS).orElseThrow();
        assertThat(a.percentile(50)).isCloseTo(5 * Math.log(2), within(0.1));
        assertThat(a.percentile(90)).isCloseTo(5 * Math.log(10), within(0.3));
        PercentileTracker ds = stats.datastore("ds1", WorkloadStatistics.Metric.LATENCY_MS).orElseThrow();
        assertThat(ds.count()).isEqualTo(40_000);
        assertThat(ds.percentile(50)).isBetween(a.percentile(50), 15 * Math.log(2));
        assertThat(stats.disk("disk-c", WorkloadStatistics.Metric.IOPS)).isEmpty();
    }
}
