package io.opensdrs.server.stats;

/** The percentiles are being rebuilt after a start ({@link StatisticsWarmup}): the API answers 503. */
public class StatisticsWarmingException extends RuntimeException {

    private final long replayedSamples;

    public StatisticsWarmingException(long replayedSamples) {
        super("the percentile windows are being rebuilt from the stored statistics after the server's start ("
                + replayedSamples + " samples replayed so far); retry shortly");
        this.replayedSamples = replayedSamples;
    }

    public long replayedSamples() {
        return replayedSamples;
    }
}
