package io.opensdrs.agent.heartbeat;

import io.opensdrs.shared.agent.v1.HostDatastoreLoad;
import io.opensdrs.shared.agent.v1.HostDatastoreLoads;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The IO on each datastore as the server read it from vCenter's realtime counters and sent it
 * ({@code HostDatastoreLoads}, one sample per 20-s interval): what the heartbeat blocks carry
 * (Pesto §5.1.1) on a vSphere, where no agent code runs on a host's IO path.
 *
 * <p>Pesto's idleness test sums the blocks every 4-s period and wants two quiet periods in a row.
 * Fed by 20-s samples, each period's block repeats the rate of the newest sample, so two quiet
 * periods mean one quiet sample: IO is seen only as a rate averaged over 20 s (a burst of 40 IOs in
 * one second reads as 8 IOs per 4-s period, under the 30-IO threshold), and it is seen up to a
 * sample plus the server's read late. A sample older than {@code maxAge} (the server or vCenter
 * went quiet) makes the load unknown, and an unknown load is never idle.
 */
public final class ServerLoads {

    private record Held(HostDatastoreLoad load, long receivedAtNanos) {
    }

    private final Map<String, Held> loads = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private final Duration maxAge;
    private volatile long generation = Long.MIN_VALUE;

    public ServerLoads(Duration maxAge) {
        this(maxAge, System::nanoTime);
    }

    public ServerLoads(Duration maxAge, LongSupplier nanoClock) {
        this.maxAge = maxAge;
        this.nanoClock = nanoClock;
    }

    /** Takes the server's newest loads; an older generation, delivered late, is ignored. */
    public synchronized boolean apply(HostDatastoreLoads message) {
        if (message.getGeneration() <= generation) {
            return false;
        }
        generation = message.getGeneration();
        long now = nanoClock.getAsLong();
        for (HostDatastoreLoad l : message.getLoadsList()) {
            loads.put(l.getDatastore(), new Held(l, now));
        }
        return true;
    }

    /** This host's statistics of one datastore, each heartbeat period of {@code period}. */
    public HostIoStatistics forDatastore(String datastore, Duration period) {
        double periodSeconds = period.toNanos() / 1e9;
        return new HostIoStatistics() {
            @Override
            public PeriodStats lastPeriod() {
                HostDatastoreLoad l = fresh(datastore);
                return l == null ? PeriodStats.UNKNOWN
                        : new PeriodStats(Math.round(l.getIops() * periodSeconds), l.getOutstandingIos(), l.getMeanLatencyMs());
            }

            @Override
            public PeriodStats unrepresented() {
                HostDatastoreLoad l = fresh(datastore);
                return l == null ? PeriodStats.UNKNOWN
                        : new PeriodStats(Math.round(l.getUnrepresentedIops() * periodSeconds),
                        l.getUnrepresentedOutstandingIos(), 0);
            }
        };
    }

    private HostDatastoreLoad fresh(String datastore) {
        Held h = loads.get(datastore);
        return h == null || nanoClock.getAsLong() - h.receivedAtNanos() > maxAge.toNanos() ? null : h.load();
    }
}
