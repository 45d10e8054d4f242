package io.opensdrs.agent.heartbeat;

/**
 * This host's IO to one datastore over the last heartbeat period, deposited in its block so
 * that every host can compute datastore-wide values (Pesto §5.1.1). The hypervisor's per-disk
 * counters (or the testbed's vSCSI service) implement it; {@link #NONE} reports no IO.
 */
@FunctionalInterface
public interface HostIoStatistics {

    PeriodStats lastPeriod();

    HostIoStatistics NONE = () -> PeriodStats.ZERO;

    record PeriodStats(long ioCount, double outstandingIos, double meanLatencyMs) {
        public static final PeriodStats ZERO = new PeriodStats(0, 0, 0);
    }
}
