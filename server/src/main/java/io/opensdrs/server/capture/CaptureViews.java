package io.opensdrs.server.capture;

import java.util.List;
import java.util.Map;

/** The shapes of {@code GET /api/v1/clusters/{id}/capture}: what the server has observed of a datastore cluster. */
public final class CaptureViews {

    private CaptureViews() {
    }

    /**
     * @param source the statistics source read ({@code vcenter})
     * @param windowsRead windows of every disk read from the raw store
     * @param windowsUsed of them, the cluster's (its disks' windows, wherever they were, and windows on its datastores)
     * @param firstWindow start of the oldest window used; null without any
     * @param lastWindow start of the newest window used
     */
    public record Capture(String clusterId, String clusterName, String capturedAt, String source, int windowSeconds,
                          String modelKind, long windowsRead, long windowsUsed, String firstWindow, String lastWindow,
                          List<Datastore> datastores, List<Host> hosts, List<Vm> vms, List<Rule> rules, List<String> notes) {
    }

    /**
     * @param thinProvisioned whether unallocated regions read as zeros; null: the inventory does not say
     * @param measured over every retained window on the datastore
     * @param current over the windows since the newest placement change (a disk arriving or leaving); the
     *     same as {@code measured} when none was seen
     * @param currentSince start of the first window after that change; null when none was seen
     */
    public record Datastore(String name, String id, long capacityBytes, long freeBytes, Boolean thinProvisioned,
                            boolean accessible, String maintenanceMode, Model model, Measured measured,
                            Measured current, String currentSince) {
    }

    /**
     * The model the cluster uses for the datastore, and its predictions for the host agent's injector
     * workload (random reads at 4 and 256 KiB, OIO 2 to 32), whatever its kind: what a testbed device
     * can be compared with; and what the newest valid injector run of each IO size measured (random reads,
     * the device alone: {@code injectorPoints}, at the OIO it measured), which a model refitted to the
     * datastore's own mix may no longer follow.
     */
    public record Model(String kind, String source, Map<String, Double> parameters, Double rSquared, String fittedAt,
                        List<Prediction> predictions, List<Prediction> injectorPoints) {
    }

    public record Prediction(double oio, double ioSizeKb, double readPct, double randomPct, Double latencyMs) {
    }

    /**
     * What the server measured on a datastore over a span of windows.
     *
     * @param windowStarts window starts (20-s intervals) with at least one disk window on it
     * @param meanLatencyMs IO-weighted mean latency; null without IO
     * @param meanOio mean over window starts of the sum of its disks' outstanding IOs
     * @param iops IO per second over those window starts
     */
    public record Measured(String from, String to, long windowStarts, long ios, Double meanLatencyMs, double meanOio, double iops) {
    }

    /** @param datastores the cluster's datastores the host mounts */
    public record Host(String id, String name, List<String> datastores) {
    }

    /** @param memoryMB null: the inventory does not keep it */
    public record Vm(String id, String name, String host, Integer memoryMB, boolean poweredOn, List<Disk> disks) {
    }

    /**
     * A virtual disk of the cluster.
     *
     * @param name the backing file's name without directory and {@code .vmdk}
     * @param overall the workload over every window of the disk
     * @param hours the workload per UTC hour of the window's start, hours with windows only
     */
    public record Disk(int key, String name, String file, long sizeBytes, String datastore, Workload overall,
                       List<Workload> hours) {
    }

    /**
     * A disk's measured workload over a set of windows (an hour of the day, or all).
     *
     * @param hour UTC hour of the windows' start; null for all windows
     * @param activeWindows windows with IO
     * @param oio mean outstanding IOs over every window (idle windows count 0)
     * @param oioActive mean outstanding IOs over the windows with IO
     * @param iops IO per second over every window
     * @param iopsActive IO per second over the windows with IO
     * @param ioSizeKb Z, IO-weighted; null without IO
     * @param readPct R in percent, IO-weighted
     * @param randomPct X in percent, IO-weighted
     * @param latencyMs the disk's IO-weighted mean latency
     */
    public record Workload(Integer hour, long windows, long activeWindows, long ios, double oio, double oioActive,
                           double iops, double iopsActive, Double ioSizeKb, Double readPct, Double randomPct, Double latencyMs) {
    }

    /** A Storage DRS rule as vCenter holds it (see {@code GET /clusters/{id}/rules}). */
    public record Rule(String kind, String name, boolean enabled, List<String> members) {
    }
}
