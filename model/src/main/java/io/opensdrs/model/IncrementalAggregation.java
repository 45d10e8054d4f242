package io.opensdrs.model;

/**
 * The workloads placed on one datastore, aggregated as its model aggregates them and kept so
 * that adding or removing one costs less than aggregating them all again: a balancer tries
 * thousands of moves over thousands of disks. Each model gives its own through
 * {@link DatastoreModel#incrementalAggregation}; the workloads are named by their index into an
 * array shared by every datastore of the cluster.
 *
 * <p>Not thread-safe; one per datastore per balancing run.
 */
public abstract class IncrementalAggregation {

    /** An empty datastore still has a device: a model sees a zero-OIO 4 KiB random read. */
    protected static final Workload IDLE = Workload.randomRead4k(0);

    protected final DatastoreModel model;
    protected final Workload[] workloads;

    protected IncrementalAggregation(DatastoreModel model, Workload[] workloads) {
        this.model = model;
        this.workloads = workloads;
    }

    /** Outstanding IOs of the workloads held (Σ O). */
    public abstract double outstandingIos();

    /**
     * The model's prediction if the workloads {@code add} arrived, {@code remove} left and
     * {@code extra} (may be null) also ran; nothing held changes. The arrays are never null.
     */
    public abstract Prediction predict(int[] add, int[] remove, Workload extra);

    /** Adds the workloads {@code add} and removes {@code remove} (arrays never null). */
    public abstract void change(int[] add, int[] remove);

    /** An independent aggregation holding the same workloads. */
    public abstract IncrementalAggregation copy();

    protected static double clamp(double v) {
        return Math.min(1, Math.max(0, v));
    }
}
