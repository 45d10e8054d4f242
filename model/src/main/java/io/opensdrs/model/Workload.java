package io.opensdrs.model;

/**
 * The four workload characteristics every seed paper uses: outstanding IOs O, IO size Z,
 * read fraction R and randomness X (BASIL Eq. 1, Romano Table 1).
 *
 * <p>R and X are fractions in [0, 1]; each model converts them to the units its paper
 * fits in (BASIL divides percentages by 100, Romano uses percentages and bytes).
 *
 * @param outstandingIos O, the mean number of IOs in flight (≥ 0)
 * @param ioSizeKb Z, mean IO size in KiB (&gt; 0)
 * @param readFraction R, share of reads in [0, 1]
 * @param randomFraction X, share of random (non-sequential) IOs in [0, 1]
 */
public record Workload(double outstandingIos, double ioSizeKb, double readFraction, double randomFraction) {

    public Workload {
        if (!(outstandingIos >= 0) || Double.isInfinite(outstandingIos)) {
            throw new IllegalArgumentException("outstanding IOs (oio) must be a finite number >= 0, got " + outstandingIos);
        }
        if (!(ioSizeKb > 0) || Double.isInfinite(ioSizeKb)) {
            throw new IllegalArgumentException("IO size (io_size_kb) must be > 0, got " + ioSizeKb);
        }
        if (!(readFraction >= 0 && readFraction <= 1)) {
            throw new IllegalArgumentException("read fraction (read_pct/100) must be in [0, 1], got " + readFraction);
        }
        if (!(randomFraction >= 0 && randomFraction <= 1)) {
            throw new IllegalArgumentException("random fraction (random_pct/100) must be in [0, 1], got " + randomFraction);
        }
    }

    /** Pesto's injector workload: 4 KiB random reads at {@code oio} outstanding IOs (Pesto §5.1). */
    public static Workload randomRead4k(double oio) {
        return new Workload(oio, 4, 1, 1);
    }

    public Workload withOutstandingIos(double oio) {
        return new Workload(oio, ioSizeKb, readFraction, randomFraction);
    }
}
