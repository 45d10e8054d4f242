package io.opensdrs.agent.vscsi;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.opensdrs.agent.heartbeat.HostIoStatistics;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.StreamSamples;
import io.opensdrs.shared.vscsi.v1.HostRequest;
import io.opensdrs.shared.vscsi.v1.HostStatsWindow;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * This host's per-virtual-disk statistics from the testbed's vSCSI service, one batch per 20-s
 * window (Pesto §5.2), as the hypervisor would give them. Each batch goes to the listeners (the
 * server session streams it); the host's last window per datastore also feeds the heartbeat
 * block ({@link #forDatastore}), so that idleness (Pesto §5.1.1) sees the VMs' IO.
 * While the server {@link #watch watches} streams, a second subscription brings every second of
 * the host's disks and passes the watched ones on (SLEDS §4.2: the controller steps every second).
 */
public final class VScsiStatsSource implements AutoCloseable {

    private final ManagedChannel channel;
    private final String host;
    private final List<Consumer<DiskStatsBatch>> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, double[]> perSecondByDatastore = new ConcurrentHashMap<>();
    private final Thread reader;
    private final List<Consumer<StreamSamples>> secondListeners = new CopyOnWriteArrayList<>();
    private final Thread secondsReader;
    /** "vm/disk_key" of the watched streams. */
    private volatile Set<String> watched = Set.of();
    private Context.CancellableContext secondsCall;
    private volatile boolean closed;
    private volatile long windows;

    public VScsiStatsSource(ManagedChannel channel, String host) {
        this.channel = channel;
        this.host = host;
        this.reader = new Thread(this::readLoop, "vscsi-stats-" + host);
        this.reader.setDaemon(true);
        this.secondsReader = new Thread(this::readSecondsLoop, "vscsi-seconds-" + host);
        this.secondsReader.setDaemon(true);
    }

    public VScsiStatsSource start() {
        reader.start();
        secondsReader.start();
        return this;
    }

    public void addListener(Consumer<DiskStatsBatch> l) {
        listeners.add(l);
    }

    /** Receives each second's samples of the watched streams (none while nothing is watched). */
    public void addSecondListener(Consumer<StreamSamples> l) {
        secondListeners.add(l);
    }

    /**
     * The streams (VM as the statistics name it, and disk key) whose seconds are wanted from now on;
     * empty ends the subscription.
     */
    public synchronized void watch(Set<String> vmDiskKeys) {
        watched = Set.copyOf(vmDiskKeys);
        if (watched.isEmpty() && secondsCall != null) {
            secondsCall.cancel(null);
        }
        notifyAll();
    }

    /** "vm/disk_key", as {@link #watch} takes it. */
    public static String streamOf(String vm, int diskKey) {
        return vm + "/" + diskKey;
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

    private void readSecondsLoop() {
        long backoffMs = 200;
        while (!closed) {
            Context.CancellableContext call;
            synchronized (this) {
                while (watched.isEmpty() && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                call = Context.current().withCancellation();
                secondsCall = call;
            }
            try {
                call.run(() -> {
                    Iterator<HostStatsWindow> it = VScsiGrpc.newBlockingStub(channel)
                            .streamHostSeconds(HostRequest.newBuilder().setHost(host).build());
                    while (it.hasNext()) {
                        acceptSecond(it.next());
                    }
                });
                backoffMs = 200;
            } catch (StatusRuntimeException e) {
                if (closed) {
                    return;
                }
            } finally {
                call.cancel(null);
            }
            if (watched.isEmpty()) {
                continue; // the watch ended the call: wait for the next one
            }
            try {
                Thread.sleep(backoffMs);
            } catch (InterruptedException e) {
                return;
            }
            backoffMs = Math.min(backoffMs * 2, 5_000);
        }
    }

    private void acceptSecond(HostStatsWindow w) {
        Set<String> want = watched;
        StreamSamples.Builder b = StreamSamples.newBuilder().setHost(host);
        for (DiskWindowStats s : w.getSamplesList()) {
            if (want.contains(streamOf(s.getVm(), s.getDiskKey()))) {
                b.addSamples(s);
            }
        }
        if (b.getSamplesCount() > 0) {
            StreamSamples samples = b.build();
            for (Consumer<StreamSamples> l : secondListeners) {
                l.accept(samples);
            }
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
        secondsReader.interrupt();
        synchronized (this) {
            if (secondsCall != null) {
                secondsCall.cancel(null);
            }
        }
    }
}
