package io.opensdrs.balance;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The product's own moves never break a rule: 200 random worlds, every plan of every strategy
 * and the maintenance evacuation of a random datastore (without ignore-affinity), replayed
 * move by move and checked by {@link PlanInvariants}, which does not use RuleChecker.
 */
class RulePropertyTest {

    @Test
    void noPlanOfAnyStrategyOrWorkflowBreaksARule() {
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        Random rnd = new Random(20240601L);
        int moves = 0;
        int evacuations = 0;
        int plans = 0;
        for (int w = 0; w < 200; w++) {
            ClusterState world = RandomWorlds.generate(rnd, w);
            PlanInvariants.check(world, new MovePlan(world.clusterId(), "initial", java.util.List.of(), java.util.List.of(),
                    java.util.List.of(), 8, 2), false);
            for (String name : registry.names()) {
                MovePlan plan = registry.create(name, w).plan(world);
                PlanInvariants.check(world, plan, false);
                moves += plan.moves().size();
                plans++;
            }
            String leaving = world.datastores().get(rnd.nextInt(world.datastores().size())).id();
            MovePlan evacuation = MaintenanceEvacuation.plan(world, leaving, false);
            PlanInvariants.check(world, evacuation, false);
            evacuations += evacuation.moves().size();
            assertThat(evacuation.moves()).allMatch(m -> m.sourceDatastoreId().equals(leaving));
        }
        // The test must exercise something: worlds where strategies and evacuations did move disks.
        assertThat(plans).isEqualTo(200 * registry.names().size());
        assertThat(moves).isGreaterThan(100);
        assertThat(evacuations).isGreaterThan(100);
    }

    /**
     * Rules an administrator makes over VMs already placed are fixed or reported: on 200 random
     * worlds with broken rules, no move of any strategy creates a violation, and every violation
     * left once the plan has run is named by a fault with its rule's reason code.
     */
    @Test
    void everyRuleTheInventoryBreaksIsFixedOrReported() {
        StrategyRegistry registry = StrategyRegistry.withBuiltInStrategies();
        Random rnd = new Random(20261126L);
        int broken = 0;
        int fixes = 0;
        int reported = 0;
        for (int w = 0; w < 200; w++) {
            ClusterState world = RandomWorlds.withViolations(rnd, RandomWorlds.generate(rnd, w));
            Set<String> before = PlanInvariants.replay(world, new MovePlan(world.clusterId(), "initial", List.of(), List.of(),
                    List.of(), 8, 2), false);
            broken += before.size();
            for (String name : registry.names()) {
                MovePlan plan = registry.create(name, w).plan(world);
                Set<String> left = PlanInvariants.replay(world, plan, false);
                fixes += (int) plan.moves().stream().filter(m -> m.reason() == ReasonCode.VIRTUAL_DISK_ANTI_AFFIN
                        || m.reason() == ReasonCode.VIRTUAL_DISK_JOINT_AFFIN).count();
                for (String v : left) {
                    ReasonCode code = v.startsWith("keep-together") ? ReasonCode.VIRTUAL_DISK_JOINT_AFFIN : ReasonCode.VIRTUAL_DISK_ANTI_AFFIN;
                    List<String> vms = vmsOf(world, v);
                    assertThat(plan.faults()).as(name + " " + world.clusterId() + ": " + v + " is left unreported")
                            .anyMatch(f -> f.reason() == code && vms.contains(f.vmId()));
                    reported++;
                }
            }
        }
        System.out.println("rule property: broken " + broken + ", fixes " + fixes + ", reported " + reported);
        // the test must exercise both: violations fixed and violations no move could fix
        assertThat(broken).isGreaterThan(150);
        assertThat(fixes).isGreaterThan(200);
        assertThat(reported).isGreaterThan(10);
    }

    /** The VMs a violation string of {@link PlanInvariants#violations} concerns. */
    private static List<String> vmsOf(ClusterState world, String violation) {
        String[] parts = violation.split(" ");
        if (parts[0].equals("keep-together")) {
            return List.of(parts[1]);
        }
        if (parts[0].equals("vm")) {
            return List.of(parts[2].split("\\|"));
        }
        String disk = parts[2].split("\\|")[0];
        return world.vms().stream().filter(vm -> vm.disks().stream().anyMatch(d -> d.id().equals(disk))).map(VmState::id).toList();
    }
}
