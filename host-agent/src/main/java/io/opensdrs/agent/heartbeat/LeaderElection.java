package io.opensdrs.agent.heartbeat;

import io.opensdrs.agent.idle.DatastoreIdleness;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * One host's membership in one datastore's heartbeat file: it claims a block, keeps its
 * heartbeat, reclaims dead hosts' blocks, and knows whether it leads (Pesto §5.1.1: "the host
 * assigned to the first block in the shared file is the leader"; "if a host dies or becomes
 * disconnected, a new block assignment is generated and a new leader is elected").
 *
 * <h2>Protocol</h2>
 * <ol>
 * <li><b>Observe.</b> Every {@code period / 4} the host reads the whole file and records, per
 * slot, when its content last changed on this host's monotonic clock
 * ({@link BlockObservations}). A valid block whose content has not changed for
 * {@code reclaimPeriods} periods (2 × 4 s by default) is STALE; an all-zero or RELEASED block
 * is FREE; a block that fails its checksum is never trusted, and becomes reclaimable only after
 * staying unchanged for the same window (a torn block left by a crash, not a write in
 * flight). A block carrying this host's id but another incarnation is a previous run of this
 * very agent and is STALE at once.</li>
 * <li><b>Claim.</b> A host without a block takes the lowest claimable slot: it re-reads the slot
 * and checks it still looks as judged, writes its claim with {@code generation = highest
 * generation ever seen in that slot + 1}, waits {@code claimSettle}, and re-reads. It owns the
 * slot only if the re-read shows its own claim (host id, incarnation, generation). Two hosts
 * claiming the same slot at once resolve deterministically: <em>the last writer wins</em>; an
 * earlier writer sees the later claim on its re-read and yields. If the later write lands
 * after the earlier writer's re-read (its read-to-write gap exceeded the settle time), the rule
 * still holds one step later: every heartbeat write is preceded by a read that must show the
 * host's own claim, so whichever host sees the other's claim first yields, and at most one of
 * them keeps the slot.</li>
 * <li><b>Migrate down.</b> A host whose slot is not the lowest claimable one claims the lower
 * slot the same way and then releases its old slot. This is how a dead or paused leader's
 * block 0 is reclaimed, and it keeps the leader in block 0.</li>
 * <li><b>Lead.</b> The host holding the lowest LIVE slot leads; only the leader injects.</li>
 * <li><b>Fencing.</b> A reclaim raises the slot's generation. Before every leader action the
 * host re-reads its slot ({@link #verifyForLeaderAction}) and proceeds only if host id,
 * incarnation and generation are still its own, and only if its own heartbeat has not been
 * silent for the reclaim window. A host that was only paused (SIGSTOP, a long GC, a hung NFS
 * server) therefore learns on waking that it lost its slot, drops leadership, and must re-join
 * before it can lead again. No advisory locks are used (they do not hold across NFS clients);
 * the generation is the fencing token.</li>
 * </ol>
 *
 * <p>Thread-safety: {@link #tick()} runs on the heartbeat thread, {@link #verifyForLeaderAction}
 * on the injector thread; both synchronize on this object.
 */
public final class LeaderElection implements AutoCloseable {

    /** Timing: {@code period} between heartbeats, reclaim after {@code reclaimPeriods} silent periods. */
    public record Timing(Duration period, int reclaimPeriods, Duration claimSettle) {
        /**
         * Two silent periods: a dead leader is then replaced at most 2 periods + one observation
         * interval + the claim settle (2.5 periods) after its last heartbeat, so within the 3
         * periods the failover bound (B7) allows from the kill; three would overshoot it.
         */
        public static final int DEFAULT_RECLAIM_PERIODS = 2;

        public Timing {
            if (period.toMillis() < 20) {
                throw new IllegalArgumentException("period must be at least 20 ms");
            }
            if (reclaimPeriods < 2) {
                throw new IllegalArgumentException("reclaimPeriods must be at least 2");
            }
            if (claimSettle.compareTo(period) >= 0) {
                throw new IllegalArgumentException("claimSettle must be shorter than the period");
            }
        }

        public static Timing of(Duration period) {
            return new Timing(period, DEFAULT_RECLAIM_PERIODS, Duration.ofNanos(Math.max(period.toNanos() / 4, 10_000_000L)));
        }

        public long observeIntervalNanos() {
            return period.toNanos() / 4;
        }

        public long reclaimWindowNanos() {
            return period.toNanos() * reclaimPeriods;
        }
    }

    /** Sleeps; a seam so that tests can drive the clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    /**
     * Until when (on {@link #nanoClock}) this host may go on issuing leader IO without asking the
     * file: its last heartbeat write as leader plus the reclaim window. No other host can claim the
     * block before it has seen it unchanged for that window, which starts no earlier than the
     * write. {@link Long#MIN_VALUE} while not leading. Volatile: read per IO by the injector's
     * threads, which must not wait for the heartbeat thread's lock (it is held across file IO).
     */
    private volatile long leaseUntilNanos = Long.MIN_VALUE;

    private final String datastore;
    private final String hostId;
    private final long incarnation;
    private final HeartbeatFile file;
    private final Timing timing;
    private final AgentEvents events;
    private final HostIoStatistics stats;
    private final LongSupplier nanoClock;
    private final LongSupplier wallClockMs;
    private final Sleeper sleeper;
    private final BlockObservations observations;
    private final DatastoreIdleness idleness = new DatastoreIdleness();

    private HeartbeatBlock own;
    private int ownIndex = -1;
    private long lastWriteNanos;
    private long lastTickNanos;
    private long lastPeriodNanos;
    private boolean leader;
    private String leaderHost = "";
    private boolean warnedFull;
    private volatile DatastoreView view;

    public LeaderElection(String datastore, String hostId, HeartbeatFile file, Timing timing, AgentEvents events,
                          HostIoStatistics stats) {
        this(datastore, hostId, ThreadLocalRandom.current().nextLong() | 1L, file, timing, events, stats,
                System::nanoTime, System::currentTimeMillis, d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    public LeaderElection(String datastore, String hostId, long incarnation, HeartbeatFile file, Timing timing,
                          AgentEvents events, HostIoStatistics stats, LongSupplier nanoClock,
                          LongSupplier wallClockMs, Sleeper sleeper) {
        this.datastore = datastore;
        this.hostId = hostId;
        this.incarnation = incarnation;
        this.file = file;
        this.timing = timing;
        this.events = events;
        this.stats = stats;
        this.nanoClock = nanoClock;
        this.wallClockMs = wallClockMs;
        this.sleeper = sleeper;
        this.observations = new BlockObservations(file.maxBlocks(), timing.reclaimWindowNanos());
        this.view = new DatastoreView(datastore, hostId, -1, 0, 0, 0, false, "", List.of(), 0, 0, 0, false);
    }

    /** One observation step; call every {@link Timing#observeIntervalNanos()}. */
    public synchronized void tick() throws IOException, InterruptedException {
        long now = nanoClock.getAsLong();
        if (lastTickNanos != 0 && now - lastTickNanos >= timing.reclaimWindowNanos()) {
            // This host did not run for a reclaim window (SIGSTOP, VM freeze, GC): anything it
            // believed may be stale. The read below decides whether it still owns its block.
            events.emit(datastore, "pause-detected", "gapMs=" + (now - lastTickNanos) / 1_000_000);
            idleness.reset();
        }
        lastTickNanos = now;
        List<HeartbeatBlock.Decoded> blocks = file.readAll();
        observations.observe(blocks, now);
        expireOwnIncarnations(blocks, now);

        if (own != null) {
            HeartbeatBlock.Decoded mine = blocks.get(ownIndex);
            if (!(mine.valid() && mine.block().sameClaim(own))) {
                lose(mine, "reread");
            }
        }
        if (own != null && now - lastWriteNanos >= timing.period().toNanos()) {
            writeHeartbeat(now);
        }
        if (own == null) {
            join(now);
        } else {
            migrateDown(now);
        }
        updateLeadership(now);
        if (now - lastPeriodNanos >= timing.period().toNanos()) {
            lastPeriodNanos = now;
            summarizePeriod(now);
        }
    }

    private final java.util.Set<Integer> ownPastIncarnations = new java.util.HashSet<>();

    private void expireOwnIncarnations(List<HeartbeatBlock.Decoded> blocks, long now) {
        for (int i = 0; i < blocks.size(); i++) {
            HeartbeatBlock.Decoded d = blocks.get(i);
            if (d.valid() && d.block().hostId().equals(hostId) && d.block().incarnation() != incarnation
                    && !d.block().released()) {
                ownPastIncarnations.add(i);
            } else {
                ownPastIncarnations.remove(i);
            }
        }
    }

    private boolean claimable(int i, long now) {
        return ownPastIncarnations.contains(i) || observations.claimable(i, now);
    }

    private void writeHeartbeat(long now) throws IOException {
        HostIoStatistics.PeriodStats s = stats.lastPeriod();
        HeartbeatBlock next = own.nextBeat(wallClockMs.getAsLong(), s.ioCount(), s.outstandingIos(), s.meanLatencyMs());
        file.write(ownIndex, next);
        own = next;
        lastWriteNanos = now;
        if (leader) {
            leaseUntilNanos = now + timing.reclaimWindowNanos();
        }
    }

    private void join(long now) throws IOException, InterruptedException {
        for (int i = 0; i < observations.slots(); i++) {
            if (claimable(i, now)) {
                if (claim(i)) {
                    warnedFull = false;
                }
                return;
            }
        }
        if (!warnedFull) {
            warnedFull = true;
            events.emit(datastore, "no-free-block", "slots=" + observations.slots());
        }
    }

    private void migrateDown(long now) throws IOException, InterruptedException {
        for (int i = 0; i < ownIndex; i++) {
            if (claimable(i, now)) {
                int oldIndex = ownIndex;
                HeartbeatBlock old = own;
                if (claim(i)) {
                    file.write(oldIndex, old.asReleased(wallClockMs.getAsLong()));
                    events.emit(datastore, "migrated", "from=" + oldIndex + " to=" + i);
                } else {
                    own = old;
                    ownIndex = oldIndex;
                }
                return;
            }
        }
    }

    /** The claim protocol's steps 2–4 on slot {@code i}; see the class comment. */
    private boolean claim(int i) throws IOException, InterruptedException {
        HeartbeatBlock.Decoded fresh = file.read(i);
        if (BlockObservations.fingerprint(fresh) != observations.fingerprint(i)) {
            return false; // changed since judged claimable: someone is alive there or claiming it
        }
        HeartbeatBlock.Decoded previous = fresh;
        long generation = observations.maxGeneration(i) + 1;
        HeartbeatBlock claim = new HeartbeatBlock(hostId, generation, 0, wallClockMs.getAsLong(), incarnation,
                (int) timing.period().toMillis(), false, 0, 0, 0);
        // Taken before the write: a lease counted from it cannot outlast another host's reclaim window.
        long writtenAt = nanoClock.getAsLong();
        file.write(i, claim);
        sleeper.sleep(timing.claimSettle());
        HeartbeatBlock.Decoded after = file.read(i);
        long now = nanoClock.getAsLong();
        observations.observe(i, after, now);
        if (after.valid() && after.block().sameClaim(claim)) {
            own = claim;
            ownIndex = i;
            lastWriteNanos = writtenAt;
            events.emit(datastore, "joined", "block=" + i + " generation=" + generation
                    + " previous=" + describe(previous));
            return true;
        }
        events.emit(datastore, "claim-lost", "block=" + i + " winner=" + describe(after));
        return false;
    }

    private void lose(HeartbeatBlock.Decoded found, String how) {
        events.emit(datastore, "lost-block", "block=" + ownIndex + " generation=" + own.generation()
                + " how=" + how + " found=" + describe(found));
        own = null;
        ownIndex = -1;
        leaseUntilNanos = Long.MIN_VALUE;
        if (leader) {
            leader = false;
            events.emit(datastore, "follower", "reason=lost-block");
        }
    }

    private void updateLeadership(long now) {
        int leaderIndex = -1;
        for (int i = 0; i < observations.slots(); i++) {
            if ((own != null && i == ownIndex)
                    || (observations.liveness(i, now) == BlockObservations.Liveness.LIVE && !ownPastIncarnations.contains(i))) {
                leaderIndex = i;
                break;
            }
        }
        boolean leadsNow = own != null && leaderIndex == ownIndex;
        leaderHost = leaderIndex < 0 ? "" : (leadsNow ? hostId : observations.last(leaderIndex).block().hostId());
        if (leadsNow && !leader) {
            leader = true;
            // The claim just written (or the last heartbeat) starts the lease.
            leaseUntilNanos = lastWriteNanos + timing.reclaimWindowNanos();
            events.emit(datastore, "leader", "block=" + ownIndex + " generation=" + own.generation());
        } else if (!leadsNow && leader) {
            leader = false;
            leaseUntilNanos = Long.MIN_VALUE;
            events.emit(datastore, "follower", "leader=" + leaderHost);
        }
    }

    private void summarizePeriod(long now) {
        long ios = 0;
        double oio = 0;
        double latencyWeighted = 0;
        List<String> live = new ArrayList<>();
        for (int i = 0; i < observations.slots(); i++) {
            if (observations.liveness(i, now) != BlockObservations.Liveness.LIVE) {
                continue;
            }
            HeartbeatBlock b = observations.last(i).block();
            live.add(b.hostId());
            ios += b.ioCount();
            oio += b.outstandingIos();
            latencyWeighted += b.meanLatencyMs() * b.ioCount();
        }
        // Hosts that keep no block (no agent runs there) load the datastore too; what vCenter
        // measured of them comes with this host's own statistics.
        HostIoStatistics.PeriodStats unseen = stats.unrepresented();
        ios += unseen.ioCount();
        oio += unseen.outstandingIos();
        boolean idle;
        if (stats.lastPeriod().known() && unseen.known()) {
            idle = idleness.observe(ios, oio);
        } else {
            idleness.reset(); // an unknown load is never idle
            idle = false;
        }
        view = new DatastoreView(datastore, hostId, ownIndex, own == null ? 0 : own.generation(),
                own == null ? 0 : own.heartbeat(), wallClockMs.getAsLong(), leader, leaderHost, List.copyOf(live),
                ios, oio, ios == 0 ? 0 : latencyWeighted / ios, idle);
    }

    /**
     * The fencing check before any leader action (Pesto §5.1.1, only the leader injects):
     * re-reads this host's block from the file and returns true only if this host still leads
     * and the block still carries its host id, incarnation and generation. On a mismatch the
     * host gives up the block at once and must re-join.
     */
    public synchronized boolean verifyForLeaderAction(String action) throws IOException {
        if (own == null || !leader) {
            return false;
        }
        HeartbeatBlock.Decoded mine = file.read(ownIndex);
        if (!(mine.valid() && mine.block().sameClaim(own))) {
            events.emit(datastore, "fenced", "action=" + action + " reason=block-reclaimed");
            lose(mine, "fencing");
            return false;
        }
        if (nanoClock.getAsLong() - lastWriteNanos >= timing.reclaimWindowNanos()) {
            // Still ours, but silent for a reclaim window: another host may be claiming it at
            // this very moment. Wait for the heartbeat thread to prove liveness again.
            events.emit(datastore, "fenced", "action=" + action + " reason=silent");
            return false;
        }
        return true;
    }

    /**
     * Whether this host may issue its next leader IO: it leads and its lease
     * ({@link #leaseUntilNanos}) has not run out. Lock-free and without file IO, so the injector
     * asks before every read: a leader paused past the reclaim window (SIGSTOP, a VM freeze, a
     * hung NFS server) stops issuing IO the moment it resumes, before its next read — the
     * per-level {@link #verifyForLeaderAction} alone let it finish a whole level beside the new
     * leader's injector. Only IOs already queued at the device when it paused overlap.
     */
    public boolean holdsLease() {
        return nanoClock.getAsLong() < leaseUntilNanos;
    }

    public synchronized boolean isLeader() {
        return leader;
    }

    public synchronized int ownIndex() {
        return ownIndex;
    }

    public synchronized long generation() {
        return own == null ? 0 : own.generation();
    }

    public DatastoreView view() {
        return view;
    }

    public String datastore() {
        return datastore;
    }

    public Timing timing() {
        return timing;
    }

    /** Releases this host's block so that the others need not wait a reclaim window. */
    @Override
    public synchronized void close() throws IOException {
        if (own != null) {
            HeartbeatBlock.Decoded mine = file.read(ownIndex);
            if (mine.valid() && mine.block().sameClaim(own)) {
                file.write(ownIndex, own.asReleased(wallClockMs.getAsLong()));
                events.emit(datastore, "released", "block=" + ownIndex);
            }
            own = null;
            ownIndex = -1;
            leader = false;
        }
    }

    private static String describe(HeartbeatBlock.Decoded d) {
        if (!d.valid()) {
            return d.state().name().toLowerCase();
        }
        HeartbeatBlock b = d.block();
        return b.hostId() + "/g" + b.generation() + (b.released() ? "/released" : "");
    }
}
