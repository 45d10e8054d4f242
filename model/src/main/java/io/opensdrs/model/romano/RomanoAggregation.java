package io.opensdrs.model.romano;

import io.opensdrs.model.Workload;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Romano's aggregation model (Romano Eq. 24): O is summed; R and Z are averaged weighted
 * by each workload's throughput T = 1/LQ-slope; X comes from Eqs. 20–22 applied pairwise.
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

    /** Eq. 24 over any number of workloads, f_X folded in pairwise (as the paper says). */
    public static Workload aggregate(List<Workload> workloads, ToDoubleFunction<Workload> throughput) {
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("nothing to aggregate: no workloads");
        }
        double o = 0;
        double tSum = 0;
        double z = 0;
        double r = 0;
        double x = Double.NaN;
        double tSoFar = 0;
        for (Workload w : workloads) {
            double t = throughput.applyAsDouble(w);
            o += w.outstandingIos();
            tSum += t;
            z += t * w.ioSizeKb();
            r += t * w.readFraction();
            x = Double.isNaN(x) ? w.randomFraction() : randomness(x, w.randomFraction(), tSoFar, t);
            tSoFar += t;
        }
        return new Workload(o, z / tSum, Math.min(1, r / tSum), Math.min(1, Math.max(0, x)));
    }
}
