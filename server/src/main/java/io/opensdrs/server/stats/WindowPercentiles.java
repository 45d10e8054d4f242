package io.opensdrs.server.stats;

import java.time.Duration;
import java.util.Map;

/**
 * p50, p70 and p90 of every {@link WorkloadMetric} of one subject over one sliding window.
 *
 * @param window the window length
 * @param paneStartMs start of the data the values cover (null when there is none)
 * @param lastSampleMs the newest sample's window start (null when there is none)
 * @param samples samples folded into these values
 * @param values per metric: {p50, p70, p90}
 */
public record WindowPercentiles(Duration window, Long paneStartMs, Long lastSampleMs, long samples,
                                Map<WorkloadMetric, double[]> values) {
}
