package io.opensdrs.server.stats.vcenter;

import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** One disk's 20-s sample of vCenter's virtualDisk counters as the window the server stores. */
class VirtualDiskCountersTest {

    static final VirtualDiskCounters.Disk DISK = new VirtualDiskCounters.Disk("vm-42", 2000, "[ds1] db/data.vmdk", "ds1");
    static final Instant END = Instant.parse("2026-11-27T10:00:20Z");

    static Map<String, Long> sample() {
        Map<String, Long> v = new HashMap<>();
        v.put(VirtualDiskCounters.READS, 150L);
        v.put(VirtualDiskCounters.WRITES, 50L);
        v.put(VirtualDiskCounters.READ_LATENCY_MS, 6L);
        v.put(VirtualDiskCounters.WRITE_LATENCY_MS, 2L);
        v.put(VirtualDiskCounters.READ_OIO, 1L);
        v.put(VirtualDiskCounters.WRITE_OIO, 0L);
        v.put(VirtualDiskCounters.READ_KBPS, 1200L);
        v.put(VirtualDiskCounters.WRITE_KBPS, 200L);
        v.put(VirtualDiskCounters.READ_IO_SIZE, 8192L);
        v.put(VirtualDiskCounters.WRITE_IO_SIZE, 4096L);
        v.put(VirtualDiskCounters.SMALL_SEEKS, 40L);
        v.put(VirtualDiskCounters.MEDIUM_SEEKS, 60L);
        v.put(VirtualDiskCounters.LARGE_SEEKS, 100L);
        return v;
    }

    @Test
    void aSampleBecomesTheSeedsWorkloadCharacteristics() {
        DiskWindowStats w = VirtualDiskCounters.window(DISK, END, 20, sample()).window();
        assertThat(w.getWindowStartMs()).isEqualTo(END.toEpochMilli() - 20_000);
        assertThat(w.getWindowSeconds()).isEqualTo(20);
        assertThat(w.getReads()).isEqualTo(3000);
        assertThat(w.getWrites()).isEqualTo(1000);
        assertThat(w.getIoCount()).isEqualTo(4000);
        assertThat(w.getMeanLatencyMs()).isCloseTo((3000 * 6 + 1000 * 2) / 4000.0, Offset.offset(1e-12));
        // O by Little's law per direction: 150/s × 6 ms + 50/s × 2 ms (the whole-number counters say 1 + 0)
        assertThat(w.getMeanOutstandingIos()).isCloseTo(0.9 + 0.1, Offset.offset(1e-12));
        assertThat(w.getBytesRead()).isEqualTo(1200L * 1024 * 20);
        assertThat(w.getMeanIoSizeKb()).isCloseTo((1200 + 200) * 20.0 / 4000, Offset.offset(1e-12));
        assertThat(w.getReadShare()).isEqualTo(0.75);
        assertThat(w.getRandomness()).as("(medium + large) / all seeks").isCloseTo(160 / 200.0, Offset.offset(1e-12));
    }

    @Test
    void microsecondLatenciesAreUsedWhenVCenterHasThem() {
        Map<String, Long> v = sample();
        v.put(VirtualDiskCounters.READ_LATENCY_MS, 0L); // a flash read of 0.35 ms is 0 in whole milliseconds
        v.put(VirtualDiskCounters.READ_LATENCY_US, 350L);
        v.put(VirtualDiskCounters.WRITE_LATENCY_US, 2000L);
        DiskWindowStats w = VirtualDiskCounters.window(DISK, END, 20, v).window();
        assertThat(w.getMeanLatencyMs()).isCloseTo((3000 * 0.35 + 1000 * 2.0) / 4000, Offset.offset(1e-12));
    }

    @Test
    void aDiskWithoutIoKeepsItsOioCountersAndAnEmptySeekHistogramIsRandom() {
        Map<String, Long> v = sample();
        v.put(VirtualDiskCounters.READS, 0L);
        v.put(VirtualDiskCounters.WRITES, 0L);
        DiskWindowStats idle = VirtualDiskCounters.window(DISK, END, 20, v).window();
        assertThat(idle.getIoCount()).isZero();
        assertThat(idle.getMeanOutstandingIos()).isEqualTo(1.0);
        assertThat(idle.getRandomness()).isZero();
        Map<String, Long> noHistogram = sample();
        noHistogram.put(VirtualDiskCounters.SMALL_SEEKS, 0L);
        noHistogram.put(VirtualDiskCounters.MEDIUM_SEEKS, 0L);
        noHistogram.put(VirtualDiskCounters.LARGE_SEEKS, 0L);
        assertThat(VirtualDiskCounters.window(DISK, END, 20, noHistogram).window().getRandomness()).isEqualTo(1.0);
    }

    @Test
    void aMissingOrNegativeValueIsAProblemNamingTheCounter() {
        Map<String, Long> missing = sample();
        missing.remove(VirtualDiskCounters.MEDIUM_SEEKS);
        VirtualDiskCounters.Mapped m = VirtualDiskCounters.window(DISK, END, 20, missing);
        assertThat(m.window()).isNull();
        assertThat(m.problem()).isEqualTo("no value of virtualDisk.mediumSeeks.latest");

        Map<String, Long> unknown = sample();
        unknown.put(VirtualDiskCounters.WRITES, -1L); // vCenter's "no value"
        assertThat(VirtualDiskCounters.window(DISK, END, 20, unknown).problem())
                .isEqualTo("no value of virtualDisk.numberWriteAveraged.average");

        Map<String, Long> negative = sample();
        negative.put(VirtualDiskCounters.READ_KBPS, -40L);
        assertThat(VirtualDiskCounters.window(DISK, END, 20, negative).problem())
                .isEqualTo("virtualDisk.read.average is -40, below zero");

        Map<String, Long> negativeOptional = sample();
        negativeOptional.put(VirtualDiskCounters.WRITE_LATENCY_US, -7L);
        assertThat(VirtualDiskCounters.window(DISK, END, 20, negativeOptional).problem())
                .isEqualTo("virtualDisk.writeLatencyUS.latest is -7, below zero");
    }
}
