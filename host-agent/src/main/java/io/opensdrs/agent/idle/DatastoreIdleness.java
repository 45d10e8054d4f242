package io.opensdrs.agent.idle;

/**
 * Pesto §5.1.1 idleness: "A datastore is deemed idle if its overall IO count and outstanding
 * IOs remain below a specified threshold during two consecutive periods" — 30 IOs and 0.6
 * outstanding IOs by default. Fed once per heartbeat period with the datastore-wide totals
 * summed over every live heartbeat block.
 */
public final class DatastoreIdleness {

    public static final long DEFAULT_IO_COUNT_THRESHOLD = 30;
    public static final double DEFAULT_OIO_THRESHOLD = 0.6;
    public static final int DEFAULT_CONSECUTIVE_PERIODS = 2;

    private final long ioCountThreshold;
    private final double oioThreshold;
    private final int consecutivePeriods;
    private int quietPeriods;

    public DatastoreIdleness() {
        this(DEFAULT_IO_COUNT_THRESHOLD, DEFAULT_OIO_THRESHOLD, DEFAULT_CONSECUTIVE_PERIODS);
    }

    public DatastoreIdleness(long ioCountThreshold, double oioThreshold, int consecutivePeriods) {
        if (consecutivePeriods < 1) {
            throw new IllegalArgumentException("consecutivePeriods must be >= 1");
        }
        this.ioCountThreshold = ioCountThreshold;
        this.oioThreshold = oioThreshold;
        this.consecutivePeriods = consecutivePeriods;
    }

    /** Records one period's datastore-wide totals; returns whether the datastore is now idle. */
    public synchronized boolean observe(long ioCount, double outstandingIos) {
        boolean quiet = ioCount < ioCountThreshold && outstandingIos < oioThreshold;
        quietPeriods = quiet ? Math.min(quietPeriods + 1, consecutivePeriods) : 0;
        return idle();
    }

    public synchronized boolean idle() {
        return quietPeriods >= consecutivePeriods;
    }

    /** Forget history, e.g. after this host was paused and missed periods. */
    public synchronized void reset() {
        quietPeriods = 0;
    }
}
