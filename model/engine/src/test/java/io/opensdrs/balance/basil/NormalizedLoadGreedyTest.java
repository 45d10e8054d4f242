package io.opensdrs.balance.basil;

import io.opensdrs.balance.Clusters;
import io.opensdrs.balance.LatencyPercentiles;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NormalizedLoadGreedyTest {

    @Test
    void movesTheDiskWithTheHighestLoadPerGbFromTheOverloadedDatastore() {
        // Equal devices (P = 1/m); L_i = O_i without a BASIL model. A holds N = 20, B none.
        MovePlan plan = new NormalizedLoadGreedy().plan(Clusters.cluster()
                .datastore("A", 2000, LqSlopeModel.of(1, 2), new LatencyPercentiles(15, 20, 40))
                .datastore("B", 2000, LqSlopeModel.of(1, 2), new LatencyPercentiles(1, 2, 3))
                .vm("big", "A", 100, 8)       // L/size 0.08
                .vm("dense", "A", 20, 8)      // L/size 0.40  ← BASIL §4's first candidate
                .vm("light", "A", 50, 4)      // L/size 0.08
                .build());
        assertThat(plan.moves()).hasSize(1);
        Move m = plan.moves().get(0);
        assertThat(m.vmId()).isEqualTo("dense");
        assertThat(m.sourceDatastoreId()).isEqualTo("A");
        assertThat(m.destinationDatastoreId()).isEqualTo("B");
        assertThat(m.reason()).isEqualTo(ReasonCode.BALANCE_DATASTORE_IO_LOAD);
        // After it, N is (12, 8): neither remaining disk brings the pair closer, so BASIL stops.
        assertThat(m.explanation().datastores()).extracting(f -> f.model()).containsExactly("pesto", "pesto");
    }

    @Test
    void nothingMovesWhenNoDatastoreIsOverTheLatencyThreshold() {
        MovePlan plan = new NormalizedLoadGreedy().plan(Clusters.cluster()
                .datastore("A", 2000, LqSlopeModel.of(1, 2), new LatencyPercentiles(5, 8, 12))
                .datastore("B", 2000, LqSlopeModel.of(1, 2), new LatencyPercentiles(1, 2, 3))
                .vm("a", "A", 20, 8)
                .vm("b", "A", 20, 8)
                .build());
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.notes()).anyMatch(n -> n.contains("threshold"));
    }
}
