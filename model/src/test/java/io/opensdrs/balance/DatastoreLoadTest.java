package io.opensdrs.balance;

import io.opensdrs.balance.romano.MeritAnnealing;
import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.FitSummary;
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
