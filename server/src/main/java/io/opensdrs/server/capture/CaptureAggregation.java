package io.opensdrs.server.capture;

import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the stored per-disk windows say about one datastore cluster, folded one batch at a time so
 * that 16 hours of a large cluster's windows are never held at once: per disk and UTC hour of the
 * window's start, sums from which the workload's O, Z, R, X, IOPS and latency follow; per datastore
 * and window start, the datastore's IO, latency and outstanding IOs.
 *
 * <p><b>Placement changes.</b> A disk's windows name the datastore it was on. When a disk's window
 * names another datastore than its previous one, it has moved (a storage vMotion completes between
 * two windows): from that window's start on, both datastores carry another set of disks. Each
 * datastore's {@code currentSince} is the start of the first window after the newest such change, and
 * its "current placement" figures are taken over the windows from then on: a datastore's latency
 * before a move says little about the disks on it now.
 *
 * <p>Memory: a few doubles per disk and hour with windows, per datastore and window start, and the
 * previous datastore of every disk seen; the windows themselves are not kept. Not thread-safe.
 */
public final class CaptureAggregation {

    /** Sums over the windows of one disk in one hour of the day. */
    public static final class DiskHour {
        long windows;
        long activeWindows;
        double seconds;
        double activeSeconds;
        long ios;
        long reads;
        double bytes;
        double latencyIoSum;
        double oioSum;
        double oioActiveSum;
        double randomIoSum;
        long firstStartMs = Long.MAX_VALUE;
        long lastStartMs = Long.MIN_VALUE;

        void add(DiskWindowStats w) {
            windows++;
            seconds += w.getWindowSeconds();
            oioSum += w.getMeanOutstandingIos();
            firstStartMs = Math.min(firstStartMs, w.getWindowStartMs());
            lastStartMs = Math.max(lastStartMs, w.getWindowStartMs());
            long n = w.getIoCount() > 0 ? w.getIoCount() : w.getReads() + w.getWrites();
            if (n > 0) {
                activeWindows++;
                activeSeconds += w.getWindowSeconds();
                ios += n;
                reads += w.getReads();
                bytes += w.getBytesRead() + w.getBytesWritten();
                latencyIoSum += w.getMeanLatencyMs() * n;
                oioActiveSum += w.getMeanOutstandingIos();
                randomIoSum += w.getRandomness() * n;
            }
        }

        void addAll(DiskHour o) {
            windows += o.windows;
            activeWindows += o.activeWindows;
            seconds += o.seconds;
            activeSeconds += o.activeSeconds;
            ios += o.ios;
            reads += o.reads;
            bytes += o.bytes;
            latencyIoSum += o.latencyIoSum;
            oioSum += o.oioSum;
            oioActiveSum += o.oioActiveSum;
            randomIoSum += o.randomIoSum;
            firstStartMs = Math.min(firstStartMs, o.firstStartMs);
            lastStartMs = Math.max(lastStartMs, o.lastStartMs);
        }

        public CaptureViews.Workload view(Integer hour) {
            return new CaptureViews.Workload(hour, windows, activeWindows, ios,
                    windows == 0 ? 0 : oioSum / windows,
                    activeWindows == 0 ? 0 : oioActiveSum / activeWindows,
                    seconds == 0 ? 0 : ios / seconds,
                    activeSeconds == 0 ? 0 : ios / activeSeconds,
                    ios == 0 ? null : bytes / ios / 1024,
                    ios == 0 ? null : 100.0 * reads / ios,
                    ios == 0 ? null : 100.0 * randomIoSum / ios,
                    ios == 0 ? null : latencyIoSum / ios);
        }
    }

    /** One datastore's totals over the windows starting at one instant. */
    static final class DatastoreSlot {
        long ios;
        double latencyIoSum;
        double oioSum;
        long diskWindows;
        double seconds;
    }

    private final Set<String> datastores;
    private final Set<String> disks;
    private final Map<String, DiskHour[]> diskHours = new HashMap<>();
    private final Map<String, TreeMap<Long, DatastoreSlot>> slots = new HashMap<>();
    private final Map<String, String> previousDatastore = new HashMap<>();
    private final Map<String, Long> currentSince = new HashMap<>();
    private long windowsRead;
    private long windowsUsed;
    private long firstStartMs = Long.MAX_VALUE;
    private long lastStartMs = Long.MIN_VALUE;

    /**
     * @param datastores the cluster's datastore names: windows on these count for the datastores
     * @param disks the cluster's disks ({@code vm/diskKey}): their windows count for the disks,
     *     wherever the disk was
     */
    public CaptureAggregation(Set<String> datastores, Set<String> disks) {
        this(datastores, disks, Long.MIN_VALUE);
    }

    /** @param fromMs windows starting before this are read and left out */
    public CaptureAggregation(Set<String> datastores, Set<String> disks, long fromMs) {
        this.datastores = datastores;
        this.disks = disks;
        this.fromMs = fromMs;
    }

    private final long fromMs;

    public static String diskId(String vm, int diskKey) {
        return vm + "/" + diskKey;
    }

    /** Batches in the order they were stored (a disk's windows are stored oldest first). */
    public void add(DiskStatsBatch batch) {
        for (DiskWindowStats w : batch.getSamplesList()) {
            add(w);
        }
    }

    public void add(DiskWindowStats w) {
        windowsRead++;
        if (w.getWindowStartMs() < fromMs) {
            return;
        }
        String id = diskId(w.getVm(), w.getDiskKey());
        String ds = w.getDatastore();
        String before = previousDatastore.put(id, ds);
        if (before != null && !before.equals(ds)) {
            currentSince.merge(before, w.getWindowStartMs(), Math::max);
            currentSince.merge(ds, w.getWindowStartMs(), Math::max);
        }
        boolean mine = disks.contains(id);
        boolean onCluster = datastores.contains(ds);
        if (!mine && !onCluster) {
            return;
        }
        windowsUsed++;
        firstStartMs = Math.min(firstStartMs, w.getWindowStartMs());
        lastStartMs = Math.max(lastStartMs, w.getWindowStartMs());
        if (mine) {
            int hour = (int) Math.floorMod(Math.floorDiv(w.getWindowStartMs(), 3_600_000L), 24L);
            diskHours.computeIfAbsent(id, k -> new DiskHour[24]);
            DiskHour[] h = diskHours.get(id);
            if (h[hour] == null) {
                h[hour] = new DiskHour();
            }
            h[hour].add(w);
        }
        if (onCluster) {
            DatastoreSlot s = slots.computeIfAbsent(ds, k -> new TreeMap<>())
                    .computeIfAbsent(w.getWindowStartMs(), k -> new DatastoreSlot());
            long n = w.getIoCount() > 0 ? w.getIoCount() : w.getReads() + w.getWrites();
            s.ios += n;
            s.latencyIoSum += w.getMeanLatencyMs() * n;
            s.oioSum += w.getMeanOutstandingIos();
            s.diskWindows++;
            s.seconds = Math.max(s.seconds, w.getWindowSeconds());
        }
    }

    public long windowsRead() {
        return windowsRead;
    }

    public long windowsUsed() {
        return windowsUsed;
    }

    public Long firstWindowStartMs() {
        return windowsUsed == 0 ? null : firstStartMs;
    }

    public Long lastWindowStartMs() {
        return windowsUsed == 0 ? null : lastStartMs;
    }

    /** The disk's sums per hour of the day (null for an hour without windows); null when it has none. */
    public DiskHour[] hours(String diskId) {
        return diskHours.get(diskId);
    }

    /** The disk's sums over every hour. */
    public DiskHour total(String diskId) {
        DiskHour all = new DiskHour();
        DiskHour[] h = diskHours.get(diskId);
        if (h != null) {
            for (DiskHour x : h) {
                if (x != null) {
                    all.addAll(x);
                }
            }
        }
        return all;
    }

    /** Start of the first window after the datastore's newest placement change; null when none was seen. */
    public Long currentSinceMs(String datastore) {
        return currentSince.get(datastore);
    }

    /** What was measured on the datastore over the windows starting at or after {@code fromMs} (null: all). */
    public CaptureViews.Measured measured(String datastore, Long fromMs) {
        TreeMap<Long, DatastoreSlot> all = slots.get(datastore);
        if (all == null || all.isEmpty()) {
            return new CaptureViews.Measured(null, null, 0, 0, null, 0, 0);
        }
        Map<Long, DatastoreSlot> range = fromMs == null ? all : all.tailMap(fromMs, true);
        long ios = 0;
        double latency = 0;
        double oio = 0;
        double seconds = 0;
        long starts = 0;
        Long first = null;
        Long last = null;
        for (Map.Entry<Long, DatastoreSlot> e : range.entrySet()) {
            DatastoreSlot s = e.getValue();
            ios += s.ios;
            latency += s.latencyIoSum;
            oio += s.oioSum;
            seconds += s.seconds;
            starts++;
            first = first == null ? e.getKey() : first;
            last = e.getKey();
        }
        return new CaptureViews.Measured(first == null ? null : java.time.Instant.ofEpochMilli(first).toString(),
                last == null ? null : java.time.Instant.ofEpochMilli(last).toString(), starts, ios,
                ios == 0 ? null : latency / ios, starts == 0 ? 0 : oio / starts, seconds == 0 ? 0 : ios / seconds);
    }
}
