package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;

import java.util.Optional;

/**
 * One datastore of a cluster as the engine sees it.
 *
 * @param id datastore id
 * @param capacityGb capacity
 * @param usedGb space used, disks and everything else
 * @param accessible false when no host can reach it (never a destination)
 * @param maintenance maintenance mode state (only {@link MaintenanceState#NORMAL} receives disks)
 * @param model its fitted performance model, or null (the engine then uses {@link DefaultModelRule})
 * @param observed observed latency percentiles, or null when none were collected yet
 */
public record DatastoreState(String id, double capacityGb, double usedGb, boolean accessible,
                             MaintenanceState maintenance, DatastoreModel model, LatencyPercentiles observed) {

    public DatastoreState {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("datastore id must not be blank");
        }
        if (!(capacityGb > 0) || Double.isInfinite(capacityGb)) {
            throw new IllegalArgumentException("datastore " + id + ": capacityGb must be > 0, got " + capacityGb);
        }
        if (!(usedGb >= 0) || Double.isInfinite(usedGb)) {
            throw new IllegalArgumentException("datastore " + id + ": usedGb must be >= 0, got " + usedGb);
        }
        maintenance = maintenance == null ? MaintenanceState.NORMAL : maintenance;
    }

    public static DatastoreState of(String id, double capacityGb, double usedGb, DatastoreModel model, LatencyPercentiles observed) {
        return new DatastoreState(id, capacityGb, usedGb, true, MaintenanceState.NORMAL, model, observed);
    }

    /** The model when it is fitted; an unfitted model counts as none. */
    public Optional<DatastoreModel> fittedModel() {
        return model != null && model.isFitted() ? Optional.of(model) : Optional.empty();
    }

    public Optional<LatencyPercentiles> observedLatency() {
        return Optional.ofNullable(observed);
    }

    public DatastoreState withMaintenance(MaintenanceState state) {
        return new DatastoreState(id, capacityGb, usedGb, accessible, state, model, observed);
    }

    public DatastoreState withModel(DatastoreModel newModel) {
        return new DatastoreState(id, capacityGb, usedGb, accessible, maintenance, newModel, observed);
    }

    public DatastoreState withUsedGb(double used) {
        return new DatastoreState(id, capacityGb, used, accessible, maintenance, model, observed);
    }
}
