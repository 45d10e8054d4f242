package io.opensdrs.server.stats;

import io.opensdrs.shared.agent.v1.DiskWindowStats;

/**
 * The per-disk quantities whose percentiles the server keeps: latency and outstanding IOs
 * (Pesto §5.2, SDRS compares the 90th-percentile latency with its threshold, SPEC §4) and the
 * workload characteristics every model uses, IOPS, IO size Z, read share R, randomness X
 * (BASIL Eq. 1, Romano Table 1).
 */
public enum WorkloadMetric {
    LATENCY_MS,
    OUTSTANDING_IOS,
    IOPS,
    IO_SIZE_KB,
    READ_SHARE,
    RANDOMNESS;

    static final WorkloadMetric[] ALL = values();

    /** Fills {@code into} with this sample's value of every metric, in {@link #ALL} order. */
    static void valuesOf(DiskWindowStats s, double[] into) {
        into[0] = s.getMeanLatencyMs();
        into[1] = s.getMeanOutstandingIos();
        into[2] = s.getWindowSeconds() > 0 ? s.getIoCount() / (double) s.getWindowSeconds() : 0;
        into[3] = s.getMeanIoSizeKb();
        into[4] = s.getReadShare();
        into[5] = s.getRandomness();
    }
}
