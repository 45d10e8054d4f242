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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

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
    /** Each stream's open call: cancelled on close, the seconds' also when the watch is emptied. */
    private final AtomicReference<Context.CancellableContext> windowsCall = new AtomicReference<>();
    private final AtomicReference<Context.CancellableContext> secondsCall = new AtomicReference<>();
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
        if (watched.isEmpty()) {
            cancel(secondsCall);
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
        follow(stub -> stub.streamHostStats(HostRequest.newBuilder().setHost(host).build()), this::accept, () -> true, windowsCall);
    }

    private void readSecondsLoop() {
        follow(stub -> stub.streamHostSeconds(HostRequest.newBuilder().setHost(host).build()), this::acceptSecond,
                () -> !watched.isEmpty(), secondsCall);
    }

    /**
     * Reads one of the host's vSCSI streams while {@code wanted} holds (waiting, without a call,
     * while it does not), reconnecting after a break with a backoff of 200 ms doubling to 5 s.
     */
    private void follow(Function<VScsiGrpc.VScsiBlockingStub, Iterator<HostStatsWindow>> open, Consumer<HostStatsWindow> each,
                        BooleanSupplier wanted, AtomicReference<Context.CancellableContext> current) {
        long[] backoffMs = {200};
        while (!closed) {
            Context.CancellableContext call;
            synchronized (this) {
                while (!wanted.getAsBoolean() && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                call = Context.current().withCancellation();
                current.set(call);
            }
            try {
                call.run(() -> {
                    Iterator<HostStatsWindow> it = open.apply(VScsiGrpc.newBlockingStub(channel));
                    while (it.hasNext()) {
                        each.accept(it.next());
                        backoffMs[0] = 200;
                    }
                });
            } catch (StatusRuntimeException e) {
                if (closed) {
                    return;
                }
            } finally {
                call.cancel(null);
                current.compareAndSet(call, null);
            }
            if (!wanted.getAsBoolean()) {
                continue; // ended because it is no longer wanted: wait until it is again
            }
            try {
                Thread.sleep(backoffMs[0]);
            } catch (InterruptedException e) {
                return;
            }
            backoffMs[0] = Math.min(backoffMs[0] * 2, 5_000);
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

    private static void cancel(AtomicReference<Context.CancellableContext> call) {
        Context.CancellableContext c = call.get();
        if (c != null) {
            c.cancel(null);
        }
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
        secondsReader.interrupt();
        synchronized (this) {
            notifyAll();
        }
        cancel(windowsCall);
        cancel(secondsCall);
    }
}
