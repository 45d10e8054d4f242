package io.opensdrs.server.balancing;

import io.opensdrs.model.romano.RomanoModel;
import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.shared.agent.v1.InjectorRequest;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
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

    private final JdbcTemplate jdbc;
    private final DatastoreModels models;
    private final AgentDirectives directives;
    private final ClusterPolicies policies;
    private final PlanRecorder recorder;
    private final Clock clock;

    public DatastoreAddition(JdbcTemplate jdbc, DatastoreModels models, AgentDirectives directives, ClusterPolicies policies,
                             PlanRecorder recorder, Clock clock) {
        this.jdbc = jdbc;
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
        jdbc.query("SELECT d.moid, d.name, d.cluster_moid FROM datastore d WHERE d.cluster_moid IS NOT NULL"
                + " AND NOT EXISTS (SELECT 1 FROM datastore_membership m WHERE m.datastore_moid = d.moid AND m.cluster_moid = d.cluster_moid)",
                rs -> {
                    String id = rs.getString(1);
                    jdbc.update("DELETE FROM datastore_membership WHERE datastore_moid = ?", id);
                    jdbc.update("INSERT INTO datastore_membership (datastore_moid, datastore_name, cluster_moid, first_seen_at) VALUES (?, ?, ?, ?)",
                            id, rs.getString(2), rs.getString(3), now);
                    recorder.history(rs.getString(3), "datastore-added", "datastore " + rs.getString(2)
                            + " joined the cluster: default model (Pesto §5.1.3) until its injector model arrives", null);
                });
        List<Requested> sent = new ArrayList<>();
        List<String[]> waiting = jdbc.query("SELECT datastore_moid, datastore_name, cluster_moid FROM datastore_membership"
                + " WHERE injector_requested_at IS NULL", (rs, i) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
        for (String[] w : waiting) {
            String name = w[1];
            if (hasValidModel(name)) {
                jdbc.update("UPDATE datastore_membership SET injector_requested_at = ?, injector_requested_to = ? WHERE datastore_moid = ?",
                        now, "(not needed: a valid model exists)", w[0]);
                continue;
            }
            String kind = models.selectKind(policies.settings(w[2]).getModelKind(), name);
            ServerMessage m = ServerMessage.newBuilder().setInjectorRequest(InjectorRequest.newBuilder().setDatastore(name)
                    .setReason("datastore added").setRomanoCalibration(RomanoModel.NAME.equals(kind))
                    .setNotBeforeMs(clock.millis())).build();
            List<String> reached = directives.send(directives.agentsSeeing(name), m);
            if (!reached.isEmpty()) {
                jdbc.update("UPDATE datastore_membership SET injector_requested_at = ?, injector_requested_to = ? WHERE datastore_moid = ?",
                        now, PlanRecorder.truncate(String.join(",", reached), 2000), w[0]);
                recorder.history(w[2], "injector-requested", "injector run for datastore " + name + " asked of " + reached, null);
                sent.add(new Requested(name, w[2], reached));
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
