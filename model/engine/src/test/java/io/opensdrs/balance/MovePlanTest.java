package io.opensdrs.balance;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.opensdrs.balance.HomePlans.move;
import static org.assertj.core.api.Assertions.assertThat;

/** A plan with the VMs a running relocation already moves left out ({@link MovePlan#withoutVms}), and a plan followed by its homes' ({@link MovePlan#followedBy}). */
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

    /**
     * The homes that move on their own join the run's plan as moves of it: numbered on, and a home going
     * to the datastore a disk move frees waits for that move (its parent, a later wave), where a home
     * going elsewhere runs in the first wave.
     */
    @Test
    void aPlanFollowedByItsHomesIsOnePlanWhoseHomeMovesWaitForTheSpaceTheyNeed() {
        MovePlan disks = new MovePlan("test", "test", List.of(move("big", "ds-b", "ds-a", 300)), List.of(), List.of("note"), 8, 2);
        Move intoFreed = home("app", "ds-c", "ds-b");
        Move elsewhere = home("web", "ds-c", "ds-d");
        MovePlan homes = new MovePlan("test", "test", List.of(intoFreed, elsewhere),
                List.of(new Fault("db", null, "ds-c", ReasonCode.VIRTUAL_DISK_JOINT_AFFIN, "db's home stays")), List.of(), 8, 2);

        MovePlan one = disks.followedBy(homes);

        assertThat(one.moves()).extracting(Move::vmId).containsExactly("big", "app", "web");
        assertThat(one.moves()).extracting(Move::sequence).containsExactly(1, 2, 3);
        assertThat(one.moves().get(1).parents()).containsExactly(1);
        assertThat(one.moves().get(1).wave()).isEqualTo(2);
        assertThat(one.moves().get(1).relocation().scope()).isEqualTo(Relocation.Scope.HOME);
        assertThat(one.moves().get(2).parents()).isEmpty();
        assertThat(one.faults()).extracting(Fault::message).containsExactly("db's home stays");
        assertThat(one.notes()).containsExactly("note");
    }

    private static Move home(String vmId, String from, String to) {
        Relocation r = new Relocation(vmId, Relocation.Scope.HOME, List.of(), List.of(from), to, "h0", 1L << 20);
        return new Move(1, 1, r, List.of(), from, 0.001, ReasonCode.VIRTUAL_DISK_JOINT_AFFIN, null, null, null, true);
    }
}
