package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.PerfCounter;
import io.opensdrs.server.vsphere.PerfQuery;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PerformanceTypes;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** QueryPerf's question and the counters' names as the server asks and reads them. */
class PerformanceManagerTest {

    @Test
    void aQueryAsksEveryInstanceInTheRealtimeIntervalInCsv() {
        PerformanceTypes.PerfQuerySpec spec = PerformanceManager.spec(new PerfQuery("VirtualMachine", "vm-42", List.of(171, 175),
                Instant.parse("2026-11-27T10:00:20Z"), 15));
        assertThat(spec.entity).isEqualTo(new ManagedObjectReference("VirtualMachine", "vm-42"));
        assertThat(spec.startTime).isEqualTo("2026-11-27T10:00:20Z");
        assertThat(spec.endTime).isNull();
        assertThat(spec.maxSample).isEqualTo(15);
        assertThat(spec.intervalId).isEqualTo(20);
        assertThat(spec.format).isEqualTo("csv");
        assertThat(spec.metricId).extracting(m -> m.counterId + "/" + m.instance).containsExactly("171/*", "175/*");

        assertThat(PerformanceManager.spec(new PerfQuery("HostSystem", "host-21", List.of(171), null, 1)).startTime)
                .as("no start: the newest maxSample samples").isNull();
    }

    @Test
    void aCounterIsNamedGroupNameRollupAndOneWithoutANameIsLeftOut() {
        PerformanceTypes.PerfCounterInfo c = new PerformanceTypes.PerfCounterInfo();
        c.key = 171;
        c.groupInfo = description("virtualDisk");
        c.nameInfo = description("readOIO");
        c.rollupType = "latest";
        c.statsType = "absolute";
        assertThat(PerformanceManager.counter(c)).isEqualTo(new PerfCounter(171, "virtualDisk.readOIO.latest", "", "absolute"));
        c.unitInfo = description("number");
        assertThat(PerformanceManager.counter(c).unit()).isEqualTo("number");
        c.rollupType = null;
        assertThat(PerformanceManager.counter(c)).isNull();
    }

    private static PerformanceTypes.ElementDescription description(String key) {
        PerformanceTypes.ElementDescription d = new PerformanceTypes.ElementDescription();
        d.key = key;
        return d;
    }
}
