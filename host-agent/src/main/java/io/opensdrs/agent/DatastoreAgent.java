package io.opensdrs.agent;

import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.DatastoreView;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.injector.CalibrationSchedule;
import io.opensdrs.agent.injector.InjectorSchedule;
import io.opensdrs.agent.injector.IoTarget;
import io.opensdrs.agent.injector.WorkloadInjector;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorResult;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Everything the agent does for one datastore: the heartbeat and election loop, idleness, and —
 * when this host leads, the datastore is idle and a run is due — the workload injector (Pesto
 * §5.1). The heartbeat thread never blocks on the injector, which runs on its own thread and
 * passes the fencing check before it starts and before every level.
 *
 * <p>A run is one injector run per configured IO size, smallest first (4 KiB, then 256 KiB by
 * default), each reported as it ends so that the 4-KiB model arrives without waiting for the
 * next size; a size's invalid run ends the sequence, and the first size's run alone decides
 * whether the run is done or retried. The second size teaches the LQ model how much IO size
 * weighs on this device ({@code LqSlopeModel}'s size factor).
 *
 * <p>When the injector's runs are not due, a calibrating agent ({@link #calibrating}) runs the next
 * part of Romano's calibration design on the same target and under the same idleness test and
 * fencing, so that the server can fit a Romano model whose R and X terms are measured.
 */
public final class DatastoreAgent implements AutoCloseable {

    /** Opens the injector's target lazily: the real file is written only when first needed. */
    @FunctionalInterface
    public interface TargetFactory {
        IoTarget open() throws IOException;
    }

    private final LeaderElection election;
    private final InjectorSchedule schedule;
    private final List<WorkloadInjector> injectors;
    private final TargetFactory targets;
    private final InjectorMode mode;
    private final AgentEvents events;
    private final Consumer<InjectorResult> results;
    private final ScheduledExecutorService heartbeatThread;
    private final ScheduledExecutorService injectorThread;
    private final AtomicBoolean injecting = new AtomicBoolean();
    private volatile CalibrationSchedule calibration;
    private volatile Consumer<DatastoreView> views = v -> { };
    private long lastReportedHeartbeat = -1;

    /** @param injectors one per IO size, run in this order (empty: this agent never injects) */
    public DatastoreAgent(LeaderElection election, InjectorSchedule schedule, List<WorkloadInjector> injectors,
                          TargetFactory targets, InjectorMode mode, AgentEvents events,
                          Consumer<InjectorResult> results) {
        this.election = election;
        this.schedule = schedule;
        this.injectors = List.copyOf(injectors);
        this.targets = targets;
        this.mode = mode;
        this.events = events;
        this.results = results;
        this.heartbeatThread = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "heartbeat-" + election.datastore()));
        this.injectorThread = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "injector-" + election.datastore()));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    public void start() {
        long interval = election.timing().observeIntervalNanos();
        heartbeatThread.scheduleWithFixedDelay(this::step, 0, interval, TimeUnit.NANOSECONDS);
    }

    public LeaderElection election() {
        return election;
    }

    public InjectorSchedule schedule() {
        return schedule;
    }

    /**
     * Also runs Romano's calibration design (Romano §4.1) on this datastore, a part per idle period,
     * with the first injector's level settings, once its injector runs are not due.
     */
    public DatastoreAgent calibrating(CalibrationSchedule schedule) {
        this.calibration = schedule;
        return this;
    }

    /** The calibration's schedule, or null when this agent does not calibrate. */
    public CalibrationSchedule calibration() {
        return calibration;
    }

    /** Receives this host's view of the datastore once per heartbeat (the server's DatastoreState). */
    public void reportViewsTo(Consumer<DatastoreView> consumer) {
        this.views = consumer;
    }

    /** One heartbeat step: the election's tick, the view, and the injector when it is due (run by {@link #start}). */
    void step() {
        try {
            election.tick();
            DatastoreView view = election.view();
            if (view.ownIndex() >= 0 && view.heartbeat() != lastReportedHeartbeat) {
                lastReportedHeartbeat = view.heartbeat();
                views.accept(view);
            }
            long now = System.currentTimeMillis();
            if (!injectors.isEmpty() && election.isLeader() && !injecting.get() && schedule.due(now)) {
                if (view.idle()) {
                    injecting.set(true);
                    injectorThread.execute(this::inject);
                } else {
                    events.emit(election.datastore(), "inject-deferred", "reason=not-idle ios=" + view.ioCount()
                            + " oio=" + view.outstandingIos());
                    schedule.backOff(now);
                }
            } else if (calibration != null && !injectors.isEmpty() && election.isLeader() && !injecting.get()
                    && calibration.due(now)) {
                if (view.idle()) {
                    injecting.set(true);
                    injectorThread.execute(this::calibrate);
                } else {
                    events.emit(election.datastore(), "calibrate-deferred", "reason=not-idle ios=" + view.ioCount()
                            + " oio=" + view.outstandingIos());
                    calibration.backOff(now);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // The loop must survive a transient error (e.g. an NFS hiccup); the next tick retries.
            events.emit(election.datastore(), "heartbeat-error", "error=\"" + e + "\"");
        }
    }

    private void inject() {
        String ds = election.datastore();
        try {
            if (!election.verifyForLeaderAction("inject")) {
                return;
            }
            events.emit(ds, "inject-start", "generation=" + election.generation() + " block=" + election.ownIndex()
                    + " attempt=" + schedule.attempt() + " reason=\"" + schedule.reason() + "\"");
            // The first size's run decides the schedule: once its line exists, a later size aborted by
            // interference waits for the next scheduled run instead of retrying on a busy datastore.
            InjectorResult first = null;
            WorkloadInjector.LeaderGate gate = leaderGate();
            try (IoTarget target = targets.open()) {
                for (int i = 0; i < injectors.size(); i++) {
                    InjectorResult r = injectors.get(i).run(target, ds, mode, schedule.attempt(), gate);
                    events.emit(ds, "inject-end", "valid=" + r.getValid() + " reason=" + r.getInvalidReason()
                            + String.format(" slope=%.5f intercept=%.4f r2=%.4f", r.getFit().getSlopeMsPerIo(),
                            r.getFit().getInterceptMs(), r.getFit().getRSquared()) + " io_size_kb=" + r.getIoSizeKb());
                    results.accept(r);
                    if (i == 0) {
                        first = r;
                    }
                    if (!r.getValid()) {
                        break;
                    }
                }
            }
            if (first == null) {
                schedule.backOff(System.currentTimeMillis());
            } else {
                schedule.finished(first, System.currentTimeMillis());
            }
        } catch (Exception e) {
            events.emit(ds, "inject-error", "error=\"" + e + "\"");
            schedule.backOff(System.currentTimeMillis());
        } finally {
            injecting.set(false);
        }
    }

    /** One part of the calibration design, each point reported as it ends (Romano §4.1). */
    private void calibrate() {
        String ds = election.datastore();
        CalibrationSchedule c = calibration;
        try {
            if (!election.verifyForLeaderAction("calibrate")) {
                return;
            }
            java.util.List<io.opensdrs.model.Workload> part = c.nextPart();
            events.emit(ds, "calibrate-start", "generation=" + election.generation() + " from=" + c.done()
                    + " points=" + part.size() + " of=" + c.size());
            int measured = 0;
            try (IoTarget target = targets.open()) {
                for (io.opensdrs.model.Workload point : part) {
                    InjectorResult r = injectors.get(0).runDesignPoint(target, ds, mode, c.attempt(), leaderGate(), point);
                    results.accept(r);
                    if (r.getValid()) {
                        measured++;
                    }
                    if (!c.finished(r, System.currentTimeMillis())) {
                        if (!r.getValid()) {
                            events.emit(ds, "calibrate-stopped", "reason=" + r.getInvalidReason() + " detail=\""
                                    + r.getInvalidDetail() + "\"");
                        }
                        break;
                    }
                }
            }
            events.emit(ds, "calibrate-end", "measured=" + measured + " done=" + c.done() + " of=" + c.size());
        } catch (Exception e) {
            events.emit(ds, "calibrate-error", "error=\"" + e + "\"");
            c.backOff(System.currentTimeMillis());
        } finally {
            injecting.set(false);
        }
    }

    private WorkloadInjector.LeaderGate leaderGate() {
        return new WorkloadInjector.LeaderGate() {
            @Override
            public boolean mayContinue(String action) throws IOException {
                return election.verifyForLeaderAction(action);
            }

            @Override
            public boolean holdsLease() {
                return election.holdsLease();
            }
        };
    }

    /**
     * Stops the loops and releases this host's block. The heartbeat thread is stopped without an
     * interrupt: an interrupt during a read closes the heartbeat file's channel (a FileChannel is an
     * InterruptibleChannel), and the release below could not be written. The injector is
     * interrupted; if that closed the channel, the block is reclaimed after two silent periods, as a
     * crashed host's is.
     */
    @Override
    public void close() throws IOException {
        heartbeatThread.shutdown();
        injectorThread.shutdownNow();
        try {
            heartbeatThread.awaitTermination(2, TimeUnit.SECONDS);
            injectorThread.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        heartbeatThread.shutdownNow();
        try {
            election.close();
        } catch (ClosedChannelException e) {
            events.emit(election.datastore(), "release-skipped", "reason=\"heartbeat file closed by an interrupt\"");
        }
    }
}
