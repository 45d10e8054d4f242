package io.opensdrs.bench;

import io.opensdrs.balance.BalancingSettings;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.testbed.world.World;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MeasuredGreedyReferenceTest {

    private final BalancingTrial trial = new BalancingTrial(new InjectorObservations(200, 5, null), BalancingSettings.defaults());

    /**
     * A Romano-like world placed at random: the reference makes moves, each lowering the
     * measured per-IO latency without making the world worse, and its "after" is what the testbed
     * measures for the placement its plan describes.
     */
    @Test
    void eachMoveLowersTheMeasuredMeanAndTheAfterIsThePlansPlacement() throws Exception {
        Scenario world = BalancingWorlds.romanoLike(12, ScenarioCatalog.example("romano-testbed").datastores());
        MeasuredGreedyReference reference = new MeasuredGreedyReference(trial, 2);
        BalancingTrial.Outcome o = reference.run(world, "romano-like", 3);

        assertThat(o.strategy()).isEqualTo(MeasuredGreedyReference.NAME);
        // Every single move from the first placement is checked on its datastores that carry IO.
        int candidates = world.vms().size() * (world.datastores().size() - 1);
        for (MeasuredGreedyReference.Count c : List.of(o.intervals().romano(), o.intervals().pesto())) {
            assertThat(c.sides()).isBetween(candidates, 2 * candidates);
            assertThat(c.inside()).isBetween(0, c.sides());
        }
        assertThat(o.intervals().pesto().sides()).isEqualTo(o.intervals().romano().sides());
        // per-io's predicted per-IO change is checked on every one of those moves (one disk per VM, all with IO)
        MeasuredGreedyReference.PerIoCheck check = o.intervals().perIo();
        assertThat(check.moves()).isEqualTo(candidates);
        assertThat(check.predictedGains()).isPositive();
        assertThat(check.held() + check.worse()).isLessThanOrEqualTo(check.predictedGains());
        assertThat(check.errorSd()).isFinite();
        assertThat(o.moves()).isBetween(1, 2);
        assertThat(o.after().perIoMeanMs()).isLessThan(o.before().perIoMeanMs());
        assertThat(DatastoreLatencies.worse(o.before(), o.after())).isFalse();
        List<String> moves = o.plan().stream().filter(m -> !m.startsWith("note: ")).toList();
        assertThat(moves).hasSize(o.moves());

        Scenario replayed = BalancingWorlds.steady(world);
        double previous = o.before().perIoMeanMs();
        java.util.regex.Pattern perIo = java.util.regex.Pattern.compile("per-IO latency [0-9.]+ → ([0-9.]+) ms");
        for (String move : moves) {
            // "vm from→to: measured per-IO latency a → b ms, worst p90 c → d ms"
            String vm = move.substring(0, move.indexOf(' '));
            String to = move.substring(move.indexOf('→') + 1, move.indexOf(':'));
            java.util.regex.Matcher m = perIo.matcher(move);
            assertThat(m.find()).as(move).isTrue();
            double reported = Double.parseDouble(m.group(1));
            assertThat(reported).isLessThan(previous);
            previous = reported;
            List<VmSpec> vms = new ArrayList<>(replayed.vms());
            for (int i = 0; i < vms.size(); i++) {
                if (vms.get(i).name().equals(vm)) {
                    vms.set(i, BalancingWorlds.placed(vms.get(i), to));
                }
            }
            replayed = BalancingWorlds.withVms(replayed, replayed.name(), vms);
        }
        DatastoreLatencies measured = reference.measure(replayed, trial.idleLatencies(World.build(replayed)), 3);
        assertThat(measured).isEqualTo(o.after());
        assertThat(o.after().perIoMeanMs()).isCloseTo(previous, org.assertj.core.api.Assertions.within(0.01));
    }

    @Test
    void needsAtLeastOneMove() {
        assertThatThrownBy(() -> new MeasuredGreedyReference(trial, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("≥ 1");
    }
}
