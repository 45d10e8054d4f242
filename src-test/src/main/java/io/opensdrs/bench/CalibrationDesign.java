package io.opensdrs.bench;

import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.ShortCalibrationDesign;

import java.util.ArrayList;
import java.util.List;

/**
 * The workloads each model is calibrated or scored on: what a real system would run on a
 * datastore to build that model.
 */
public final class CalibrationDesign {
    private static final double[] FIVE_LEVELS = {0, 0.25, 0.5, 0.75, 1};
    private static final double[] SIZES_KB = {1, 2, 4, 8, 16, 32, 64};
    private static final double[] OIOS = {1, 2, 4, 8, 16, 32, 64};

    private CalibrationDesign() {
    }

    /**
     * Romano's test vector (Eqs. 12–15): X, R ∈ {0, 25, 50, 75, 100} %, Z ∈ {1..64} KB,
     * O ∈ {1..64}: 1,225 points. It is both what Romano's model is calibrated from (§4.1: "Romano
     * model generation currently plays 1600 workloads against each data store to create an
     * initial model"; SPEC §3.3) and what Table 5 scores; B1 measures it twice, in separate runs.
     */
    public static List<Workload> romanoTestVector() {
        return grid(FIVE_LEVELS, FIVE_LEVELS, SIZES_KB, OIOS);
    }

    /**
     * Romano's calibration for balancing (B2): Romano's own five levels of X and R (Eqs. 12–13:
     * 0, 25, 50, 75, 100 %), IO sizes 4 KiB, 64 KiB and the 1 MiB of Romano Table 7's largest
     * workloads that the worlds run (Romano updates its model from production statistics, §3; a
     * model fitted only to 1–64 KiB would extrapolate sixteenfold), O ∈ {1, 4, 16}: 225 points.
     * With three levels of X and R (81 points) the fit interpolates linearly between R = 50 %
     * and R = 100 % — between a write-bound and a read-only device — exactly where the Table 7
     * workloads lie (R 67–98 %), and its predictions for them were off by a factor of 2–3.
     */
    public static List<Workload> romanoBalancingCalibration() {
        return grid(FIVE_LEVELS, FIVE_LEVELS, new double[] {4, 64, 1024}, new double[] {1, 4, 16});
    }

    /**
     * The short design the host agent's injector runs for Romano in idle periods (the model
     * module's {@link ShortCalibrationDesign}: X, R five levels, Z 4 KiB and 1 MiB, O 1, 4, 16;
     * 150 points), so that a benchmark fits Romano from what the product measures.
     */
    public static List<Workload> romanoAgentCalibration() {
        return ShortCalibrationDesign.points();
    }

    /**
     * The host agent's injector: Pesto's 4 KiB random reads at OIO 2, 4, 8, 16, 32 (§5.1), then
     * the same levels at each further size the agent runs by default (256 KiB), from which the LQ
     * model learns how much IO size weighs on the device ({@link LqSlopeModel}).
     */
    public static List<Workload> pestoInjector() {
        List<Workload> out = new ArrayList<>();
        for (double z : LqSlopeModel.injectorIoSizesKb()) {
            for (int q = 2; q <= 32; q *= 2) {
                out.add(new Workload(q, z, 1, 1));
            }
        }
        return out;
    }

    /**
     * BASIL's pairs (Eqs. 2–3): one characteristic varied at a time around a base workload
     * (O 4, Z 8 KiB, R 50 %, X 50 %), so every pair differing in one characteristic yields
     * a K estimate.
     */
    public static List<Workload> basilPairs() {
        List<Workload> out = new ArrayList<>();
        Workload base = new Workload(4, 8, 0.5, 0.5);
        for (double o : new double[] {1, 2, 4, 8, 16, 32, 64}) {
            out.add(base.withOutstandingIos(o));
        }
        for (double z : new double[] {1, 4, 16, 64}) {
            if (z != base.ioSizeKb()) {
                out.add(new Workload(4, z, 0.5, 0.5));
            }
        }
        for (double r : new double[] {0, 0.25, 0.75, 1}) {
            out.add(new Workload(4, 8, r, 0.5));
        }
        for (double x : new double[] {0, 0.25, 0.75, 1}) {
            out.add(new Workload(4, 8, 0.5, x));
        }
        return out;
    }

    /**
     * The queueing model's calibration (Noorshams §IV): per request class (random /
     * sequential × read / write) threads t ∈ {1..64} × request sizes {1, 8, 64} KiB: 84 points.
     */
    public static List<Workload> queueingCalibration() {
        List<Workload> out = new ArrayList<>();
        for (double x : new double[] {0, 1}) {
            for (double r : new double[] {0, 1}) {
                for (double z : new double[] {1, 8, 64}) {
                    for (double o : OIOS) {
                        out.add(new Workload(o, z, r, x));
                    }
                }
            }
        }
        return out;
    }

    private static List<Workload> grid(double[] xs, double[] rs, double[] zs, double[] os) {
        List<Workload> out = new ArrayList<>();
        for (double x : xs) {
            for (double r : rs) {
                for (double z : zs) {
                    for (double o : os) {
                        out.add(new Workload(o, z, r, x));
                    }
                }
            }
        }
        return out;
    }
}
