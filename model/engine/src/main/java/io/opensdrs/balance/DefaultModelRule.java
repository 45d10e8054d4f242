package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.pesto.PestoQuantities;

import java.util.Collection;

/**
 * Pesto §5.1.3: a datastore without a model yet (just added, injector not run, thin LUN not
 * yet allocated) gets a default LQ line whose slope is the average slope of the other
 * datastores, or 1.0 ms per outstanding IO when none has a model; its intercept is the
 * others' average intercept (0 when none), a choice the paper leaves open. Such a datastore
 * receives load like any other until its injector model arrives (Pesto §5.4.2, datastore
 * addition), then the real model replaces this one.
 */
public final class DefaultModelRule {

    /** The name explanations show for a default model. */
    public static final String MODEL_NAME = "pesto-default";

    /** Pesto §5.1.3's slope when no datastore has a model. */
    public static final double DEFAULT_SLOPE_MS_PER_IO = 1.0;

    private DefaultModelRule() {
    }

    /** The default model given the fitted models of the cluster's other datastores. */
    public static LqSlopeModel defaultModel(Collection<DatastoreModel> others) {
        double slope = 0;
        double intercept = 0;
        int n = 0;
        for (DatastoreModel m : others) {
            if (m == null || !m.isFitted()) {
                continue;
            }
            PestoQuantities line = m.lqLine();
            slope += line.slopeMsPerIo();
            intercept += line.interceptMs();
            n++;
        }
        if (n == 0) {
            return LqSlopeModel.of(DEFAULT_SLOPE_MS_PER_IO, 0);
        }
        return LqSlopeModel.of(slope / n, Math.max(0, intercept / n));
    }

    /** The cluster with every model-less datastore given the default model (datastore addition). */
    public static ClusterState withDefaultModels(ClusterState state) {
        java.util.List<DatastoreModel> fitted = new java.util.ArrayList<>();
        for (DatastoreState d : state.datastores()) {
            d.fittedModel().ifPresent(fitted::add);
        }
        LqSlopeModel fallback = defaultModel(fitted);
        ClusterState out = state;
        for (DatastoreState d : state.datastores()) {
            if (d.fittedModel().isEmpty()) {
                out = out.withDatastore(d.withModel(fallback));
            }
        }
        return out;
    }
}
