package io.opensdrs.model;

import io.opensdrs.model.pesto.LinearizedLine;
import io.opensdrs.model.pesto.PestoQuantities;

import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * A datastore performance model (SPEC §3): fitted from observations of one datastore, it
 * predicts the latency the datastore gives a set of workloads placed on it and says how
 * those workloads combine. BASIL, Pesto, Romano and the queueing model all implement it.
 * What a balancer needs of a model beyond its predictions (how a datastore's disks aggregate
 * as they move, the model read as an LQ line, whether its fit spans write and sequential
 * mixes, an additive workload metric) each model answers here, so that a balancer never asks
 * which model it holds.
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

    /**
     * The workloads of one datastore aggregated as this model aggregates them, kept so that a
     * balancer adds and removes them one at a time; the aggregation starts empty and names
     * workloads by their index into {@code workloads}. By default every prediction aggregates
     * all of them again ({@link #predict(List)}, O(n)); a model whose aggregation has a cheaper
     * incremental form gives it.
     */
    default IncrementalAggregation incrementalAggregation(Workload[] workloads) {
        return new Reaggregation(this, workloads);
    }

    /**
     * This model read as a Pesto LQ line L = m·Q + C (Pesto Eq. 1) for 4 KiB random reads, so
     * that Pesto's derived quantities (Eqs. 4, 9, 12, 13, the default-model slope §5.1.3) apply
     * to it. By default the secant between OIO 2 and 32 ({@link LinearizedLine}); a model that
     * is such a line gives its own.
     */
    default PestoQuantities lqLine() {
        return LinearizedLine.secant(this);
    }

    /**
     * True when the fitted model's observations spanned read share and randomness, so that its
     * predictions for write and sequential mixes come from measured terms (Romano's calibration,
     * Romano Eqs. 12–13), not only from the injector's random reads. False by default: a model
     * that does not check the spread of what it was fitted to does not claim it.
     */
    default boolean isCalibrated() {
        return false;
    }

    /**
     * The per-workload metric L_i whose sum over co-located workloads this fitted model's latency
     * is proportional to (BASIL §4: Σ L_i / K5, L_i the numerator of BASIL Eq. 1); empty for a
     * model without one, or not fitted.
     */
    default Optional<ToDoubleFunction<Workload>> workloadMetric() {
        return Optional.empty();
    }

    /**
     * 1 − SSE/SST of this fitted model's latencies over the observations (0 when they do not
     * vary): the R² a {@link FitSummary} reports for models that are not a single regression.
     */
    default double rSquared(List<Observation> observations) {
        double mean = observations.stream().mapToDouble(Observation::latencyMs).average().orElse(0);
        double sse = 0;
        double sst = 0;
        for (Observation o : observations) {
            double r = o.latencyMs() - predict(o.workload()).latencyMs();
            sse += r * r;
            sst += (o.latencyMs() - mean) * (o.latencyMs() - mean);
        }
        return sst == 0 ? 0 : 1 - sse / sst;
    }
}
