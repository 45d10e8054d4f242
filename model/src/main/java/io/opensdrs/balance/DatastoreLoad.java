package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.basil.BasilModel;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.romano.RomanoAggregation;
import io.opensdrs.model.romano.RomanoModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The workloads on one datastore and what its model predicts for them, kept incrementally so
 * that a balancing run evaluates a candidate move without re-aggregating every disk (B3:
 * 9,000 disks × 64 datastores). Each subclass follows its model's own aggregation:
 * <ul>
 *   <li>Pesto: O summed, Z/R/X weighted by O — running sums, O(1) per change;</li>
 *   <li>BASIL: Σ L_i / K5 (BASIL §4) — a running sum of workload metrics, O(1);</li>
 *   <li>Romano Eq. 24: the pairwise X fold (Eqs. 20–22) is order dependent, so adding folds
 *       on in O(1) and removing refolds the rest, O(n);</li>
 *   <li>any other model: re-aggregated by the model, O(n).</li>
 * </ul>
 * Not thread-safe; one per datastore per run.
 */
public abstract class DatastoreLoad {

    private static final int[] NONE = new int[0];

    protected final DatastoreModel model;
    protected final Workload[] workloads;
    private Prediction current;
    private long version;

    protected DatastoreLoad(DatastoreModel model, Workload[] workloads) {
        this.model = model;
        this.workloads = workloads;
    }

    /** A load for {@code model} holding {@code members} (indices into {@code workloads}, the cluster's disks). */
    public static DatastoreLoad of(DatastoreModel model, Workload[] workloads, int[] members) {
        DatastoreLoad load;
        if (model instanceof LqSlopeModel) {
            load = new OioWeightedLoad(model, workloads);
        } else if (model instanceof BasilModel) {
            load = new BasilMetricLoad((BasilModel) model, workloads);
        } else if (model instanceof RomanoModel) {
            load = new RomanoFoldLoad((RomanoModel) model, workloads);
        } else {
            load = new ReaggregatedLoad(model, workloads);
        }
        load.apply(members, NONE);
        return load;
    }

    public final DatastoreModel model() {
        return model;
    }

    /** Changes whenever the load changes; lets callers cache per-datastore values. */
    public final long version() {
        return version;
    }

    /** The model's prediction for the workloads on the datastore now. */
    public final Prediction current() {
        if (current == null) {
            current = predictWith(NONE, NONE, null);
        }
        return current;
    }

    /** Prediction if {@code add} arrived, {@code remove} left and {@code extra} (may be null) also ran. */
    public final Prediction predictWith(int[] add, int[] remove, Workload extra) {
        int[] a = add == null ? NONE : add;
        int[] r = remove == null ? NONE : remove;
        Prediction prediction = predict(a, r, extra);
        if (prediction.latencyMs() >= 0) {
            return prediction;
        }
        // A fitted regression (Romano's P = O·M'_W·M_S) can extrapolate below zero for a mix
        // outside its calibration design. A negative latency is no latency at all, and flooring it
        // at zero would make that datastore a sink that a merit minimizer fills. Read the model as
        // its LQ line instead (LinearizedLine, as the default-model rule does): positive, growing in O.
        // The model is outside its validity there, so the line value is not certain: it keeps the
        // regression's upper bound (found by B2: a read-heavy mix predicted below zero on N1 came
        // back as an exact 0 ms, and the cost-benefit bounds let that datastore take a
        // sequential-write log that measured 58 ms there).
        double q = outstandingIos() + outstandingOf(a) - outstandingOf(r)
                + (extra == null ? 0 : extra.outstandingIos());
        double line = Math.max(0, LinearizedLine.of(model).latencyMs(Math.max(0, q)));
        Interval raw = prediction.latencyInterval().orElse(null);
        Interval kept = raw == null ? null : new Interval(0, Math.max(raw.upper(), line), raw.confidence());
        return Prediction.of(Math.max(0, q), line, kept);
    }

    private double outstandingOf(int[] disks) {
        double sum = 0;
        for (int i : disks) {
            sum += workloads[i].outstandingIos();
        }
        return sum;
    }

    public final void apply(int[] add, int[] remove) {
        change(add == null ? NONE : add, remove == null ? NONE : remove);
        current = null;
        version++;
    }

    /** Outstanding IOs of the workloads on the datastore (Σ O). */
    public abstract double outstandingIos();

    public abstract DatastoreLoad copy();

    protected abstract Prediction predict(int[] add, int[] remove, Workload extra);

    protected abstract void change(int[] add, int[] remove);

    /** An empty datastore still has a device: a model sees a zero-OIO 4 KiB random read. */
    protected static final Workload IDLE = Workload.randomRead4k(0);

    /** Pesto's aggregation kept as running sums of O, O·Z, O·R, O·X (and plain sums for O = 0). */
    static final class OioWeightedLoad extends DatastoreLoad {
        private double n;
        private double o;
        private double oz;
        private double or;
        private double ox;
        private double z;
        private double r;
        private double x;

        OioWeightedLoad(DatastoreModel model, Workload[] workloads) {
            super(model, workloads);
        }

        @Override
        public double outstandingIos() {
            return o;
        }

        @Override
        protected Prediction predict(int[] add, int[] remove, Workload extra) {
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
        protected void change(int[] add, int[] remove) {
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
        public DatastoreLoad copy() {
            OioWeightedLoad c = new OioWeightedLoad(model, workloads);
            c.change(new int[0], new int[0]);
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

    /** BASIL: latency = Σ L_i / K5 with L_i the workload metric (numerator of BASIL Eq. 1). */
    static final class BasilMetricLoad extends DatastoreLoad {
        private final BasilModel basil;
        private double sumMetric;
        private double o;

        BasilMetricLoad(BasilModel model, Workload[] workloads) {
            super(model, workloads);
            this.basil = model;
        }

        @Override
        public double outstandingIos() {
            return o;
        }

        @Override
        protected Prediction predict(int[] add, int[] remove, Workload extra) {
            double l = sumMetric;
            double q = o;
            for (int i : add) {
                l += basil.metric().of(workloads[i]);
                q += workloads[i].outstandingIos();
            }
            for (int i : remove) {
                l -= basil.metric().of(workloads[i]);
                q -= workloads[i].outstandingIos();
            }
            if (extra != null) {
                l += basil.metric().of(extra);
                q += extra.outstandingIos();
            }
            return Prediction.of(Math.max(0, q), Math.max(0, l) / basil.k5(), null);
        }

        @Override
        protected void change(int[] add, int[] remove) {
            for (int i : add) {
                sumMetric += basil.metric().of(workloads[i]);
                o += workloads[i].outstandingIos();
            }
            for (int i : remove) {
                sumMetric -= basil.metric().of(workloads[i]);
                o -= workloads[i].outstandingIos();
            }
        }

        @Override
        public DatastoreLoad copy() {
            BasilMetricLoad c = new BasilMetricLoad(basil, workloads);
            c.sumMetric = sumMetric;
            c.o = o;
            return c;
        }
    }

    /** Members kept in order, for the models whose aggregation needs them all. */
    abstract static class MemberListLoad extends DatastoreLoad {
        protected int[] members = new int[8];
        protected int size;

        MemberListLoad(DatastoreModel model, Workload[] workloads) {
            super(model, workloads);
        }

        @Override
        protected void change(int[] add, int[] remove) {
            if (remove.length > 0) {
                int w = 0;
                for (int k = 0; k < size; k++) {
                    if (!contains(remove, members[k])) {
                        members[w++] = members[k];
                    }
                }
                size = w;
            }
            for (int i : add) {
                if (size == members.length) {
                    members = Arrays.copyOf(members, size * 2);
                }
                members[size++] = i;
            }
            rebuild();
        }

        protected void rebuild() {
        }

        static boolean contains(int[] a, int v) {
            for (int x : a) {
                if (x == v) {
                    return true;
                }
            }
            return false;
        }

        void copyMembersTo(MemberListLoad c) {
            c.members = Arrays.copyOf(members, Math.max(8, members.length));
            c.size = size;
        }
    }

    /**
     * Romano Eq. 24 folded incrementally as {@link RomanoAggregation#aggregate} reads it: O summed,
     * Z and R weighted by outstanding IOs, X folded pairwise with T = 1/LQ-slope (Eqs. 18, 20–22).
     * T per disk is cached: it depends only on the disk's workload and this datastore's model.
     */
    static final class RomanoFoldLoad extends MemberListLoad {
        private final RomanoModel romano;
        private final double[] throughput;
        private double o;
        private double t;
        private double m;
        private double mz;
        private double mr;
        private double x = Double.NaN;

        RomanoFoldLoad(RomanoModel model, Workload[] workloads) {
            super(model, workloads);
            this.romano = model;
            this.throughput = new double[workloads.length];
            Arrays.fill(throughput, Double.NaN);
        }

        private RomanoFoldLoad(RomanoFoldLoad other) {
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
                v = throughputOf(workloads[i]);
                throughput[i] = v;
            }
            return v;
        }

        // T as RomanoModel.aggregate weighs it (Little's law; 1/LQ-slope when every term holds O).
        private double throughputOf(Workload w) {
            return romano.throughput(w);
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
            double weight = RomanoAggregation.mixWeight(w);
            s[0] += w.outstandingIos();
            s[1] += ti;
            s[2] += weight * w.ioSizeKb();
            s[3] += weight * w.readFraction();
            s[5] += weight;
            return s;
        }

        @Override
        protected Prediction predict(int[] add, int[] remove, Workload extra) {
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
                fold(s, extra, throughputOf(extra));
            }
            if (s[1] <= 0) {
                return model.predict(IDLE);
            }
            Workload w = new Workload(s[0], Math.max(1e-9, s[2] / s[5]), clamp(s[3] / s[5]), clamp(s[4]));
            return model.predict(w);
        }

        @Override
        public DatastoreLoad copy() {
            return new RomanoFoldLoad(this);
        }
    }

    /** Any other model: its own {@link DatastoreModel#aggregate} over the member list. */
    static final class ReaggregatedLoad extends MemberListLoad {
        private double o;

        ReaggregatedLoad(DatastoreModel model, Workload[] workloads) {
            super(model, workloads);
        }

        @Override
        public double outstandingIos() {
            return o;
        }

        @Override
        protected void rebuild() {
            o = 0;
            for (int k = 0; k < size; k++) {
                o += workloads[members[k]].outstandingIos();
            }
        }

        @Override
        protected Prediction predict(int[] add, int[] remove, Workload extra) {
            List<Workload> list = new ArrayList<>(size + add.length + 1);
            for (int k = 0; k < size; k++) {
                if (!contains(remove, members[k])) {
                    list.add(workloads[members[k]]);
                }
            }
            for (int i : add) {
                list.add(workloads[i]);
            }
            if (extra != null) {
                list.add(extra);
            }
            return list.isEmpty() ? model.predict(IDLE) : model.predict(list);
        }

        @Override
        public DatastoreLoad copy() {
            ReaggregatedLoad c = new ReaggregatedLoad(model, workloads);
            copyMembersTo(c);
            c.o = o;
            return c;
        }
    }

    static double clamp(double v) {
        return Math.min(1, Math.max(0, v));
    }
}
