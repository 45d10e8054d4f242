package io.opensdrs.balance;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.opensdrs.balance.HomePlans.move;
import static org.assertj.core.api.Assertions.assertThat;

/** A plan with the VMs a running relocation already moves left out ({@link MovePlan#withoutVms}). */
class MovePlanTest {

    @Test
    void theMovesAndFaultsOfTheLeavingVmsAreLeftOutAndADatastoresFaultStays() {
        MovePlan plan = new MovePlan("test", "test", List.of(move("a", "ds-m", "ds-b", 10), move("b", "ds-m", "ds-b", 10)),
                List.of(new Fault("a", null, "ds-m", ReasonCode.DATASTORE_MAINT, "a stays"),
                        new Fault("c", null, "ds-m", ReasonCode.DATASTORE_MAINT, "c stays"),
                        new Fault(null, null, "ds-m", ReasonCode.DATASTORE_MAINT, "the datastore")), List.of("note"), 8, 2);
        MovePlan left = plan.withoutVms(Set.of("a"));
        assertThat(left.moves()).extracting(Move::vmId).containsExactly("b");
        assertThat(left.faults()).extracting(Fault::message).containsExactly("c stays", "the datastore");
        assertThat(left.notes()).containsExactly("note");
        assertThat(left.maxConcurrentPerDatastore()).isEqualTo(8);
    }
}
