package io.opensdrs.balance;

import io.opensdrs.balance.EvacuationCoverage.Item;
import io.opensdrs.balance.EvacuationCoverage.Leaving;
import io.opensdrs.balance.EvacuationCoverage.Left;
import io.opensdrs.balance.EvacuationCoverage.Outcome;
import io.opensdrs.balance.EvacuationCoverage.PlanFault;
import io.opensdrs.balance.EvacuationCoverage.Planned;
import io.opensdrs.balance.EvacuationCoverage.Status;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Where each disk and home left on a datastore entering maintenance stands in its evacuation ({@link EvacuationCoverage}). */
class EvacuationCoverageTest {

    private static final Map<String, String> NAMES = Map.of("ds-m", "maint", "ds-b", "bronze");
    private static final Instant MOVED_AT = Instant.parse("2026-01-01T10:00:00Z");

    private static final Item DISK = new Item("vm-1", "web", 2000, 10);
    private static final Item OTHER_DISK = new Item("vm-1", "web", 2001, 10);
    private static final Item HOME = new Item("vm-1", "web", null, 1);

    private static Relocation disks(Integer... keys) {
        return new Relocation("vm-1", Relocation.Scope.DISKS, List.of(keys), List.of("ds-m"), "ds-b", "host-1", 10);
    }

    private static Relocation whole() {
        return new Relocation("vm-1", Relocation.Scope.WHOLE_VM, List.of(), List.of("ds-m"), "ds-b", "host-1", 21);
    }

    private static Relocation home() {
        return new Relocation("vm-1", Relocation.Scope.HOME, List.of(), List.of("ds-m"), "ds-b", "host-1", 1);
    }

    private static Planned planned(Relocation r, Outcome o) {
        return new Planned(7, r, o, "the reason", o == Outcome.SUCCEEDED ? MOVED_AT : null);
    }

    private static Left one(Item item, List<Leaving> leaving, List<Planned> planned, List<PlanFault> faults, Optional<Instant> readAt) {
        return EvacuationCoverage.standing(List.of(item), leaving, planned, faults, readAt, id -> NAMES.getOrDefault(id, id)).get(0);
    }

    private static Left one(Item item, Planned planned) {
        return one(item, List.of(), List.of(planned), List.of(), Optional.empty());
    }

    @Test
    void withoutAPlanEverythingIsUnplannedAndPlannedAgain() {
        List<Left> left = EvacuationCoverage.standing(List.of(DISK, HOME), List.of(), List.of(), List.of(), Optional.empty(), id -> id);
        assertThat(left).extracting(Left::status).containsExactly(Status.UNPLANNED, Status.UNPLANNED);
        assertThat(EvacuationCoverage.unaccounted(left)).containsExactly(DISK, HOME);
    }

    @Test
    void aVmBeingRelocatedOffTheDatastoreIsMovingWhateverThePlanSays() {
        Left l = one(HOME, List.of(new Leaving(3, "vm-1", "ds-b", "RUNNING", 40)), List.of(planned(whole(), Outcome.FAILED)),
                List.of(new PlanFault("vm-1", null, "excluded")), Optional.empty());
        assertThat(l.status()).isEqualTo(Status.MOVING);
        assertThat(l.recommendationId()).isEqualTo(3);
        assertThat(l.detail()).isEqualTo("relocation to bronze running, 40 %");
    }

    @Test
    void aFaultAccountsForTheDisksItNamesOrTheWholeVm() {
        List<PlanFault> diskFault = List.of(new PlanFault("vm-1", "vm-1/2000", "no room"));
        assertThat(one(DISK, List.of(), List.of(), diskFault, Optional.empty()).status()).isEqualTo(Status.FAULT);
        assertThat(one(DISK, List.of(), List.of(), diskFault, Optional.empty()).detail()).isEqualTo("no room");
        assertThat(one(OTHER_DISK, List.of(), List.of(), diskFault, Optional.empty()).status()).isEqualTo(Status.UNPLANNED);
        // a home is the VM's: any fault of the VM holds it
        assertThat(one(HOME, List.of(), List.of(), diskFault, Optional.empty()).status()).isEqualTo(Status.FAULT);
        List<PlanFault> vmFault = List.of(new PlanFault("vm-1", null, "excluded"));
        assertThat(one(OTHER_DISK, List.of(), List.of(), vmFault, Optional.empty()).status()).isEqualTo(Status.FAULT);
    }

    @Test
    void aMoveAccountsForWhatItCarries() {
        // a move of disk 2000 carries neither disk 2001 nor the home; a whole-VM move carries all; a home move only the home
        assertThat(one(DISK, planned(disks(2000), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.RECOMMENDED);
        assertThat(one(OTHER_DISK, planned(disks(2000), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.UNPLANNED);
        assertThat(one(HOME, planned(disks(2000), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.UNPLANNED);
        assertThat(one(OTHER_DISK, planned(whole(), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.RECOMMENDED);
        assertThat(one(HOME, planned(whole(), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.RECOMMENDED);
        assertThat(one(HOME, planned(home(), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.RECOMMENDED);
        assertThat(one(DISK, planned(home(), Outcome.AWAITING_APPROVAL)).status()).isEqualTo(Status.UNPLANNED);
    }

    @Test
    void eachOutcomeOfThePlannedMoveGivesItsStatus() {
        Left recommended = one(DISK, planned(disks(2000), Outcome.AWAITING_APPROVAL));
        assertThat(recommended.detail()).isEqualTo("to bronze, awaiting approval");
        assertThat(recommended.recommendationId()).isEqualTo(7);
        assertThat(one(DISK, planned(disks(2000), Outcome.NOT_APPLIED))).extracting(Left::status, Left::detail)
                .containsExactly(Status.DISMISSED, "not applied");
        assertThat(one(DISK, planned(disks(2000), Outcome.UNDER_WAY))).extracting(Left::status, Left::detail)
                .containsExactly(Status.MOVING, "to bronze");
        assertThat(one(DISK, planned(disks(2000), Outcome.FAILED))).extracting(Left::status, Left::detail)
                .containsExactly(Status.FAILED, "the reason");
        assertThat(one(DISK, planned(disks(2000), Outcome.DISMISSED))).extracting(Left::status, Left::detail)
                .containsExactly(Status.DISMISSED, "the reason");
        assertThat(one(DISK, planned(disks(2000), Outcome.WITHDRAWN))).extracting(Left::status, Left::detail)
                .containsExactly(Status.OUTDATED, "its move was withdrawn: the reason");
        // only what nothing will move any more is planned again: the withdrawn move, not the failed or dismissed one
        assertThat(Status.OUTDATED.unaccounted()).isTrue();
        assertThat(Status.FAILED.unaccounted() || Status.DISMISSED.unaccounted() || Status.RECOMMENDED.unaccounted()).isFalse();
    }

    @Test
    void aMovedDiskIsBackOnlyWhenAnInventoryReadBegunAfterTheMoveShowsIt() {
        Planned done = planned(disks(2000), Outcome.SUCCEEDED);
        assertThat(one(DISK, List.of(), List.of(done), List.of(), Optional.empty()).status()).isEqualTo(Status.MOVED);
        assertThat(one(DISK, List.of(), List.of(done), List.of(), Optional.of(MOVED_AT.minusSeconds(5))).status())
                .isEqualTo(Status.MOVED);
        Left back = one(DISK, List.of(), List.of(done), List.of(), Optional.of(MOVED_AT.plusSeconds(5)));
        assertThat(back.status()).isEqualTo(Status.BACK);
        assertThat(back.detail()).isEqualTo("moved to bronze, and back on the datastore in the inventory read after");
        assertThat(EvacuationCoverage.unaccounted(List.of(back))).containsExactly(DISK);
    }

    @Test
    void aHostSwapFileStaysAndIsNotPlannedAgain() {
        Left swap = EvacuationCoverage.hostSwap(new Item("vm-1", "web", null, 4, true), null);
        assertThat(swap.status()).isEqualTo(Status.HOST_SWAP);
        assertThat(swap.detail()).startsWith("host (unknown) keeps the VM's swap file here");
        assertThat(swap.item().describe()).isEqualTo("the swap file of VM web");
        assertThat(EvacuationCoverage.unaccounted(List.of(swap))).isEmpty();
    }
}
