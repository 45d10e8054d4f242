package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.IncrementalAggregation;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;

/**
 * The workloads on one datastore and what its model predicts for them, kept incrementally so
 * that a balancing run evaluates a candidate move without re-aggregating every disk, which a
 * cluster of thousands of disks could not afford per candidate. The model aggregates them its own way
 * ({@link DatastoreModel#incrementalAggregation}); this class adds the version callers cache
 * by and reads a prediction below zero on the model's LQ line.
 * Not thread-safe; one per datastore per run.
 */
public final class DatastoreLoad {

    private static final int[] NONE = new int[0];

    private final DatastoreModel model;
    private final Workload[] workloads;
    private final IncrementalAggregation aggregation;
    private Prediction current;
    private long version;

    private DatastoreLoad(DatastoreModel model, Workload[] workloads, IncrementalAggregation aggregation) {
        this.model = model;
        this.workloads = workloads;
        this.aggregation = aggregation;
    }

    /** A load for {@code model} holding {@code members} (indices into {@code workloads}, the cluster's disks). */
    public static DatastoreLoad of(DatastoreModel model, Workload[] workloads, int[] members) {
        DatastoreLoad load = new DatastoreLoad(model, workloads, model.incrementalAggregation(workloads));
        load.apply(members, NONE);
        return load;
    }

    public DatastoreModel model() {
        return model;
    }

    /** Changes whenever the load changes; lets callers cache per-datastore values. */
    public long version() {
        return version;
    }

    /** The model's prediction for the workloads on the datastore now. */
    public Prediction current() {
        if (current == null) {
            current = predictWith(NONE, NONE, null);
        }
        return current;
    }

    /** Prediction if {@code add} arrived, {@code remove} left and {@code extra} (may be null) also ran. */
    public Prediction predictWith(int[] add, int[] remove, Workload extra) {
        int[] a = add == null ? NONE : add;
        int[] r = remove == null ? NONE : remove;
        Prediction prediction = aggregation.predict(a, r, extra);
        if (prediction.latencyMs() >= 0) {
            return prediction;
        }
        // A fitted regression (Romano's P = O·M'_W·M_S) can extrapolate below zero for a mix
        // outside its calibration design. A negative latency is no latency at all, and flooring it
        // at zero would make that datastore a sink that a merit minimizer fills. Read the model as
        // its LQ line instead (DatastoreModel.lqLine, as the default-model rule does): positive,
        // growing in O. The model is outside its validity there, so the line value is not certain:
        // it keeps the regression's upper bound, so that the cost-benefit's bounds never read an
        // exact 0 ms there and send a heavy workload onto a datastore the model cannot judge.
        double q = outstandingIos() + outstandingOf(a) - outstandingOf(r)
                + (extra == null ? 0 : extra.outstandingIos());
        double line = Math.max(0, model.lqLine().latencyMs(Math.max(0, q)));
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

    public void apply(int[] add, int[] remove) {
        aggregation.change(add == null ? NONE : add, remove == null ? NONE : remove);
        current = null;
        version++;
    }

    /** Outstanding IOs of the workloads on the datastore (Σ O). */
    public double outstandingIos() {
        return aggregation.outstandingIos();
    }

    /** An independent load holding the same workloads (version and cached prediction start afresh). */
    public DatastoreLoad copy() {
        return new DatastoreLoad(model, workloads, aggregation.copy());
    }
}
