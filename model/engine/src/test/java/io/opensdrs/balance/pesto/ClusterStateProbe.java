package io.opensdrs.balance.pesto;

import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.MovableUnit;
import io.opensdrs.balance.WorkingPlacement;

/** Evaluates CostBenefit for a named VM and destination in a test cluster. */
final class ClusterStateProbe {

    private final WorkingPlacement placement;

    ClusterStateProbe(ClusterState state) {
        placement = new WorkingPlacement(state);
    }

    CostBenefit.Result evaluate(String vmId, String destination) {
        MovableUnit u = unit(vmId);
        return new CostBenefit(placement).evaluate(u, placement.datastoreOf(u), placement.datastoreIndex(destination));
    }

    /** The per-IO guard for moving {@code vmId} to {@code destination}. */
    boolean raisesPerIoLatency(String vmId, String destination) {
        MovableUnit u = unit(vmId);
        return new CostBenefit(placement).raisesPerIoLatency(u, placement.datastoreOf(u),
                placement.datastoreIndex(destination), evaluate(vmId, destination));
    }

    WorkingPlacement placement() {
        return placement;
    }

    private MovableUnit unit(String vmId) {
        for (MovableUnit u : placement.units()) {
            if (placement.vmId(u.vm()).equals(vmId)) {
                return u;
            }
        }
        throw new IllegalArgumentException(vmId);
    }
}
