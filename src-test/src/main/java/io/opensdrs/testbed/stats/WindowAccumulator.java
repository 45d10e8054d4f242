package io.opensdrs.testbed.stats;

import io.opensdrs.testbed.device.IoRequest;

import java.util.Arrays;

/**
 * Accumulates one virtual disk's IOs into hypervisor-style windows: IO count, time-averaged
 * outstanding IOs, mean and percentile latency, mean IO size, read share, and randomness as
 * the share of seeks longer than 10 × the mean IO size (Romano §4.1; the multiplier keeps
 * large sequential requests from counting as seeks); and per direction the mean latency and
 * outstanding IOs, and the seek distances in vCenter's three bins, as vCenter's virtualDisk
 * counters report them.
 */
public final class WindowAccumulator {
    private final String disk;
    private double windowStart;
    private long reads;
    private long writes;
    private long bytesRead;
    private long bytesWritten;
    private double latencySum;
    private double readLatencySum;
    private double writeLatencySum;
    private int readsOutstanding;
    private double readOutstandingArea;
    private double[] latencies = new double[256];
    private int completed;
    private double[] seeks = new double[256];
    private int issued;
    private long issuedBytes;
    private long lastEnd = -1;
    private int outstanding;
    private double outstandingArea;
    private double lastChange;

    public WindowAccumulator(String disk, double startMs) {
        this.disk = disk;
        this.windowStart = startMs;
        this.lastChange = startMs;
    }

    private void integrate(double now) {
        outstandingArea += outstanding * (now - lastChange);
        readOutstandingArea += readsOutstanding * (now - lastChange);
        lastChange = now;
    }

    public void issued(double now, long diskOffset, int sizeBytes, boolean read) {
        integrate(now);
        outstanding++;
        if (read) {
            readsOutstanding++;
        }
        if (issued == seeks.length) {
            seeks = Arrays.copyOf(seeks, issued * 2);
        }
        seeks[issued++] = lastEnd < 0 ? Double.POSITIVE_INFINITY : Math.abs(diskOffset - lastEnd);
        issuedBytes += sizeBytes;
        lastEnd = diskOffset + sizeBytes;
    }

    public void completed(double now, IoRequest io) {
        integrate(now);
        outstanding--;
        if (io.read()) {
            readsOutstanding--;
        }
        if (completed == latencies.length) {
            latencies = Arrays.copyOf(latencies, completed * 2);
        }
        double lat = io.latencyMs();
        latencies[completed++] = lat;
        latencySum += lat;
        if (io.read()) {
            reads++;
            bytesRead += io.sizeBytes();
            readLatencySum += lat;
        } else {
            writes++;
            bytesWritten += io.sizeBytes();
            writeLatencySum += lat;
        }
    }

    /** Closes the window at {@code now}, returns its statistics and starts the next window. */
    public DiskWindow close(double now, String datastore) {
        integrate(now);
        double seconds = (now - windowStart) / 1000.0;
        long ios = reads + writes;
        double meanSize = issued == 0 ? 0 : (double) issuedBytes / issued;
        int far = 0;
        long small = 0;
        long medium = 0;
        long large = 0;
        for (int i = 0; i < issued; i++) {
            if (seeks[i] > 10 * meanSize) {
                far++;
            }
            double lbns = seeks[i] / 512;
            if (lbns < 64) {
                small++;
            } else if (lbns <= 8192) {
                medium++;
            } else {
                large++;
            }
        }
        double span = now - windowStart;
        double[] sorted = Arrays.copyOf(latencies, completed);
        Arrays.sort(sorted);
        DiskWindow w = new DiskWindow(disk, datastore, windowStart, seconds, ios, reads, writes, bytesRead,
                bytesWritten, now > windowStart ? outstandingArea / (now - windowStart) : 0,
                ios == 0 ? 0 : latencySum / ios, percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99),
                ios == 0 ? 0 : (bytesRead + bytesWritten) / (double) ios / 1024.0,
                ios == 0 ? 0 : (double) reads / ios, issued == 0 ? 0 : (double) far / issued,
                reads == 0 ? 0 : readLatencySum / reads, writes == 0 ? 0 : writeLatencySum / writes,
                span > 0 ? readOutstandingArea / span : 0, span > 0 ? (outstandingArea - readOutstandingArea) / span : 0,
                small, medium, large);
        startWindow(now);
        return w;
    }

    /**
     * Starts the next window at {@code now} and drops the current one unread — the state
     * {@link #close} leaves, without sorting the window's latencies for statistics nobody reads
     * (a steady-state sample's warm-up holds hundreds of thousands of IOs).
     */
    public void restart(double now) {
        integrate(now);
        startWindow(now);
    }

    private void startWindow(double now) {
        windowStart = now;
        reads = writes = bytesRead = bytesWritten = 0;
        latencySum = 0;
        readLatencySum = 0;
        writeLatencySum = 0;
        readOutstandingArea = 0;
        completed = 0;
        issued = 0;
        issuedBytes = 0;
        outstandingArea = 0;
    }

    static double percentile(double[] sorted, double pct) {
        if (sorted.length == 0) {
            return 0;
        }
        int idx = (int) Math.ceil(pct / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }
}
