package io.opensdrs.testbed.vscsi;

import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.device.IoRequest;
import io.opensdrs.testbed.device.StorageDevice;
import io.opensdrs.testbed.sim.Clock;
import io.opensdrs.testbed.sim.Simulation;
import io.opensdrs.testbed.stats.DatastoreWindow;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.testbed.world.IoLevelRun;
import io.opensdrs.testbed.world.VirtualDisk;
import io.opensdrs.testbed.world.World;
import io.opensdrs.testbed.world.WorldRun;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A world run IO by IO ({@link IoLevelRun}) on one engine thread, paced to the wall clock
 * (simulated time never runs ahead of wall time × {@code speed}; SPEC §6: "paced to the wall
 * clock when real agents and the server are attached"), with a side door for the vSCSI service:
 * commands from gRPC threads (IO submissions, placement and workload changes, throttles,
 * queries) are queued to the engine thread and run there between events, so the simulation
 * itself stays single-threaded and deterministic per event order.
 *
 * <p>Closed-loop clients such as the workload injector may <em>hold</em> simulated time: an IO
 * submitted with a continue-until time that completes before it stops the clock until the
 * client's next IO arrives. The device therefore sees exactly the outstanding IOs the client
 * keeps (Pesto §5.1 needs the OIO levels to be what they say), whatever the gRPC round trip
 * costs. The wall time a world is held is not paced: simulated time goes on from where it
 * stopped, at {@code speed}, rather than catching up. A catch-up would replay the testbed's own
 * pause as fast-forwarded simulated time, so that what a test measures in simulated time would
 * depend on whether it looked before or after it (DatastoreAddedIT once read 195.7 s from an added
 * datastore to its model, where its runs measure 43–52 s). A hold the client never redeems (it
 * died) is dropped after {@link #HOLD_TIMEOUT_NANOS}.
 */
public final class PacedWorld implements AutoCloseable {

    /** First VirtualDevice key of a VM's disks, as vSphere numbers them (2000, 2001, ...). */
    public static final int FIRST_DISK_KEY = 2000;
    static final long HOLD_TIMEOUT_NANOS = 2_000_000_000L;

    /** One closed window for one host's disks. */
    public record WindowReport(double startMs, List<DiskWindow> disks, List<DatastoreWindow> datastores) {
    }

    /** A source of IOs that may hold simulated time (one SubmitIo stream). */
    public final class IoClient {
        private int holds;
        private long holdSinceNanos;
        private boolean closed;

        /** Called on the engine thread when a new IO of this client arrives. */
        private void redeemHold() {
            if (holds > 0) {
                holds--;
                totalHolds--;
            }
            holdSinceNanos = System.nanoTime(); // a hold is stale only if the client goes silent
        }

        /** The client went away: its holds no longer stop the clock. */
        public void close() {
            post(() -> {
                closed = true;
                totalHolds -= holds;
                holds = 0;
            });
        }
    }

    /** What an injector IO returns. */
    public record IoOutcome(double latencyMs, long completedAtSimNs, boolean zeroData, String error) {
    }

    private final World world;
    private final IoLevelRun run;
    private final double speed;
    private final long epochBaseMs;
    private final Map<String, String> diskIdByKey = new java.util.concurrent.ConcurrentHashMap<>();
    /** disk id → how statistics name it when vCenter's identity is known ({@link #reportAs}). */
    private final Map<String, Identity> reportedAs = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Integer> keyByDiskId = new LinkedHashMap<>();
    private final BlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
    private final List<Consumer<WindowReport>> windowListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<WindowReport>> secondListeners = new CopyOnWriteArrayList<>();
    private final List<IoClient> holdingClients = new java.util.ArrayList<>();
    private final Map<String, long[]> injectorIos = new HashMap<>();
    private final Thread engine;
    private volatile boolean stopping;
    private volatile Throwable failure;
    private int totalHolds;
    private long throttleGeneration = -1;

    /**
     * @param speed simulated milliseconds per wall millisecond (1 = real time)
     */
    public PacedWorld(World world, double speed, long seed) {
        if (!(speed > 0)) {
            throw new IllegalArgumentException("--speed must be > 0, got " + speed);
        }
        this.world = world;
        this.speed = speed;
        this.run = (IoLevelRun) WorldRun.create(world, WorldRun.Method.IO_LEVEL, seed);
        this.epochBaseMs = System.currentTimeMillis();
        for (VmSpec vm : world.scenario().vms()) {
            for (int i = 0; i < vm.disks().size(); i++) {
                String id = vm.name() + "/" + vm.disks().get(i).name();
                diskIdByKey.put(vm.name() + "#" + (FIRST_DISK_KEY + i), id);
                keyByDiskId.put(id, FIRST_DISK_KEY + i);
            }
        }
        this.engine = new Thread(this::runEngine, "testbed-engine");
        this.engine.setDaemon(true);
    }

    public PacedWorld start() {
        engine.start();
        return this;
    }

    public World world() {
        return world;
    }

    public double speed() {
        return speed;
    }

    public long epochBaseMs() {
        return epochBaseMs;
    }

    /** Why the engine stopped on its own, or null. */
    public Throwable failure() {
        return failure;
    }

    /** The disk id ("vm/disk") a (vm, disk key) pair names, or null. */
    public String diskId(String vm, int diskKey) {
        return diskIdByKey.get(vm + "#" + diskKey);
    }

    /** How a disk is named to the outside: a VM (name or managed object id) and a device key. */
    public record Identity(String vm, int diskKey) {
    }

    /**
     * Names a disk as vCenter does — the VM's managed object id and the disk's device key — as the
     * hypervisor's vSCSI layer would: statistics then carry that identity, so the server can join
     * them with its inventory, and every lookup ({@link #diskId}) takes it besides the scenario's
     * (VM name, 2000 + position).
     */
    public void reportAs(String diskId, String vm, int diskKey) {
        diskKey(diskId); // known disk, or IllegalArgumentException
        reportedAs.put(diskId, new Identity(vm, diskKey));
        diskIdByKey.put(vm + "#" + diskKey, diskId);
    }

    /** The identity statistics carry for a disk: vCenter's when {@link #reportAs} named it, else the scenario's. */
    public Identity reportedIdentity(String diskId) {
        Identity i = reportedAs.get(diskId);
        if (i != null) {
            return i;
        }
        return new Identity(diskId.substring(0, diskId.indexOf('/')), diskKey(diskId));
    }

    public int diskKey(String diskId) {
        Integer k = keyByDiskId.get(diskId);
        if (k == null) {
            throw new IllegalArgumentException("no virtual disk '" + diskId + "'");
        }
        return k;
    }

    public void addWindowListener(Consumer<WindowReport> l) {
        windowListeners.add(l);
    }

    public void removeWindowListener(Consumer<WindowReport> l) {
        windowListeners.remove(l);
    }

    /**
     * Each simulated second's statistics of every virtual disk (no datastore totals). The run steps
     * by seconds only while someone listens: closing every disk's second is work no window needs.
     */
    public synchronized void addSecondListener(Consumer<WindowReport> l) {
        secondListeners.add(l);
        run.onSecond(this::reportSecond);
    }

    public synchronized void removeSecondListener(Consumer<WindowReport> l) {
        secondListeners.remove(l);
        if (secondListeners.isEmpty()) {
            run.onSecond(null);
        }
    }

    private void reportSecond(double startMs, List<DiskWindow> disks) {
        WindowReport report = new WindowReport(startMs, disks, List.of());
        for (Consumer<WindowReport> l : secondListeners) {
            l.accept(report);
        }
    }

    public IoClient newIoClient() {
        return new IoClient();
    }

    /** Runs {@code action} on the engine thread, between events. */
    public void post(Runnable action) {
        inbox.add(action);
    }

    /** Runs {@code query} on the engine thread and waits for its answer. */
    public <T> T call(Supplier<T> query) {
        CompletableFuture<T> f = new CompletableFuture<>();
        post(() -> {
            try {
                f.complete(query.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("testbed engine did not answer within 30 s"
                    + (failure != null ? " (it stopped: " + failure + ")" : ""), e);
        }
    }

    /** The simulated time now (engine thread, or through {@link #call}). */
    public double simNowMs() {
        return run.simulation().now();
    }

    /** Engine thread only. */
    IoLevelRun run() {
        return run;
    }

    /**
     * Submits one injector IO to a datastore's device now (engine thread only). When it
     * completes before {@code continueUntilSimNs} the client holds simulated time until its next IO.
     */
    void submitInjectorIo(IoClient client, String datastore, long offset, int size, boolean read,
                          long continueUntilSimNs, Consumer<IoOutcome> done) {
        client.redeemHold();
        StorageDevice device;
        try {
            device = run.device(datastore);
        } catch (IllegalArgumentException e) {
            done.accept(new IoOutcome(0, simNs(), false, e.getMessage()));
            return;
        }
        if (size <= 0 || offset < 0 || offset + size > device.capacityBytes()) {
            done.accept(new IoOutcome(0, simNs(), false, "IO [" + offset + ", +" + size + ") outside the LUN of "
                    + datastore + " (" + device.capacityBytes() + " bytes)"));
            return;
        }
        injectorIos.computeIfAbsent(datastore, k -> new long[1])[0]++;
        Simulation sim = run.simulation();
        IoRequest io = new IoRequest(offset, size, read, r -> {
            long at = (long) Math.floor(r.completedAt() * 1e6);
            if (continueUntilSimNs > 0 && at < continueUntilSimNs && !client.closed) {
                if (client.holds++ == 0) {
                    client.holdSinceNanos = System.nanoTime();
                }
                totalHolds++;
                if (!holdingClients.contains(client)) {
                    holdingClients.add(client);
                }
            }
            done.accept(new IoOutcome(r.latencyMs(), at, r.zeroFilled(), ""));
        });
        io.submittedAt(sim.now());
        device.submit(io);
    }

    /**
     * A clock read that stops simulated time until {@code ios} IOs of this client have arrived
     * (engine thread only): the start of a closed loop of that many IOs.
     */
    void holdClock(IoClient client, int ios, Consumer<IoOutcome> done) {
        if (ios > 0 && !client.closed) {
            client.holds += ios;
            totalHolds += ios;
            client.holdSinceNanos = System.nanoTime();
            if (!holdingClients.contains(client)) {
                holdingClients.add(client);
            }
        }
        done.accept(new IoOutcome(0, simNs(), false, ""));
    }

    /**
     * A clock read that withdraws one of this client's promises (engine thread only): it will not
     * issue the IO a completed one promised, so that completion no longer stops simulated time.
     */
    void withdrawHold(IoClient client, Consumer<IoOutcome> done) {
        client.redeemHold();
        done.accept(new IoOutcome(0, simNs(), false, ""));
    }

    /** IOs the injector submitted to a datastore (engine thread only). */
    long injectorIos(String datastore) {
        long[] c = injectorIos.get(datastore);
        return c == null ? 0 : c[0];
    }

    long simNs() {
        return (long) Math.floor(run.simulation().now() * 1e6);
    }

    long throttleGeneration() {
        return throttleGeneration;
    }

    void throttleGeneration(long g) {
        throttleGeneration = g;
    }

    private void runEngine() {
        try {
            // As long as anyone could want: the world stops when closed.
            run.run(24 * 365, new EngineClock(), (start, disks, datastores) -> {
                WindowReport report = new WindowReport(start, disks, datastores);
                for (Consumer<WindowReport> l : windowListeners) {
                    l.accept(report);
                }
            }, WorldRun.PlacementPolicy.NONE);
        } catch (InterruptedException e) {
            // closed
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** Wall-clock pacing plus the engine's inbox and the clients' holds. */
    private final class EngineClock implements Clock {
        private final long startNanos = System.nanoTime();
        /** Wall time the world was held, which pacing leaves out. */
        private long heldNanos;
        private long heldSinceNanos = -1;

        private double allowedSimMs() {
            return (System.nanoTime() - startNanos - heldNanos) / 1e6 * speed;
        }

        @Override
        public void advanceTo(Simulation sim, double toMs) throws InterruptedException {
            while (sim.now() < toMs) {
                if (stopping) {
                    throw new InterruptedException("testbed closed");
                }
                for (Runnable r = inbox.poll(); r != null; r = inbox.poll()) {
                    r.run();
                }
                if (totalHolds > 0) {
                    if (heldSinceNanos < 0) {
                        heldSinceNanos = System.nanoTime();
                    }
                    Runnable r = inbox.poll(1, TimeUnit.MILLISECONDS);
                    if (r != null) {
                        r.run();
                    } else {
                        dropStaleHolds();
                    }
                    continue;
                }
                if (heldSinceNanos >= 0) {
                    heldNanos += System.nanoTime() - heldSinceNanos;
                    heldSinceNanos = -1;
                }
                double allowed = allowedSimMs();
                double next = sim.nextEventTime();
                double target = Math.min(toMs, allowed);
                if (next <= target) {
                    sim.runUntil(next); // every event at that instant; a completion may take a hold
                    continue;
                }
                if (target > sim.now()) {
                    sim.runUntil(target);
                }
                if (sim.now() >= toMs) {
                    break;
                }
                double waitSimMs = Math.min(next, toMs) - allowed;
                long waitNanos = (long) Math.min(5e6, Math.max(50_000, waitSimMs / speed * 1e6));
                Runnable r = inbox.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (r != null) {
                    r.run();
                }
            }
        }
    }

    private void dropStaleHolds() {
        long now = System.nanoTime();
        for (IoClient c : List.copyOf(holdingClients)) {
            if (c.holds == 0) {
                holdingClients.remove(c);
            } else if (now - c.holdSinceNanos > HOLD_TIMEOUT_NANOS) {
                totalHolds -= c.holds;
                c.holds = 0;
                holdingClients.remove(c);
            }
        }
    }

    @Override
    public void close() {
        stopping = true;
        inbox.add(() -> { });
        try {
            engine.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The disks of a host's VMs (engine thread only). */
    List<VirtualDisk> disksOf(String host) {
        return world.disks().stream().filter(d -> d.host().equals(host)).toList();
    }
}
