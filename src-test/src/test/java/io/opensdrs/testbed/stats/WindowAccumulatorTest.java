package io.opensdrs.testbed.stats;

import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.testbed.device.DeviceProfiles;
import io.opensdrs.testbed.device.IoRequest;
import io.opensdrs.testbed.device.StorageDevice;
import io.opensdrs.testbed.sim.Simulation;
import io.opensdrs.testbed.workload.DiskLocation;
import io.opensdrs.testbed.workload.IoObserver;
import io.opensdrs.testbed.workload.VirtualDiskWorkload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WindowAccumulatorTest {

    @Test
    void restartLeavesTheStateCloseLeaves() {
        Simulation sim = new Simulation();
        StorageDevice disk = DeviceProfiles.build(sim, DeviceProfiles.get(DeviceProfiles.HGST_7K2), 100L << 30, 1);
        WindowAccumulator closed = new WindowAccumulator("d", 0);
        WindowAccumulator restarted = new WindowAccumulator("d", 0);
        DiskLocation where = new DiskLocation("ds", disk, 0);
        new VirtualDiskWorkload(sim, "d", 10L << 30, new WorkloadSpec(4, 8.0, 70.0, 50.0, 0.0, null), () -> where, new IoObserver() {
            @Override
            public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
                closed.issued(now, diskOffset, sizeBytes, read);
                restarted.issued(now, diskOffset, sizeBytes, read);
            }

            @Override
            public void completed(double now, IoRequest io) {
                closed.completed(now, io);
                restarted.completed(now, io);
            }
        }, 3).start();
        sim.runUntil(5_000);
        // four IOs are outstanding across the boundary: the next window must count them as close would
        closed.close(sim.now(), "ds");
        restarted.restart(sim.now());
        sim.runUntil(8_000);
        DiskWindow after = closed.close(sim.now(), "ds");
        assertThat(after.ios()).isPositive();
        assertThat(restarted.close(sim.now(), "ds")).isEqualTo(after);
    }
}
