package io.opensdrs.model.romano;

import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.MemberListAggregation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;

import java.util.Arrays;

/**
 * Romano Eq. 24 folded incrementally as {@link RomanoAggregation#aggregate} reads it: O summed,
 * Z and R weighted by {@link RomanoAggregation#MIX}, X folded pairwise with T = 1/LQ-slope (Eqs. 18, 20–22).
 * The pairwise X fold is order dependent, so adding a workload folds it on in O(1) and removing
 * one refolds the rest, O(n). T per workload is cached: it depends only on the workload and this
 * datastore's model.
 */
final class RomanoFold extends MemberListAggregation {

    private final RomanoModel romano;
    private final double[] throughput;
    private double o;
    private double t;
    private double m;
    private double mz;
    private double mr;
    private double x = Double.NaN;

    RomanoFold(RomanoModel model, Workload[] workloads) {
        super(model, workloads);
        this.romano = model;
        this.throughput = new double[workloads.length];
        Arrays.fill(throughput, Double.NaN);
    }

    private RomanoFold(RomanoFold other) {
        super(other.romano, other.workloads);
        this.romano = other.romano;
        this.throughput = other.throughput;
        other.copyMembersTo(this);
        o = other.o;
        t = other.t;
        m = other.m;
        mz = other.mz;
        mr = other.mr;
        x = other.x;
    }

    private double throughputOf(int i) {
        double v = throughput[i];
        if (Double.isNaN(v)) {
            v = romano.throughput(workloads[i]);
            throughput[i] = v;
        }
        return v;
    }

    @Override
    public double outstandingIos() {
        return o;
    }

    @Override
    protected void rebuild() {
        o = 0;
        t = 0;
        mz = 0;
        mr = 0;
        m = 0;
        x = Double.NaN;
        for (int k = 0; k < size; k++) {
            int i = members[k];
            double[] s = fold(new double[] {o, t, mz, mr, x, m}, workloads[i], throughputOf(i));
            o = s[0];
            t = s[1];
            mz = s[2];
            mr = s[3];
            x = s[4];
            m = s[5];
        }
    }

    private static double[] fold(double[] s, Workload w, double ti) {
        s[4] = Double.isNaN(s[4]) ? w.randomFraction() : RomanoAggregation.randomness(s[4], w.randomFraction(), s[1], ti);
        double weight = RomanoAggregation.MIX.of(w, ti);
        s[0] += w.outstandingIos();
        s[1] += ti;
        s[2] += weight * w.ioSizeKb();
        s[3] += weight * w.readFraction();
        s[5] += weight;
        return s;
    }

    @Override
    public Prediction predict(int[] add, int[] remove, Workload extra) {
        double[] s;
        if (remove.length == 0) {
            s = new double[] {o, t, mz, mr, x, m};
        } else {
            s = new double[] {0, 0, 0, 0, Double.NaN, 0};
            for (int k = 0; k < size; k++) {
                int i = members[k];
                if (!contains(remove, i)) {
                    fold(s, workloads[i], throughputOf(i));
                }
            }
        }
        for (int i : add) {
            fold(s, workloads[i], throughputOf(i));
        }
        if (extra != null) {
            fold(s, extra, romano.throughput(extra));
        }
        if (s[1] <= 0) {
            return model.predict(IDLE);
        }
        Workload w = new Workload(s[0], Math.max(1e-9, s[2] / s[5]), clamp(s[3] / s[5]), clamp(s[4]));
        return model.predict(w);
    }

    @Override
    public IncrementalAggregation copy() {
        return new RomanoFold(this);
    }
}
