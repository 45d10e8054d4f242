package io.opensdrs.server.balancing;

import io.opensdrs.balance.BalancingStrategy;
import io.opensdrs.balance.KeptTogetherHomes;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.balance.ReasonCode;
import io.opensdrs.balance.StrategyRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opensdrs.server.settings.ClusterPolicies;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A Storage DRS run over one datastore cluster (SPEC §4): the cluster's state, the cluster's
 * strategy (settings; {@code auto} = romano when every fitted model is Romano's, else pesto),
 * space balancing then IO balancing ({@code BalancingRun}), and the plan recorded as
 * recommendations with explanations, faults and history; auto-applicable moves applied at once.
 * Runs of one cluster are serialized with each other and with its maintenance evacuations
 * ({@link ClusterPlanningLock}): a scheduled run and "run now" never plan on the same state twice.
 * A run's records are one transaction: a run that fails or a server that dies while recording it
 * leaves no part of its plan behind (no recommendation the applier could pick up alone, the
 * previous run's recommendations not yet superseded), and the next run plans again.
 */
@Service
public class BalancingService {

    /** Reason codes a balancing run produces; its still-pending recommendations are replaced by the next run's. */
    static final List<String> RUN_REASONS = List.of(ReasonCode.BALANCE_DATASTORE_SPACE_USAGE.wireName(),
            ReasonCode.BALANCE_DATASTORE_IO_LOAD.wireName(), ReasonCode.DATASTORE_SPACE_OUTAGE.wireName(),
            ReasonCode.VIRTUAL_DISK_ANTI_AFFIN.wireName(), ReasonCode.VIRTUAL_DISK_JOINT_AFFIN.wireName());

    private final ClusterStateAssembler assembler;
    private final ClusterPolicies policies;
    private final PlanRecorder recorder;
    private final Clock clock;
    private final StrategyRegistry strategies = StrategyRegistry.withBuiltInStrategies();
    private final ClusterPlanningLock planning;
    private final MeterRegistry meters;
    private final TransactionTemplate tx;

    public BalancingService(ClusterStateAssembler assembler, ClusterPolicies policies, PlanRecorder recorder, Clock clock,
                            ClusterPlanningLock planning, MeterRegistry meters,
                            TransactionTemplate tx) {
        this.tx = tx;
        this.assembler = assembler;
        this.planning = planning;
        this.policies = policies;
        this.recorder = recorder;
        this.clock = clock;
        this.meters = meters;
    }

    /** "Run Storage DRS now". */
    public BalancingViews.RunView runNow(String clusterId) {
        return run(clusterId, "manual");
    }

    /**
     * One run; {@code trigger}: manual, scheduled, space-threshold.
     *
     * @throws IllegalStateException when Storage DRS is turned off for the cluster (vCenter's
     *                               podConfig.enabled), as vSphere makes no run then either
     */
    public BalancingViews.RunView run(String clusterId, String trigger) {
        return planning.plan(clusterId, () -> {
            // under the lock: a run that waited for StorageDrsOff's withdrawal must not plan after it
            policies.requireStorageDrsOn(clusterId, "no balancing run is made");
            Timer.Sample sample = Timer.start(meters);
            try {
                Instant started = clock.instant();
                ClusterStateAssembler.Assembled a = assembler.assemble(clusterId);
                String configured = policies.settings(clusterId).getStrategy();
                String name = configured == null || "auto".equals(configured) ? StrategyRegistry.defaultName(a.state()) : configured;
                // seeded from the clock: Romano's annealing is reproducible for a given run time
                BalancingStrategy strategy = strategies.create(name, started.toEpochMilli());
                MovePlan disks = strategy.plan(a.state());
                MovePlan plan = disks.followedBy(KeptTogetherHomes.plan(a.state(), disks));
                return tx.execute(status -> {
                    recorder.supersede(clusterId, RUN_REASONS, null);
                    long runId = recorder.startRun(clusterId, trigger, name, plan, started);
                    PlanRecorder.Recorded r = recorder.record(clusterId, runId, plan, a);
                    return new BalancingViews.RunView(runId, clusterId, trigger, name, r.recommendationIds(), r.appliedIds(), r.faults(),
                            plan.notes());
                });
            } finally {
                sample.stop(Timer.builder("sdrs.run.duration").tag("run", "balancing").register(meters));
            }
        });
    }

    public StrategyRegistry strategies() {
        return strategies;
    }
}
