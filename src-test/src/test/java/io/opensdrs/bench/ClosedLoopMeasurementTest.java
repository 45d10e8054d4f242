package io.opensdrs.bench;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.testbed.world.Datastore;
import io.opensdrs.testbed.world.World;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ClosedLoopMeasurementTest {

    /**
     * Romano's E2 (6 × 15k RAID-5, 512 MB write-back cache): a 1,000-IO run of 64 KiB sequential
     * writes at 16 OIO used to finish inside the cache (0.19 ms per write); preconditioned, the
     * point measures the array destaging, as a datastore running that stream does.
     */
    @Test
    void writesOnAWriteBackCacheAreMeasuredAtTheArraysSteadyState() throws Exception {
        World world = World.build(ScenarioCatalog.example("romano-testbed"));
        Datastore e2 = world.datastores().stream().filter(d -> d.name().equals("E2")).findFirst().orElseThrow();
        ClosedLoopMeasurement bench = new ClosedLoopMeasurement(e2.profile(), e2.capacityBytes(), 800);
        Observation writes = bench.measure(new Workload(16, 64, 0, 0), 1);
        assertTrue(writes.latencyMs() > 20, "steady-state destage, got " + writes.latencyMs() + " ms");
        assertTrue(writes.iops() < 1_000, "destage-bound, got " + writes.iops() + " IOPS");
        // Reads are not preconditioned: a cache-friendly sequential read stays fast.
        Observation reads = bench.measure(new Workload(16, 4, 1, 0), 1);
        assertTrue(reads.latencyMs() < 2, "sequential reads, got " + reads.latencyMs() + " ms");
    }
}
