package io.opensdrs.agent.heartbeat;

import io.opensdrs.agent.idle.DatastoreIdleness;
import io.opensdrs.shared.agent.v1.HostDatastoreLoad;
import io.opensdrs.shared.agent.v1.HostDatastoreLoads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loads the server reads from vCenter's 20-s counters, in the heartbeat blocks and the
 * idleness test (Pesto §5.1.1), on a manual clock.
 */
class ServerLoadsTest {

    static final Duration PERIOD = Duration.ofSeconds(4);

    @TempDir
    Path dir;

    final AtomicLong clock = new AtomicLong(1);

    static HostDatastoreLoads loads(long generation, double iops, double oio, double otherIops, double otherOio) {
        return HostDatastoreLoads.newBuilder().setGeneration(generation).setSampleSeconds(20)
                .addLoads(HostDatastoreLoad.newBuilder().setDatastore("ds1").setIops(iops).setOutstandingIos(oio)
                        .setMeanLatencyMs(5).setUnrepresentedIops(otherIops).setUnrepresentedOutstandingIos(otherOio)).build();
    }

    LeaderElection election(ServerLoads loads) throws Exception {
        return new LeaderElection("ds1", "esx1", 11L, HeartbeatFile.open(dir, 8), LeaderElection.Timing.of(PERIOD),
                AgentEvents.NONE, loads.forDatastore("ds1", PERIOD), clock::get, System::currentTimeMillis,
                d -> clock.addAndGet(d.toNanos()));
    }

    /** Ticks through {@code periods} heartbeat periods, a quarter period a tick. */
    void run(LeaderElection e, int periods) throws Exception {
        for (int i = 0; i < periods * 4; i++) {
            clock.addAndGet(PERIOD.toNanos() / 4);
            e.tick();
        }
    }

    @Test
    void aBlockCarriesTheRateOfTheNewestSampleForEachPeriod() {
        ServerLoads loads = new ServerLoads(Duration.ofSeconds(90), clock::get);
        HostIoStatistics stats = loads.forDatastore("ds1", PERIOD);
        assertThat(stats.lastPeriod().known()).as("before any sample").isFalse();
        loads.apply(loads(1, 12.5, 0.4, 0, 0));
        assertThat(stats.lastPeriod()).isEqualTo(new HostIoStatistics.PeriodStats(50, 0.4, 5));
        assertThat(loads.apply(loads(1, 99, 9, 0, 0))).as("an older generation").isFalse();
        assertThat(stats.lastPeriod().ioCount()).isEqualTo(50);
        clock.addAndGet(Duration.ofSeconds(91).toNanos());
        assertThat(stats.lastPeriod().known()).as("a stale sample stands for nothing").isFalse();
    }

    /**
     * How 20-s data changes Pesto's rule of two quiet 4-s periods: each period repeats the newest
     * sample's rate, so two quiet periods mean one quiet sample. A burst of 40 IOs in one second,
     * which Pesto's per-period counts show (40 ≥ 30: that period is busy), reads as 2 IOPS over the
     * sample — 8 IOs a period, quiet. Steady IO of 10 IOPS (40 a period) is busy in both readings.
     */
    @Test
    void twentySecondSamplesAverageABurstAwayThatFourSecondPeriodsSee() {
        DatastoreIdleness pesto = new DatastoreIdleness();
        assertThat(pesto.observe(40, 0.1)).isFalse(); // the burst's period
        assertThat(pesto.observe(0, 0)).isFalse();    // one quiet period after it
        assertThat(pesto.observe(0, 0)).isTrue();     // two

        ServerLoads loads = new ServerLoads(Duration.ofSeconds(90), clock::get);
        HostIoStatistics stats = loads.forDatastore("ds1", PERIOD);
        DatastoreIdleness fromSamples = new DatastoreIdleness();
        loads.apply(loads(1, 40 / 20.0, 0.02, 0, 0)); // the same 40 IOs, as vCenter averages them over 20 s
        HostIoStatistics.PeriodStats p = stats.lastPeriod();
        assertThat(p.ioCount()).isEqualTo(8);
        assertThat(fromSamples.observe(p.ioCount(), p.outstandingIos())).isFalse();
        assertThat(fromSamples.observe(p.ioCount(), p.outstandingIos())).as("quiet at once: the burst is averaged away").isTrue();

        loads.apply(loads(2, 10, 0.05, 0, 0));
        DatastoreIdleness steady = new DatastoreIdleness();
        assertThat(steady.observe(stats.lastPeriod().ioCount(), stats.lastPeriod().outstandingIos())).isFalse();
        assertThat(steady.observe(stats.lastPeriod().ioCount(), stats.lastPeriod().outstandingIos())).isFalse();
    }

    @Test
    void aDatastoreIsIdleOnlyWhenItsLoadIsKnownAndQuietOnEveryHost() throws Exception {
        ServerLoads loads = new ServerLoads(Duration.ofSeconds(90), clock::get);
        LeaderElection e = election(loads);
        run(e, 4);
        assertThat(e.view().idle()).as("no sample from the server yet: the load is unknown").isFalse();

        loads.apply(loads(1, 0, 0, 0, 0));
        run(e, 3);
        assertThat(e.view().idle()).as("quiet on this host and on the hosts without an agent").isTrue();

        // a host with no agent on the datastore issues 50 IOPS with 4 outstanding: no block carries it
        loads.apply(loads(2, 0, 0, 50, 4));
        run(e, 3);
        assertThat(e.view().idle()).isFalse();
        assertThat(e.view().ioCount()).as("its IO counted in the datastore-wide total").isEqualTo(200);
        assertThat(e.view().outstandingIos()).isEqualTo(4.0);

        loads.apply(loads(3, 0, 0, 0, 0));
        run(e, 3);
        assertThat(e.view().idle()).isTrue();
        run(e, 24); // the server went quiet: 96 s without a sample

        assertThat(e.view().idle()).as("a stale load is unknown, never idle").isFalse();
    }
}
