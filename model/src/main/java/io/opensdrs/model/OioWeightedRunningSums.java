package io.opensdrs.model;

/**
 * {@link OioWeightedAggregation} kept incrementally: running sums of O, O·Z, O·R and O·X (and
 * plain sums of Z, R, X for a set whose O is zero), so a change or a prediction costs O(1) per
 * workload added or removed, whatever the datastore holds. Pesto's aggregation.
 */
public final class OioWeightedRunningSums extends IncrementalAggregation {

    private double n;
    private double o;
    private double oz;
    private double or;
    private double ox;
    private double z;
    private double r;
    private double x;

    public OioWeightedRunningSums(DatastoreModel model, Workload[] workloads) {
        super(model, workloads);
    }

    @Override
    public double outstandingIos() {
        return o;
    }

    @Override
    public Prediction predict(int[] add, int[] remove, Workload extra) {
        double[] s = sumsWith(add, remove);
        if (extra != null) {
            accumulate(s, extra, 1);
        }
        return model.predict(aggregate(s));
    }

    /** The running sums as they would be with {@code add} placed here and {@code remove} taken away. */
    private double[] sumsWith(int[] add, int[] remove) {
        double[] s = {n, o, oz, or, ox, z, r, x};
        for (int i : add) {
            accumulate(s, workloads[i], 1);
        }
        for (int i : remove) {
            accumulate(s, workloads[i], -1);
        }
        return s;
    }

    private static void accumulate(double[] s, Workload w, int sign) {
        double wo = w.outstandingIos();
        s[0] += sign;
        s[1] += sign * wo;
        s[2] += sign * wo * w.ioSizeKb();
        s[3] += sign * wo * w.readFraction();
        s[4] += sign * wo * w.randomFraction();
        s[5] += sign * w.ioSizeKb();
        s[6] += sign * w.readFraction();
        s[7] += sign * w.randomFraction();
    }

    private static Workload aggregate(double[] s) {
        if (s[0] < 0.5) {
            return IDLE;
        }
        double o = Math.max(0, s[1]);
        if (o < 1e-12) {
            return new Workload(0, Math.max(1e-9, s[5] / s[0]), clamp(s[6] / s[0]), clamp(s[7] / s[0]));
        }
        return new Workload(o, Math.max(1e-9, s[2] / o), clamp(s[3] / o), clamp(s[4] / o));
    }

    @Override
    public void change(int[] add, int[] remove) {
        double[] s = sumsWith(add, remove);
        n = s[0];
        o = s[1];
        oz = s[2];
        or = s[3];
        ox = s[4];
        z = s[5];
        r = s[6];
        x = s[7];
    }

    @Override
    public IncrementalAggregation copy() {
        OioWeightedRunningSums c = new OioWeightedRunningSums(model, workloads);
        c.n = n;
        c.o = o;
        c.oz = oz;
        c.or = or;
        c.ox = ox;
        c.z = z;
        c.r = r;
        c.x = x;
        return c;
    }
}
