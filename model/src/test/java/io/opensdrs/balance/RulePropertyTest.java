package io.opensdrs.balance;

import org.junit.jupiter.api.Test;

import java.util.Random;

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
        assertThat(plans).isEqualTo(600);
        assertThat(moves).isGreaterThan(100);
        assertThat(evacuations).isGreaterThan(100);
    }
}
