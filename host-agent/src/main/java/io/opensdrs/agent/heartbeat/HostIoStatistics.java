package io.opensdrs.agent.heartbeat;

/**
 * This host's IO to one datastore over the last heartbeat period, deposited in its block so
 * that every host can compute datastore-wide values (Pesto §5.1.1), and the IO of hosts that keep
 * no block on the datastore, which the blocks cannot carry. On vSphere both come from vCenter's
 * performance counters through the server ({@link ServerLoads}); {@link #NONE} reports no IO.
 */
public interface HostIoStatistics {

    PeriodStats lastPeriod();

    /** IO per period of hosts with no block on the datastore (no agent runs there). */
    default PeriodStats unrepresented() {
        return PeriodStats.ZERO;
    }

    HostIoStatistics NONE = () -> PeriodStats.ZERO;

    /**
     * @param known false while this host does not know its IO (no sample yet, or the newest is stale): the
     *              datastore is then not taken as idle, as its load is unknown
     */
    record PeriodStats(long ioCount, double outstandingIos, double meanLatencyMs, boolean known) {
        public static final PeriodStats ZERO = new PeriodStats(0, 0, 0, true);
        public static final PeriodStats UNKNOWN = new PeriodStats(0, 0, 0, false);

        public PeriodStats(long ioCount, double outstandingIos, double meanLatencyMs) {
            this(ioCount, outstandingIos, meanLatencyMs, true);
        }
    }
}
