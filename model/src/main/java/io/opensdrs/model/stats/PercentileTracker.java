package io.opensdrs.model.stats;

import org.apache.commons.math3.stat.descriptive.rank.PSquarePercentile;

import java.util.Arrays;

/**
 * Online percentiles of one metric stream with the P² algorithm (Jain and Chlamtac, as
 * Pesto §5.2 uses): constant memory per percentile, one Commons Math
 * {@link PSquarePercentile} per requested percentile.
 */
public final class PercentileTracker {

    /** The percentiles Pesto's cost-benefit analysis sums over (§5.4): 50th to 90th. */
    public static final double[] PESTO_PERCENTILES = {50, 60, 70, 80, 90};

    private final double[] percentiles;
    private final PSquarePercentile[] estimators;
    private long count;

    public PercentileTracker(double... percentiles) {
        if (percentiles.length == 0) {
            throw new IllegalArgumentException("track at least one percentile");
        }
        this.percentiles = percentiles.clone();
        this.estimators = new PSquarePercentile[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            if (!(percentiles[i] > 0 && percentiles[i] <= 100)) {
                throw new IllegalArgumentException("percentile must be in (0, 100], got " + percentiles[i]);
            }
            estimators[i] = new PSquarePercentile(percentiles[i]);
        }
    }

    public void add(double value) {
        for (PSquarePercentile e : estimators) {
            e.increment(value);
        }
        count++;
    }

    public long count() {
        return count;
    }

    /** The current estimate of {@code percentile}, which must be one this tracker follows. */
    public double percentile(double percentile) {
        for (int i = 0; i < percentiles.length; i++) {
            if (percentiles[i] == percentile) {
                return estimators[i].getResult();
            }
        }
        throw new IllegalArgumentException("percentile " + percentile + " is not tracked; tracked: " + Arrays.toString(percentiles));
    }

    public double[] percentiles() {
        return percentiles.clone();
    }
}
