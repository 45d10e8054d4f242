package io.opensdrs.balance.pesto;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.balance.ClusterState;
import io.opensdrs.balance.Clusters;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cost-benefit on bounds (beyond the seeds, {@link CostBenefit}): a move pays only when its
 * benefit's pessimistic end exceeds its cost's. On a case built for it — the same cluster, its
 * models' 95 % intervals narrow or wide — the bounds and the point values decide differently.
 */
class CostBenefitOnBoundsTest {

    /** An LQ line whose predictions carry a ±{@code relativeHalfWidth} interval and no change error. */
    private record LineWithInterval(LqSlopeModel line, double relativeHalfWidth) implements DatastoreModel {
        @Override
        public String name() {
            return line.name();
        }

        @Override
        public FitSummary fit(List<Observation> observations) {
            throw new UnsupportedOperationException("a known line");
        }

        @Override
        public boolean isFitted() {
            return true;
        }

        @Override
        public Workload aggregate(List<Workload> workloads) {
            return line.aggregate(workloads);
        }

        @Override
        public Prediction predict(Workload w) {
            double l = line.predict(w).latencyMs();
            return Prediction.of(w.outstandingIos(), l,
                    new Interval(l * (1 - relativeHalfWidth), l * (1 + relativeHalfWidth), 0.95), Double.NaN);
        }
    }

    private static CostBenefit.Result moveOneOfThree(double relativeHalfWidth, boolean onBounds) {
        ClusterState state = Clusters.cluster()
                .datastore("hot", 1000, new LineWithInterval(LqSlopeModel.of(1, 2), relativeHalfWidth), null)
                .datastore("cool", 1000, new LineWithInterval(LqSlopeModel.of(1, 2), relativeHalfWidth), null)
                .vm("a", "hot", 10, 8)
                .vm("b", "hot", 10, 8)
                .vm("c", "hot", 10, 8)
                .vm("d", "cool", 10, 8)
                .settings(BalancingSettings.defaults().toBuilder().costBenefitOnBounds(onBounds).build())
                .build();
        return new ClusterStateProbe(state).evaluate("a", "cool");
    }

    @Test
    void narrowIntervalsDecideAsThePointValues() {
        assertThat(moveOneOfThree(0.05, true).worthwhile()).isTrue();
        assertThat(moveOneOfThree(0.05, false).worthwhile()).isTrue();
    }

    @Test
    void wideIntervalsRefuseAMoveThePointValuesWouldMake() {
        CostBenefit.Result onBounds = moveOneOfThree(0.2, true);
        CostBenefit.Result onPoints = moveOneOfThree(0.2, false);
        // the same move: the point benefit is many times the point cost …
        assertThat(onPoints.benefit().value()).isGreaterThan(10 * onPoints.cost().value());
        assertThat(onPoints.worthwhile()).isTrue();
        // … but with ±20 % intervals its pessimistic benefit does not cover the pessimistic cost
        assertThat(onBounds.benefit().lower()).isLessThan(onBounds.cost().upper());
        assertThat(onBounds.worthwhile()).isFalse();
    }
}
