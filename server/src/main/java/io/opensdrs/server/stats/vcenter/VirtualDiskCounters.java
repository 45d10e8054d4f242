package io.opensdrs.server.stats.vcenter;

import io.opensdrs.shared.agent.v1.DiskWindowStats;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The realtime {@code virtualDisk} counters vCenter keeps for every disk of a running VM (one
 * sample per 20-s interval, instance {@code scsi0:1}), and how one sample becomes the per-disk
 * window the rest of the server works on: the seeds' O, Z, R and X (Romano §4.1, Pesto §5.2),
 * latency and IO counts. Units and rollups as vSphere documents them:
 *
 * <ul>
 *   <li>{@code numberReadAveraged.average}, {@code numberWriteAveraged.average}: commands per second,
 *       averaged over the interval;</li>
 *   <li>{@code totalReadLatency.average}, {@code totalWriteLatency.average}: milliseconds per command, as
 *       the guest sees it (integers); {@code readLatencyUS.latest}, {@code writeLatencyUS.latest}: the
 *       same in microseconds, used when vCenter has them, since a flash device's 0.3 ms reads 0 in whole
 *       milliseconds;</li>
 *   <li>{@code readOIO.latest}, {@code writeOIO.latest}: outstanding commands, a whole number;</li>
 *   <li>{@code read.average}, {@code write.average}: KB per second; {@code readIOSize.latest},
 *       {@code writeIOSize.latest}: bytes per command;</li>
 *   <li>{@code smallSeeks.latest}, {@code mediumSeeks.latest}, {@code largeSeeks.latest}: commands whose
 *       start lies less than 64, 64 to 8,192, and more than 8,192 LBNs (512-byte blocks) from where the
 *       previous command ended, in the interval.</li>
 * </ul>
 *
 * <p>Mapping: reads = read rate × interval, likewise writes. The outstanding IOs O are Little's law per
 * direction, O = X_read·L_read + X_write·L_write: the OIO counters are whole numbers, and a disk
 * keeping 0.4 commands outstanding would read 0. Where a direction has no commands its counter stands.
 * IO size Z = bytes ÷ commands from the KB/s rates. Read share R = reads ÷ commands. Randomness X is
 * the share of seeks of 64 LBNs (32 KiB) or more, (medium + large) ÷ all: Romano §4.1 counts a seek
 * farther than 10 × the mean IO size as random, which for the 4–8 KiB IOs of random workloads is
 * 40–80 KiB, the histogram's first boundary; a disk with IO but an empty histogram (vCenter keeps it only
 * while its statistics level collects it) is taken as random, the seeds' assumption for an unknown
 * workload (Pesto's injector runs random reads). Latency percentiles are not in these counters: the
 * window carries the mean only, and percentiles are taken over windows ({@code WorkloadPercentiles}).
 */
public final class VirtualDiskCounters {
    public static final String READS = "virtualDisk.numberReadAveraged.average";
    public static final String WRITES = "virtualDisk.numberWriteAveraged.average";
    public static final String READ_LATENCY_MS = "virtualDisk.totalReadLatency.average";
    public static final String WRITE_LATENCY_MS = "virtualDisk.totalWriteLatency.average";
    public static final String READ_OIO = "virtualDisk.readOIO.latest";
    public static final String WRITE_OIO = "virtualDisk.writeOIO.latest";
    public static final String READ_KBPS = "virtualDisk.read.average";
    public static final String WRITE_KBPS = "virtualDisk.write.average";
    public static final String READ_IO_SIZE = "virtualDisk.readIOSize.latest";
    public static final String WRITE_IO_SIZE = "virtualDisk.writeIOSize.latest";
    public static final String SMALL_SEEKS = "virtualDisk.smallSeeks.latest";
    public static final String MEDIUM_SEEKS = "virtualDisk.mediumSeeks.latest";
    public static final String LARGE_SEEKS = "virtualDisk.largeSeeks.latest";
    public static final String READ_LATENCY_US = "virtualDisk.readLatencyUS.latest";
    public static final String WRITE_LATENCY_US = "virtualDisk.writeLatencyUS.latest";

    /** Without any of these a disk's window cannot be built: their absence is a fault naming them. */
    public static final List<String> REQUIRED = List.of(READS, WRITES, READ_LATENCY_MS, WRITE_LATENCY_MS, READ_OIO,
            WRITE_OIO, READ_KBPS, WRITE_KBPS, READ_IO_SIZE, WRITE_IO_SIZE, SMALL_SEEKS, MEDIUM_SEEKS, LARGE_SEEKS);
    /** Finer latency, read when vCenter has them. */
    public static final List<String> OPTIONAL = List.of(READ_LATENCY_US, WRITE_LATENCY_US);

    /** vCenter's value for a sample it does not have. */
    static final long MISSING = -1;

    private VirtualDiskCounters() {
    }

    /** A disk of the inventory, as a window names it. */
    public record Disk(String vmId, int diskKey, String fileName, String datastoreName) {
    }

    /** A sample that could be mapped ({@code window}) or why not ({@code problem}, naming the counter). */
    public record Mapped(DiskWindowStats window, String problem) {
        static Mapped problem(String why) {
            return new Mapped(null, why);
        }
    }

    /**
     * One disk's sample ending at {@code end}: {@code values} maps counter names to vCenter's integer
     * values ({@link #MISSING} or absent when vCenter has none).
     */
    public static Mapped window(Disk disk, Instant end, int intervalSeconds, Map<String, Long> values) {
        for (String name : REQUIRED) {
            Long v = values.get(name);
            if (v == null || v == MISSING) {
                return Mapped.problem("no value of " + name);
            }
            if (v < 0) {
                return Mapped.problem(name + " is " + v + ", below zero");
            }
        }
        for (String name : OPTIONAL) {
            Long v = values.get(name);
            if (v != null && v < MISSING) {
                return Mapped.problem(name + " is " + v + ", below zero");
            }
        }
        double readRate = values.get(READS);
        double writeRate = values.get(WRITES);
        double readMs = latencyMs(values, READ_LATENCY_US, READ_LATENCY_MS);
        double writeMs = latencyMs(values, WRITE_LATENCY_US, WRITE_LATENCY_MS);
        long reads = Math.round(readRate * intervalSeconds);
        long writes = Math.round(writeRate * intervalSeconds);
        long ios = reads + writes;
        double oio = (readRate > 0 ? readRate * readMs / 1000 : values.get(READ_OIO))
                + (writeRate > 0 ? writeRate * writeMs / 1000 : values.get(WRITE_OIO));
        long bytesRead = bytes(values.get(READ_KBPS), intervalSeconds, reads, values.get(READ_IO_SIZE));
        long bytesWritten = bytes(values.get(WRITE_KBPS), intervalSeconds, writes, values.get(WRITE_IO_SIZE));
        long small = values.get(SMALL_SEEKS);
        long far = values.get(MEDIUM_SEEKS) + values.get(LARGE_SEEKS);
        double randomness = ios == 0 ? 0 : small + far == 0 ? 1 : (double) far / (small + far);
        DiskWindowStats w = DiskWindowStats.newBuilder()
                .setVm(disk.vmId()).setDiskKey(disk.diskKey()).setDiskFile(disk.fileName()).setDatastore(disk.datastoreName())
                .setWindowStartMs(end.toEpochMilli() - intervalSeconds * 1000L).setWindowSeconds(intervalSeconds)
                .setIoCount(ios).setReads(reads).setWrites(writes).setBytesRead(bytesRead).setBytesWritten(bytesWritten)
                .setMeanOutstandingIos(oio)
                .setMeanLatencyMs(ios == 0 ? 0 : (reads * readMs + writes * writeMs) / ios)
                .setMeanIoSizeKb(ios == 0 ? 0 : (bytesRead + bytesWritten) / (double) ios / 1024)
                .setReadShare(ios == 0 ? 0 : (double) reads / ios)
                .setRandomness(randomness)
                .build();
        return new Mapped(w, null);
    }

    private static double latencyMs(Map<String, Long> values, String micros, String millis) {
        Long us = values.get(micros);
        return us != null && us >= 0 ? us / 1000.0 : values.get(millis);
    }

    /** KB/s over the interval; where the rate rounds to 0 KB/s but commands ran, their size in bytes. */
    private static long bytes(long kbPerSecond, int intervalSeconds, long commands, long ioSizeBytes) {
        long fromRate = kbPerSecond * 1024L * intervalSeconds;
        return fromRate > 0 || commands == 0 ? fromRate : commands * ioSizeBytes;
    }
}
