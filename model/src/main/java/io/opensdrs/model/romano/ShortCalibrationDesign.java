package io.opensdrs.model.romano;

import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The short calibration design the host agent's injector runs on an idle datastore so that the
 * server can fit a calibrated Romano model (SPEC §3.3's calibration data, run by the injector, at
 * least ten times fewer workloads than the 1,600 Romano §4.1 plays), and that the benchmarks fit
 * Romano from when they ask what the agent's design gives. One definition, here, so that the
 * agent and the benchmarks run the same points.
 *
 * <p>X and R keep Romano's five levels (Eqs. 12–13: 0, 25, 50, 75, 100 %): with three, the fit
 * interpolates linearly between a write-bound and a read-only device exactly where production
 * mixes lie (R 67–98 %, Romano Table 7). O keeps three levels, 1, 4 and 16: latency is flat in O
 * on an array until its spindles are busy and linear beyond (Pesto Eq. 1), a bend two levels cannot
 * place. Z keeps only its ends, 4 KiB and 1 MiB (Romano Table 7's largest workloads): a device's
 * time per IO is a fixed cost plus a transfer time proportional to Z (BASIL Eq. 1's (K2 + Z)), a
 * line that two sizes fix, and Romano's terms are linear in Z. 5 × 5 × 2 × 3 = 150 points.
 */
public final class ShortCalibrationDesign {

    /** Romano's five levels of R and of X (Eqs. 12–13), as fractions. */
    public static final double[] FIVE_LEVELS = {0, 0.25, 0.5, 0.75, 1};
    public static final double[] SIZES_KB = {4, 1024};
    public static final double[] OUTSTANDING_IOS = {1, 4, 16};

    private ShortCalibrationDesign() {
    }

    /** The design in a fixed order: X, then R, then Z, then O. */
    public static List<Workload> points() {
        List<Workload> out = new ArrayList<>();
        for (double x : FIVE_LEVELS) {
            for (double r : FIVE_LEVELS) {
                for (double z : SIZES_KB) {
                    for (double o : OUTSTANDING_IOS) {
                        out.add(new Workload(o, z, r, x));
                    }
                }
            }
        }
        return out;
    }

    /**
     * The design in the order the agent runs it, spread over idle periods: shuffled with a fixed
     * seed, so that any prefix already spans R and X (what {@link RomanoModel#isCalibrated} asks of
     * a fit) and a design cut short by a busy datastore is not all writes or all sequential IO.
     */
    public static List<Workload> runOrder() {
        List<Workload> out = points();
        SplittableRandom random = new SplittableRandom(0x5D125L);
        for (int i = out.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Workload t = out.get(i);
            out.set(i, out.get(j));
            out.set(j, t);
        }
        return out;
    }
}
