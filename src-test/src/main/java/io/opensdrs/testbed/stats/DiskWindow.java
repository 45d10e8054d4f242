package io.opensdrs.testbed.stats;

/**
 * One virtual disk's statistics over one window (20 s by default), as a hypervisor
 * measures them at the vSCSI layer (Pesto §5.2, Romano §4.1), with what vCenter's virtualDisk
 * counters split by direction and its seek histogram.
 *
 * @param randomness share of IOs whose start is farther than 10 × the window's mean IO
 *                   size from where the previous IO ended (Romano §4.1), 0..1
 * @param smallSeeks IOs starting less than 64 LBNs (512-byte blocks) from where the previous ended
 * @param mediumSeeks 64 to 8,192 LBNs from it
 * @param largeSeeks more than 8,192 LBNs from it (the first IO of a disk counts here)
 */
public record DiskWindow(String disk, String datastore, double startMs, double seconds, long ios, long reads,
                         long writes, long bytesRead, long bytesWritten, double meanOutstanding,
                         double meanLatencyMs, double p50Ms, double p90Ms, double p99Ms, double meanIoSizeKB,
                         double readShare, double randomness, double readLatencyMs, double writeLatencyMs,
                         double readOutstanding, double writeOutstanding, long smallSeeks, long mediumSeeks,
                         long largeSeeks) {
    public double iops() {
        return seconds <= 0 ? 0 : ios / seconds;
    }
}
