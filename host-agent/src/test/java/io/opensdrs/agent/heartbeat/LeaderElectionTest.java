package io.opensdrs.agent.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Election, reclaim, claim races and fencing with threads on one real file. */
class LeaderElectionTest {

    static final Duration PERIOD = Duration.ofMillis(100);

    @TempDir
    Path dir;

    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final List<Host> hosts = new ArrayList<>();

    /** One host: its own file handle and its own ticking thread, which a test can pause. */
    final class Host {
        final LeaderElection election;
        final AtomicBoolean paused = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final Thread thread;

        Host(String id, CountDownLatch startGun) throws Exception {
            HeartbeatFile file = HeartbeatFile.open(dir, 16);
            election = new LeaderElection("ds", id, file, LeaderElection.Timing.of(PERIOD),
                    (ds, type, d) -> log.add(id + " " + type + " " + d), HostIoStatistics.NONE);
            thread = new Thread(() -> {
                try {
                    startGun.await();
                    while (!stop.get()) {
                        if (!paused.get()) {
                            election.tick();
                        }
                        Thread.sleep(PERIOD.toMillis() / 4);
                    }
                } catch (Exception e) {
                    log.add(id + " error " + e);
                }
            }, id);
            thread.start();
        }
    }

    List<Host> start(int n) throws Exception {
        CountDownLatch gun = new CountDownLatch(1);
        for (int i = 0; i < n; i++) {
            hosts.add(new Host("host-" + i, gun));
        }
        gun.countDown(); // all hosts race for block 0 at once
        return hosts;
    }

    @AfterEach
    void stopAll() throws Exception {
        for (Host h : hosts) {
            h.stop.set(true);
            h.thread.join(2000);
        }
    }

    static void await(java.util.function.BooleanSupplier cond, Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (!cond.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
    }

    long leaders(List<Host> hs) {
        return hs.stream().filter(h -> !h.paused.get() && h.election.isLeader()).count();
    }

    @RepeatedTest(3)
    void simultaneousClaimsEndWithDistinctBlocksAndOneLeader() throws Exception {
        List<Host> hs = start(5);
        await(() -> hs.stream().allMatch(h -> h.election.ownIndex() >= 0) && leaders(hs) == 1, Duration.ofSeconds(5));
        Thread.sleep(3 * PERIOD.toMillis()); // and it stays so
        Set<Integer> blocks = new HashSet<>();
        for (Host h : hs) {
            assertThat(h.election.ownIndex()).as("host %s holds a block; log %s", h.thread.getName(), log).isNotNegative();
            blocks.add(h.election.ownIndex());
        }
        assertThat(blocks).as("distinct blocks; log %s", log).hasSize(5);
        assertThat(leaders(hs)).isEqualTo(1);
        Host leader = hs.stream().filter(h -> h.election.isLeader()).findFirst().orElseThrow();
        assertThat(leader.election.ownIndex()).isZero();
    }

    /**
     * Failover counted in periods on a virtual clock shared by three hosts, ticked in turn every
     * observation interval: the count is the election's, not the machine's scheduling. The
     * bound is {@link LeaderElection.Timing#DEFAULT_RECLAIM_PERIODS} silent periods, one
     * observation interval and the claim settle (3 periods in all); LeaderElectionIT checks the
     * same bound with agents as processes.
     */
    @Test
    void deadLeaderIsReplacedWithinTheReclaimWindow() throws Exception {
        java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
        LeaderElection.Timing timing = LeaderElection.Timing.of(PERIOD);
        List<LeaderElection> es = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = "host-" + i;
            es.add(new LeaderElection("ds", id, 2L * i + 1, HeartbeatFile.open(dir, 16), timing,
                    (ds, type, d) -> log.add(id + " " + type + " " + d), HostIoStatistics.NONE,
                    clock::get, () -> clock.get() / 1_000_000, d -> clock.addAndGet(d.toNanos())));
        }
        long step = timing.observeIntervalNanos();
        for (int round = 0; round < 40; round++) {
            for (LeaderElection e : es) {
                e.tick();
            }
            clock.addAndGet(step);
        }
        assertThat(es.stream().filter(LeaderElection::isLeader).count()).as("one leader; log %s", log).isEqualTo(1);
        LeaderElection leader = es.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow();
        List<LeaderElection> rest = es.stream().filter(e -> e != leader).toList();
        long crash = clock.get(); // the leader stops ticking: a crash, no release
        double periods = Double.NaN;
        for (int round = 0; round < 40 && Double.isNaN(periods); round++) {
            for (LeaderElection e : rest) {
                e.tick();
            }
            if (rest.stream().filter(LeaderElection::isLeader).count() == 1) {
                periods = (clock.get() - crash) / (double) PERIOD.toNanos();
            }
            clock.addAndGet(step);
        }
        assertThat(periods).as("periods from the crash to one leader; log %s", log).isLessThanOrEqualTo(3.0);
        for (int round = 0; round < 8; round++) {
            for (LeaderElection e : rest) {
                e.tick();
            }
            clock.addAndGet(step);
        }
        assertThat(rest.stream().filter(LeaderElection::isLeader).count()).as("still one leader").isEqualTo(1);
        assertThat(rest.stream().filter(e -> e.ownIndex() == 0).count()).as("block 0 reclaimed").isEqualTo(1);
    }

    @Test
    void pausedLeaderIsFencedByTheGenerationAndMustRejoin() throws Exception {
        List<Host> hs = start(2);
        await(() -> leaders(hs) == 1 && hs.stream().allMatch(h -> h.election.ownIndex() >= 0), Duration.ofSeconds(5));
        Host old = hs.stream().filter(h -> h.election.isLeader()).findFirst().orElseThrow();
        Host other = hs.stream().filter(h -> h != old).findFirst().orElseThrow();
        assertThat(old.election.holdsLease()).as("the leader holds the lease").isTrue();
        assertThat(other.election.holdsLease()).as("a follower never does").isFalse();
        long oldGeneration = old.election.generation();
        old.paused.set(true);
        await(() -> other.election.isLeader() && other.election.ownIndex() == 0, Duration.ofSeconds(3));
        assertThat(other.election.ownIndex()).isZero();
        assertThat(other.election.generation()).isGreaterThan(oldGeneration);
        // The paused host still believes it leads, but its lease ran out before the other could
        // claim: its injector would stop before its next IO, without reading the file.
        assertThat(old.election.isLeader()).isTrue();
        assertThat(old.election.holdsLease()).isFalse();
        assertThat(other.election.holdsLease()).isTrue();
        // Its fencing re-read says no as well.
        assertThat(old.election.verifyForLeaderAction("inject")).isFalse();
        assertThat(old.election.isLeader()).isFalse();
        assertThat(old.election.ownIndex()).isEqualTo(-1);
        old.paused.set(false);
        await(() -> old.election.ownIndex() >= 0, Duration.ofSeconds(2));
        assertThat(old.election.ownIndex()).isEqualTo(1);
        assertThat(old.election.isLeader()).isFalse();
        assertThat(log).anyMatch(l -> l.startsWith(old.thread.getName() + " fenced"));
    }

    @Test
    void tornBlockIsNeitherTrustedNorFreeUntilItStaysUnchangedForTheWindow() throws Exception {
        try (HeartbeatFile f = HeartbeatFile.open(dir, 4)) {
            byte[] oldBlock = HeartbeatBlockTest.block("ghost", 5, 1).toBytes();
            byte[] newBlock = HeartbeatBlockTest.block("ghost", 5, 2).toBytes();
            byte[] torn = oldBlock.clone();
            System.arraycopy(newBlock, 0, torn, 0, 256);
            f.writeRaw(0, torn);
        }
        List<Host> hs = start(1);
        Host h = hs.get(0);
        await(() -> h.election.ownIndex() >= 0, Duration.ofSeconds(2));
        assertThat(h.election.ownIndex()).as("the torn block 0 is not claimed at once").isEqualTo(1);
        await(() -> h.election.ownIndex() == 0, Duration.ofSeconds(3));
        assertThat(h.election.ownIndex()).as("a torn block unchanged for the window is reclaimed").isZero();
        assertThat(h.election.generation()).as("generation above any seen there").isEqualTo(1);
    }
}
