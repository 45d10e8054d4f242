package io.opensdrs.server.balancing;

import io.opensdrs.model.romano.RomanoModel;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.shared.agent.v1.InjectorRequest;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * A datastore added to a cluster (Pesto §5.4.2): until its injector model arrives it has the
 * default model (the others' average slope, §5.1.3 — {@link ClusterStateAssembler} gives it
 * {@code DefaultModelRule}'s), and the injector run is asked for at once: an InjectorRequest to
 * every agent that sees the datastore (their leader runs it, §5.1.1). It then receives load through
 * ordinary balancing — its predicted latency is low, so it is a destination. An addition no agent
 * sees yet is asked for again at the next look, when one has registered.
 */
@Component
public class DatastoreAddition {

    private static final Logger log = LoggerFactory.getLogger(DatastoreAddition.class);

    private final BalancingRepository store;
    private final DatastoreModels models;
    private final AgentDirectives directives;
    private final ClusterPolicies policies;
    private final PlanRecorder recorder;
    private final Clock clock;

    public DatastoreAddition(BalancingRepository store, DatastoreModels models, AgentDirectives directives, ClusterPolicies policies,
                             PlanRecorder recorder, Clock clock) {
        this.store = store;
        this.models = models;
        this.directives = directives;
        this.policies = policies;
        this.recorder = recorder;
        this.clock = clock;
    }

    /** One injector request sent. */
    public record Requested(String datastore, String clusterId, List<String> agents) {
    }

    @Scheduled(fixedDelayString = "${sdrs.balancing.addition-check-interval:PT10S}")
    public void tick() {
        try {
            check();
        } catch (RuntimeException e) {
            log.warn("datastore addition check failed: {}", e.toString());
        }
    }

    /** New cluster members are recorded; those without a valid model are asked for an injector run. */
    public synchronized List<Requested> check() {
        Timestamp now = Timestamp.from(clock.instant());
        for (BalancingRepository.Member m : store.unrecordedMembers()) {
            store.recordMembership(m, now);
            recorder.history(m.clusterId(), "datastore-added", "datastore " + m.datastoreName()
                    + " joined the cluster: default model (Pesto §5.1.3) until its injector model arrives", null);
        }
        List<Requested> sent = new ArrayList<>();
        for (BalancingRepository.Member w : store.membersWithoutInjectorRequest()) {
            String name = w.datastoreName();
            if (hasValidModel(name)) {
                store.markInjectorRequested(w.datastoreId(), now, "(not needed: a valid model exists)");
                continue;
            }
            String kind = models.selectKind(policies.settings(w.clusterId()).getModelKind(), name);
            ServerMessage m = ServerMessage.newBuilder().setInjectorRequest(InjectorRequest.newBuilder().setDatastore(name)
                    .setReason("datastore added").setRomanoCalibration(RomanoModel.NAME.equals(kind))
                    .setNotBeforeMs(clock.millis())).build();
            List<String> reached = directives.send(directives.agentsSeeing(name), m);
            if (!reached.isEmpty()) {
                store.markInjectorRequested(w.datastoreId(), now, PlanRecorder.truncate(String.join(",", reached), 2000));
                recorder.history(w.clusterId(), "injector-requested", "injector run for datastore " + name + " asked of " + reached, null);
                sent.add(new Requested(name, w.clusterId(), reached));
            }
        }
        return sent;
    }

    boolean hasValidModel(String datastoreName) {
        for (String kind : models.kinds()) {
            if (models.latestValid(datastoreName, kind).isPresent()) {
                return true;
            }
        }
        return false;
    }
}
