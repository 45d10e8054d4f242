package io.opensdrs.testbed.stats;

/**
 * One virtual disk's statistics over one window (20 s by default), as a hypervisor
 * measures them at the vSCSI layer (Pesto §5.2, Romano §4.1).
 *
 * @param randomness share of IOs whose start is farther than 10 × the window's mean IO
 *                   size from where the previous IO ended (Romano §4.1), 0..1
 */
public record DiskWindow(String disk, String datastore, double startMs, double seconds, long ios, long reads,
                         long writes, long bytesRead, long bytesWritten, double meanOutstanding,
                         double meanLatencyMs, double p50Ms, double p90Ms, double p99Ms, double meanIoSizeKB,
                         double readShare, double randomness) {
    public double iops() {
        return seconds <= 0 ? 0 : ios / seconds;
    }
}
