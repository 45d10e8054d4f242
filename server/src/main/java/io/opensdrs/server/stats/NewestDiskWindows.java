package io.opensdrs.server.stats;

import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each virtual disk's newest statistics window (20 s, read from vCenter's realtime counters), for
 * the SLEDS controller (SPEC §3.5): SLEDS §4.2 steps every second on periodic performance samples,
 * and a percentile over the shortest percentile window (an hour) would show a throttled stream its
 * old rate for most of that hour. Held in memory and fed only by batches as they are
 * accepted — not by the replay after a restart, whose windows are old — and only for the VMs the
 * controller {@link #watch watches} (those in a service class): a window of every disk of the
 * inventory would be memory and ingestion work for the few disks SLEDS controls.
 */
@Component
public class NewestDiskWindows {

    /**
     * A window's rates, its length and when the server received it (its clock; agents' and
     * testbeds' clocks may differ from it).
     */
    public record Window(long windowStartMs, int seconds, double iops, double bytesPerSecond, double meanLatencyMs, long receivedAtMs) {
    }

    private final ConcurrentHashMap<String, Window> newest = new ConcurrentHashMap<>();
    private final Clock clock;
    private volatile Set<String> watched = Set.of();

    public NewestDiskWindows(Clock clock) {
        this.clock = clock;
    }

    /**
     * The VMs (managed object ids, as the statistics name them) whose disks' windows are kept from
     * now on; the windows of VMs no longer watched are dropped.
     */
    public void watch(Set<String> vms) {
        if (vms.equals(watched)) {
            return;
        }
        watched = Set.copyOf(vms);
        newest.keySet().removeIf(diskId -> !watched.contains(diskId.substring(0, diskId.lastIndexOf('/'))));
    }

    /**
     * Keeps each watched disk's window with the latest start; an older window arriving late (from an
     * agent's buffer) does not replace it.
     */
    public void record(DiskStatsBatch batch) {
        Set<String> vms = watched;
        if (vms.isEmpty()) {
            return;
        }
        long now = clock.millis();
        for (DiskWindowStats s : batch.getSamplesList()) {
            if (s.getWindowSeconds() == 0 || !vms.contains(s.getVm())) {
                continue;
            }
            double seconds = s.getWindowSeconds();
            Window w = new Window(s.getWindowStartMs(), s.getWindowSeconds(), s.getIoCount() / seconds,
                    (s.getBytesRead() + s.getBytesWritten()) / seconds, s.getMeanLatencyMs(), now);
            newest.merge(WorkloadPercentiles.diskId(s.getVm(), s.getDiskKey()), w,
                    (old, fresh) -> fresh.windowStartMs() >= old.windowStartMs() ? fresh : old);
        }
    }

    /**
     * The disk's newest 20-s statistics window if it was received within {@code maxAge}: what SLO
     * compliance is recorded over (SLEDS §5 records over 10-s intervals, controls on seconds).
     */
    public Optional<Window> window(String diskId, Duration maxAge) {
        Window w = newest.get(diskId);
        return w != null && clock.millis() - w.receivedAtMs() <= maxAge.toMillis() ? Optional.of(w) : Optional.empty();
    }
}
