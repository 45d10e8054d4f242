package io.opensdrs.balance;

import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine decides on vCenter's ids, but what an administrator reads — recommendation
 * summaries, faults, rule violations — names datastores, VMs and disks as the vSphere Client
 * shows them.
 */
class DisplayNamesTest {

    private static final DisplayNames NAMES = new DisplayNames(
            Map.of("datastore-11", "ds-a", "datastore-12", "ds-b", "datastore-13", "ds-c"),
            Map.of("host-21", "esx-01"),
            Map.of("vm-31", "db", "vm-32", "web", "vm-33", "app", "vm-35", "cache", "vm-36", "log"),
            Map.of("vm-31/2000", "disk 2000 of VM db", "vm-31/2001", "disk 2001 of VM db", "vm-32-d0", "disk 2000 of VM web",
                    "vm-33-d0", "disk 2000 of VM app", "vm-35-d0", "disk 2000 of VM cache", "vm-36-d0", "disk 2000 of VM log"));

    /**
     * ds-a enters maintenance; db's two disks may not share a datastore and ds-c is full, so one
     * of them moves to ds-b and the other cannot leave; web is excluded from Storage DRS.
     */
    private static ClusterState maintenanceWorld(DisplayNames names) {
        return Clusters.cluster()
                .datastoreIn(MaintenanceState.ENTERING, "datastore-11", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "datastore-12", 1000, LqSlopeModel.of(1, 2))
                .datastoreIn(MaintenanceState.NORMAL, "datastore-13", 1000, LqSlopeModel.of(1, 2))
                .vm(new VmState("vm-31", "h0", VmOverride.DEFAULT, false, List.of(
                        new DiskState("vm-31/2000", 100, "datastore-11", new Workload(4, 4, 1, 1), 0),
                        new DiskState("vm-31/2001", 50, "datastore-11", new Workload(4, 4, 1, 1), 0))))
                .vm("vm-32", VmOverride.EXCLUDED, "datastore-11", 10, 1)
                .vm(new VmState("vm-33", "h0", VmOverride.DEFAULT, null, List.of(
                        new DiskState("vm-33/2000", 790, "datastore-13", new Workload(1, 4, 1, 1), 0))))
                .rule(new Rule.VmdkAntiAffinity("db-apart", "vm-31", Set.of("vm-31/2000", "vm-31/2001")))
                .names(names)
                .build();
    }

    @Test
    void anEvacuationNamesWhatItMovesAndWhatCannotMove() {
        MovePlan plan = MaintenanceEvacuation.plan(maintenanceWorld(NAMES), "datastore-11", false);

        assertThat(plan.moves()).singleElement().satisfies(m -> {
            assertThat(m.diskIds()).containsExactly("vm-31/2000");
            assertThat(m.destinationDatastoreId()).isEqualTo("datastore-12");
            assertThat(m.explanation().summary()).startsWith(
                    "datastore ds-a is entering maintenance; disk 2000 of VM db goes to ds-b, the most balanced destination");
        });
        assertThat(plan.faults()).extracting(Fault::message).containsExactlyInAnyOrder(
                "VM web is excluded from Storage DRS; move its disks off ds-a by hand",
                "disk 2001 of VM db cannot leave ds-a: VMDK anti-affinity rule db-apart: disk 2001 of VM db and disk 2000 of VM db"
                        + " would share datastore ds-b; datastore ds-c would hold 840.0 GB, over its space threshold of 800.0 GB");
        // the faults keep the ids the server stores them under
        assertThat(plan.faults()).extracting(Fault::vmId).containsExactlyInAnyOrder("vm-31", "vm-32");
        assertThat(sentences(plan)).noneMatch(s -> s.matches(".*\\b(datastore|vm|host)-\\d+.*"));
    }

    @Test
    void withoutNamesTheSentencesNameIds() {
        MovePlan plan = MaintenanceEvacuation.plan(maintenanceWorld(DisplayNames.NONE), "datastore-11", false);
        assertThat(plan.faults()).extracting(Fault::message)
                .contains("VM vm-32 is excluded from Storage DRS; move its disks off datastore-11 by hand");
        assertThat(plan.moves().get(0).explanation().summary()).contains("disk vm-31/2000 goes to datastore-12");
    }

    @Test
    void everyStrategyNamesTheDatastoresItBalancesAndTheRulesTheInventoryBreaks() {
        // ds-a is 90 % full and busy; web and app may not share a datastore but do, on ds-b; nor may cache and log,
        // both excluded from Storage DRS, on ds-c
        ClusterState state = Clusters.cluster()
                .datastore("datastore-11", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("datastore-12", 1000, LqSlopeModel.of(1, 2), null)
                .datastore("datastore-13", 1000, LqSlopeModel.of(1, 2), null)
                .vm("vm-31", "datastore-11", 500, 30)
                .vm(new VmState("vm-34", "h0", VmOverride.DEFAULT, null, List.of(
                        new DiskState("vm-34/2000", 400, "datastore-11", new Workload(30, 4, 1, 1), 0))))
                .vm("vm-32", "datastore-12", 10, 1)
                .vm("vm-33", "datastore-12", 10, 1)
                .vm("vm-35", VmOverride.EXCLUDED, "datastore-13", 10, 1)
                .vm("vm-36", VmOverride.EXCLUDED, "datastore-13", 10, 1)
                .rule(new Rule.VmAntiAffinity("web-app-apart", Set.of("vm-32", "vm-33")))
                .rule(new Rule.VmAntiAffinity("cache-log-apart", Set.of("vm-35", "vm-36")))
                .names(NAMES)
                .build();
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        for (String name : registry.names()) {
            MovePlan plan = registry.create(name, 7).plan(state);
            assertThat(plan.moves()).as(name).extracting(m -> m.explanation().summary())
                    .anySatisfy(s -> assertThat(s).matches("VM anti-affinity rule web-app-apart is violated: VMs (app|web) and (app|web)"
                            + " share datastore ds-b; moving VM (app|web) \\(10\\.0 GB\\) to ds-c, the most balanced datastore the rules"
                            + " allow: .*"))
                    .anySatisfy(s -> assertThat(s).startsWith("datastore ds-a is 90.0 % used, over its space threshold; moving VM "));
            assertThat(plan.faults()).as(name).extracting(Fault::message).anySatisfy(m -> assertThat(m)
                    .matches("VM anti-affinity rule cache-log-apart is violated: VMs (cache|log) and (cache|log) share datastore ds-c;"
                            + " VM (cache|log) is excluded from Storage DRS: fix it by hand"));
            // vm-34 has no name: it is called by its id, and nothing else is
            assertThat(sentences(plan)).as(name).noneMatch(s -> s.replace("vm-34", "").matches(".*\\b(datastore|vm|host)-\\d+.*"));
        }
    }

    private static List<String> sentences(MovePlan plan) {
        List<String> out = new ArrayList<>(plan.notes());
        plan.faults().forEach(f -> out.add(f.message()));
        plan.moves().forEach(m -> out.add(m.explanation().summary()));
        return out;
    }
}
