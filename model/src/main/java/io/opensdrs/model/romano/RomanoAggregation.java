package io.opensdrs.model.romano;

import io.opensdrs.model.Workload;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Romano's aggregation model (Romano Eq. 24): O is summed; X comes from Eqs. 20–22 applied
 * pairwise with each workload's throughput T = 1/LQ-slope; R and Z are averaged weighted by
 * each workload's outstanding IOs — where Eq. 24 weighs them by T (beyond the seed, see below).
 *
 * <p><b>Why O and not T for Z and R.</b> Every term of Romano's model holds O (Eq. 17), so the
 * model's Z- and R-terms are O·Z and O·R, and for a mix Σ_i O_i·Z_i = O·Z̄ exactly when Z̄ is
 * the O-weighted mean: the device's queue holds O_i IOs of each workload, whatever their rates.
 * Weighting by T counts a 1 MiB stream that fills an SSD's link at 500 IOPS as one IO in a
 * hundred beside 4 KiB reads at 50,000 IOPS, so the mix is predicted as small reads and a
 * device that large IOs move onto is predicted far faster than it runs.
 * X keeps T: interleaving destroys sequentiality by how often each stream's IOs arrive.
 * {@code sdrs bench b1 --mixes N} measures both weightings on mixes run together in the testbed;
 * its numbers and the reading of them are in the src-test README (B1), and
 * {@code RomanoAggregationTest} holds the one-IO-at-a-time device on which only O is exact.
 *
 * <p>Eqs. 20–22 as SPEC §3.3 reads them (Eq. 20 as printed multiplies where the text says
 * "throughput weighted average"; Eq. 23 as printed is garbled):
 * <pre>
 *   seq̄    = (seq₁·T₁ + seq₂·T₂)/(T₁ + T₂)          (Eq. 20, seq = 1 − X)
 *   %lseek = min(T₁, T₂)/(T₁ + T₂) · 2 · seq̄          (Eq. 22)
 *   seq    = seq̄ − seq̄ · %lseek                         (Eq. 21)
 *   X      = 1 − seq
 * </pre>
 * The lseek term is what makes interleaving streams destroy sequentiality: two equally fast
 * sequential streams become fully random, and a sequential stream mixed with an equally
 * fast random one keeps a quarter of its sequentiality rather than the half a plain mean
 * would give.
 */
public final class RomanoAggregation {

    private RomanoAggregation() {
    }

    /** X of two workloads aggregated, randomness as fractions in [0, 1], T in any common unit. */
    public static double randomness(double x1, double x2, double t1, double t2) {
        if (!(t1 > 0 && t2 > 0)) {
            throw new IllegalArgumentException("throughputs must be > 0, got " + t1 + " and " + t2);
        }
        double seqMean = ((1 - x1) * t1 + (1 - x2) * t2) / (t1 + t2);
        double lseek = Math.min(t1, t2) / (t1 + t2) * 2 * seqMean;
        double seq = seqMean - seqMean * lseek;
        return 1 - seq;
    }

    /** What a workload's Z and R weigh in the mix's means. */
    public enum Weighting {
        /** By each workload's outstanding IOs, O_i (the product's, {@link #MIX}). */
        OUTSTANDING_IOS,
        /** By each workload's throughput, T_i (Eq. 24 as printed). */
        THROUGHPUT;

        /**
         * The weight of a workload of throughput {@code t}; the tiny constant gives workloads with
         * nothing in flight their plain mean when no workload has any.
         */
        public double of(Workload w, double t) {
            return (this == OUTSTANDING_IOS ? w.outstandingIos() : t) + 1e-9;
        }
    }

    /** The weighting the product aggregates with ({@link #aggregate(List, ToDoubleFunction)}, {@link RomanoFold}). */
    public static final Weighting MIX = Weighting.OUTSTANDING_IOS;

    /** Eq. 24 over any number of workloads, Z and R weighted by {@link #MIX}, f_X folded in pairwise (as the paper says). */
    public static Workload aggregate(List<Workload> workloads, ToDoubleFunction<Workload> throughput) {
        return aggregate(workloads, throughput, MIX);
    }

    /** Eq. 24 over any number of workloads with Z and R weighted by {@code weighting}. */
    public static Workload aggregate(List<Workload> workloads, ToDoubleFunction<Workload> throughput, Weighting weighting) {
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("nothing to aggregate: no workloads");
        }
        double o = 0;
        double weights = 0;
        double z = 0;
        double r = 0;
        double x = Double.NaN;
        double tSoFar = 0;
        for (Workload w : workloads) {
            double t = throughput.applyAsDouble(w);
            double m = weighting.of(w, t);
            o += w.outstandingIos();
            weights += m;
            z += m * w.ioSizeKb();
            r += m * w.readFraction();
            x = Double.isNaN(x) ? w.randomFraction() : randomness(x, w.randomFraction(), tSoFar, t);
            tSoFar += t;
        }
        return new Workload(o, z / weights, Math.min(1, r / weights), Math.min(1, Math.max(0, x)));
    }
}
