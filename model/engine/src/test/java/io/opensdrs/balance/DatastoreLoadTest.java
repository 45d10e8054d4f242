package io.opensdrs.balance;

import io.opensdrs.balance.romano.MeritAnnealing;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
import io.opensdrs.model.Interval;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Prediction;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class DatastoreLoadTest {

    /**
     * A fitted regression that, like Romano's P = O·M'_W·M_S with a negative size term,
     * extrapolates below zero for large IOs: latency = O·(3 − 0.01·Z) ms.
     */
    static final class ExtrapolatingModel implements DatastoreModel {
        @Override
        public String name() {
            return "extrapolating";
        }

        @Override
        public FitSummary fit(List<Observation> observations) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isFitted() {
            return true;
        }

        @Override
        public Workload aggregate(List<Workload> workloads) {
            double o = workloads.stream().mapToDouble(Workload::outstandingIos).sum();
            double z = workloads.stream().mapToDouble(Workload::ioSizeKb).average().orElse(4);
            return new Workload(o, z, 1, 1);
        }

        @Override
        public Prediction predict(Workload w) {
            return Prediction.of(w.outstandingIos(), w.outstandingIos() * (3 - 0.01 * w.ioSizeKb()), null);
        }
    }

    /** The same law with a ±20 ms interval, as a regression's prediction interval. */
    static final class ExtrapolatingModelWithInterval implements DatastoreModel {
        private final ExtrapolatingModel law = new ExtrapolatingModel();

        @Override
        public String name() {
            return "extrapolating-with-interval";
        }

        @Override
        public FitSummary fit(List<Observation> observations) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isFitted() {
            return true;
        }

        @Override
        public Workload aggregate(List<Workload> workloads) {
            return law.aggregate(workloads);
        }

        @Override
        public Prediction predict(Workload w) {
            double p = law.predict(w).latencyMs();
            return Prediction.of(w.outstandingIos(), p, new Interval(p - 20, p + 20, 0.95));
        }
    }

    @Test
    void theFallbackForANegativePredictionKeepsTheRegressionsUpperBound() {
        Workload[] disks = {new Workload(4, 1024, 1, 1)};
        DatastoreLoad load = DatastoreLoad.of(new ExtrapolatingModelWithInterval(), disks, new int[] {0});
        // The regression says 4·(3 − 10.24) = −28.96 [−48.96, −8.96]: the line's 11.84 ms, and an
        // interval from 0 up to the larger of the line and the regression's upper bound.
        Prediction p = load.current();
        assertThat(p.latencyMs()).isCloseTo(4 * 2.96, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(p.latencyInterval()).isPresent();
        assertThat(p.latencyInterval().get().lower()).isEqualTo(0);
        assertThat(p.latencyInterval().get().upper()).isCloseTo(4 * 2.96, org.assertj.core.data.Offset.offset(1e-6));
        // Just below zero: 1·(3 − 4) = −1 [−21, 19]; the line says 2.96 ms, the upper bound stays 19 ms.
        DatastoreLoad slight = DatastoreLoad.of(new ExtrapolatingModelWithInterval(),
                new Workload[] {new Workload(1, 400, 1, 1)}, new int[] {0});
        Prediction q = slight.current();
        assertThat(q.latencyMs()).isCloseTo(2.96, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(q.latencyInterval().get().upper()).isCloseTo(19, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aNegativeExtrapolationIsReadOnTheModelsLqLineInstead() {
        Workload[] disks = {new Workload(4, 1024, 1, 1), new Workload(2, 4, 1, 1)};
        DatastoreLoad load = DatastoreLoad.of(new ExtrapolatingModel(), disks, new int[] {0});
        // The line through 4 KiB random reads: 2.96 ms per outstanding IO.
        assertThat(load.current().latencyMs()).isCloseTo(4 * 2.96, org.assertj.core.data.Offset.offset(1e-6));
        // Adding load never makes the fallback faster.
        assertThat(load.predictWith(new int[] {1}, null, null).latencyMs()).isGreaterThan(load.current().latencyMs());
        assertThat(load.predictWith(null, null, new Workload(16, 64, 1, 0)).latencyMs()).isGreaterThan(0);
    }

    @Test
    void meritAnnealingPlansOverModelsThatExtrapolateBelowZero() {
        Clusters c = Clusters.cluster()
                .datastore("a", 5000, new ExtrapolatingModel(), new LatencyPercentiles(40, 50, 60))
                .datastore("b", 5000, new ExtrapolatingModel(), new LatencyPercentiles(1, 2, 3));
        for (int i = 0; i < 4; i++) {
            c.vm(new VmState("big" + i, "h0", VmOverride.DEFAULT, null,
                    List.of(new DiskState("big" + i + "-d0", 10, "a", new Workload(4, 1024, 1, 1), 0))));
            c.vm("small" + i, "a", 10, 8);
        }
        ClusterState state = c.build();
        assertThatCode(() -> new MeritAnnealing(1).plan(state)).doesNotThrowAnyException();
    }
}
