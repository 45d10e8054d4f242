package io.opensdrs.agent.vscsi;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.vscsi.v1.HostRequest;
import io.opensdrs.shared.vscsi.v1.HostStatsWindow;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * This host's per-virtual-disk statistics from the testbed's vSCSI service, one batch per 20-s
 * window (Pesto §5.2), as the hypervisor would give them. Each batch goes to the listeners (the
 * server session streams it); the host's last window per datastore also feeds the heartbeat
 * block ({@link #forDatastore}), so that idleness (Pesto §5.1.1) sees the VMs' IO.
 */
public final class VScsiStatsSource implements AutoCloseable {

    private final ManagedChannel channel;
    private final String host;
    private final List<Consumer<DiskStatsBatch>> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, double[]> perSecondByDatastore = new ConcurrentHashMap<>();
    private final Thread reader;
    private volatile boolean closed;
    private volatile long windows;

    public VScsiStatsSource(ManagedChannel channel, String host) {
        this.channel = channel;
        this.host = host;
        this.reader = new Thread(this::readLoop, "vscsi-stats-" + host);
        this.reader.setDaemon(true);
    }

    public VScsiStatsSource start() {
        reader.start();
        return this;
    }

    public void addListener(Consumer<DiskStatsBatch> l) {
        listeners.add(l);
    }

    /** Windows received so far. */
    public long windows() {
        return windows;
    }

    /**
     * The host's IO to one datastore per heartbeat {@code period}, from the last 20-s window: IO
     * count scaled to the period, OIO summed over the disks, latency weighted by IOs.
     */
    public HostIoStatistics forDatastore(String datastore, Duration period) {
        return () -> {
            double[] v = perSecondByDatastore.get(datastore); // IOs per second, OIO, latency
            if (v == null) {
                return HostIoStatistics.PeriodStats.ZERO;
            }
            return new HostIoStatistics.PeriodStats(Math.round(v[0] * period.toMillis() / 1000.0), v[1], v[2]);
        };
    }

    private void readLoop() {
        long backoffMs = 200;
        while (!closed) {
            try {
                Iterator<HostStatsWindow> it = VScsiGrpc.newBlockingStub(channel)
                        .streamHostStats(HostRequest.newBuilder().setHost(host).build());
                while (it.hasNext()) {
                    accept(it.next());
                    backoffMs = 200;
                }
            } catch (StatusRuntimeException e) {
                if (closed) {
                    return;
                }
            }
            try {
                Thread.sleep(backoffMs);
            } catch (InterruptedException e) {
                return;
            }
            backoffMs = Math.min(backoffMs * 2, 5_000);
        }
    }

    private void accept(HostStatsWindow w) {
        windows++;
        Map<String, double[]> sums = new java.util.HashMap<>(); // ios, oio, latency x ios, seconds
        for (DiskWindowStats s : w.getSamplesList()) {
            double[] a = sums.computeIfAbsent(s.getDatastore(), k -> new double[4]);
            a[0] += s.getIoCount();
            a[1] += s.getMeanOutstandingIos();
            a[2] += s.getMeanLatencyMs() * s.getIoCount();
            a[3] = Math.max(a[3], s.getWindowSeconds());
        }
        for (String ds : perSecondByDatastore.keySet()) {
            sums.computeIfAbsent(ds, k -> new double[4]); // a datastore the host no longer uses: idle
        }
        sums.forEach((ds, a) -> perSecondByDatastore.put(ds,
                new double[] {a[3] > 0 ? a[0] / a[3] : 0, a[1], a[0] > 0 ? a[2] / a[0] : 0}));
        if (w.getSamplesCount() > 0) {
            DiskStatsBatch batch = DiskStatsBatch.newBuilder().setHost(host).addAllSamples(w.getSamplesList()).build();
            for (Consumer<DiskStatsBatch> l : listeners) {
                l.accept(batch);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
    }
}
