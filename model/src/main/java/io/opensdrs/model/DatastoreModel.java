package io.opensdrs.model;

import java.util.List;

/**
 * A datastore performance model (SPEC §3): fitted from observations of one datastore, it
 * predicts the latency the datastore gives a set of workloads placed on it and says how
 * those workloads combine. BASIL, Pesto, Romano and the queueing model all implement it.
 *
 * <p>Instances are mutable: {@link #fit} replaces whatever an earlier fit learnt. They are
 * not thread-safe; make one per datastore.
 */
public interface DatastoreModel {

    /** The registry name: {@code basil}, {@code pesto}, {@code romano} or {@code queueing}. */
    String name();

    /**
     * Fits the model to observations of one datastore.
     *
     * @throws IllegalArgumentException when the observations cannot support the model
     *     (too few points, no variation in a needed characteristic, a failed quality gate)
     */
    FitSummary fit(List<Observation> observations);

    boolean isFitted();

    /** Combines workloads placed together into the one workload the datastore sees. */
    Workload aggregate(List<Workload> workloads);

    /** The datastore's latency when {@code workloads} run on it together. */
    default Prediction predict(List<Workload> workloads) {
        return predict(aggregate(workloads));
    }

    /** The datastore's latency for one (possibly aggregated) workload. */
    Prediction predict(Workload workload);
}
