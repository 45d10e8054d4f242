package io.opensdrs.server.balancing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.balance.DisplayNames;
import io.opensdrs.balance.Fault;
import io.opensdrs.balance.MaintenanceEvacuation;
import io.opensdrs.balance.Move;
import io.opensdrs.balance.MovePlan;
import io.opensdrs.server.problems.NotFoundException;
import io.opensdrs.server.history.ActionHistoryRepository;
import io.opensdrs.server.migration.MigrationAction;
import io.opensdrs.server.migration.MoveDescriptions;
import io.opensdrs.server.migration.Recommendation;
import io.opensdrs.server.migration.Recommendations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns an engine {@link MovePlan} into the server's records: one recommendation per move through
 * the migration applier's {@link Recommendations} service (reason code from the move), its actions
 * the children of its parent moves' actions (the stored action plan the applier's scheduler walks), its
 * explanation (table recommendation_explanation), the faults (table fault), the action history;
 * and applies at once the moves the engine marked auto-applicable (automated cluster, subsystem
 * or VM — manual never moves anything, SPEC §4).
 */
@Component
public class PlanRecorder {

    private static final Logger log = LoggerFactory.getLogger(PlanRecorder.class);

    private final Recommendations recommendations;
    private final BalancingRepository store;
    private final ObjectMapper json;
    private final Clock clock;
    private final ActionHistoryRepository history;
    private final MoveDescriptions descriptions;

    public PlanRecorder(Recommendations recommendations, BalancingRepository store, ObjectMapper json, Clock clock, ActionHistoryRepository history,
                        MoveDescriptions descriptions) {
        this.recommendations = recommendations;
        this.descriptions = descriptions;
        this.history = history;
        this.store = store;
        this.json = json;
        this.clock = clock;
    }

    /** What was recorded. */
    public record Recorded(List<Long> recommendationIds, List<Long> appliedIds, List<BalancingViews.FaultView> faults) {
    }

    /** The run's row and history line, counting the plan's moves and faults (the homes that move on their own among them). */
    public long startRun(String clusterId, String trigger, String strategy, MovePlan plan, Instant started) {
        int moves = plan.moves().size();
        int faults = plan.faults().size();
        String notes = String.join("; ", plan.notes());
        long runId = store.insertRun(clusterId, trigger, strategy, moves, faults, notes.length() > 4000 ? notes.substring(0, 4000) : notes,
                started, clock.instant());
        history(clusterId, "run", trigger + " run with " + strategy + ": " + moves + " moves, " + faults
                + " faults" + (notes.isEmpty() ? "" : " (" + truncate(notes, 1500) + ")"), null);
        return runId;
    }

    public Recorded record(String clusterId, long runId, MovePlan plan, ClusterStateAssembler.Assembled assembled) {
        DisplayNames names = assembled.state().names();
        List<Long> ids = new ArrayList<>();
        List<Long> applied = new ArrayList<>();
        List<BalancingViews.FaultView> faults = new ArrayList<>();
        for (Fault f : plan.faults()) {
            faults.add(fault(clusterId, runId, BalancingViews.FaultView.of(f), names));
        }
        // the plan's parents, between the actions stored: a move whose parent was not recommended waits for nothing
        Map<Integer, List<Long>> actionsOfMove = new HashMap<>();
        for (Move m : plan.moves()) {
            Recommendation r;
            try {
                r = recommendations.create(clusterId, m.reason().wireName(), List.of(m.relocation()));
            } catch (NotFoundException e) {
                // the cluster left the inventory under the plan: the move cannot be recommended. A VM or disk gone
                // meanwhile is the pre-condition's to find, or OutdatedRecommendations' once the sync has read it
                faults.add(fault(clusterId, runId, new BalancingViews.FaultView(m.vmId(), String.join(",", m.diskIds()),
                        m.sourceDatastoreId(), m.reason().wireName(), "move to " + names.datastore(m.destinationDatastoreId())
                        + " not recommended: " + e.getMessage()), names));
                continue;
            }
            ids.add(r.id());
            List<MigrationAction> actions = recommendations.actions(r.id());
            actionsOfMove.put(m.sequence(), actions.stream().map(MigrationAction::id).toList());
            List<Long> parents = m.parents().stream().flatMap(p -> actionsOfMove.getOrDefault(p, List.of()).stream()).toList();
            actions.forEach(a -> recommendations.addParents(a.id(), parents));
            explanation(r.id(), runId, plan.strategy(), m, assembled);
            // named as its apply and its end will be: the whole VM when it moves with its home
            history(clusterId, "recommended", m.reason().label() + ": " + descriptions.of(recommendations.actions(r.id()))
                    + (m.autoApplicable() ? " (automated)" : " (manual: awaiting approval)"), r.id());
            if (m.autoApplicable()) {
                applyNow(clusterId, r.id(), m.reason().label(), applied);
            }
        }
        return new Recorded(ids, applied, faults);
    }

    private void applyNow(String clusterId, long recommendationId, String reason, List<Long> applied) {
        try {
            recommendations.applyAutomatically(recommendationId, reason);
            applied.add(recommendationId);
        } catch (IllegalStateException e) {
            // no vCenter, or the recommendation changed state meanwhile: it stays for an administrator
            history(clusterId, "not-applied", truncate(e.getMessage(), 1900), recommendationId);
        }
    }

    void explanation(long recommendationId, long runId, String strategy, Move m, ClusterStateAssembler.Assembled a) {
        List<BalancingViews.DatastoreForecastView> forecasts = new ArrayList<>();
        String summary = m.explanation() == null ? m.reason().wireName() : m.explanation().summary();
        if (m.explanation() != null) {
            m.explanation().datastores().forEach(f -> forecasts.add(BalancingViews.DatastoreForecastView.of(f, a)));
        }
        Instant now = clock.instant();
        writeExplanation(new BalancingViews.ExplanationView(recommendationId, runId, strategy, m.reason().wireName(),
                m.vmId(), m.diskIds(), m.sourceDatastoreId(), m.destinationDatastoreId(), m.sizeGb(), m.autoApplicable(), m.wave(),
                summary, forecasts, BalancingViews.EstimateView.of(m.cost()), BalancingViews.EstimateView.of(m.benefit()), now.toString()));
    }

    private void writeExplanation(BalancingViews.ExplanationView v) {
        String body;
        try {
            body = json.writeValueAsString(v);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("explanation of recommendation " + v.recommendationId() + " cannot be written", e);
        }
        store.insertExplanation(v, truncate(String.join(",", v.diskIds()), 1024), truncate(v.summary(), 2000), body);
    }

    public Optional<BalancingViews.ExplanationView> explanation(long recommendationId) {
        return store.explanationJson(recommendationId).map(s -> {
                    try {
                        return json.readValue(s, BalancingViews.ExplanationView.class);
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException("stored explanation of recommendation " + recommendationId + " is unreadable", e);
                    }
                });
    }

    /** Still-PENDING recommendations this engine made for a cluster with the given reason codes: superseded by a newer plan. */
    public void supersede(String clusterId, List<String> reasonCodes, String datastoreId) {
        dismissPending(clusterId, reasonCodes, datastoreId, "superseded", "dismissed: a newer run replaces it");
    }

    /**
     * Storage DRS was turned off for the cluster: every still-PENDING recommendation this engine
     * made for it is withdrawn, as a vCenter pod lists no Storage DRS recommendations while it is
     * off. One an administrator made (no explanation: not the engine's) stays, and so does a
     * recommendation being applied: a running storage vMotion is not stopped.
     *
     * @return how many were withdrawn
     */
    public int withdraw(String clusterId) {
        return dismissPending(clusterId, null, null, "withdrawn", "dismissed: Storage DRS was turned off for the cluster");
    }

    /** {@code reasonCodes} null: all; {@code datastoreId} null: any source. */
    private int dismissPending(String clusterId, List<String> reasonCodes, String datastoreId, String action, String detail) {
        int dismissed = 0;
        for (Long id : store.pendingEngineRecommendations(clusterId, reasonCodes, datastoreId)) {
            try {
                recommendations.dismiss(id, action, detail);
                dismissed++;
            } catch (IllegalStateException raced) {
                log.debug("recommendation {} changed state meanwhile: {}", id, raced.getMessage());
            }
        }
        return dismissed;
    }

    /** Stores a fault; its subject names the disk, VM or datastore as the vSphere Client shows them. */
    BalancingViews.FaultView fault(String clusterId, long runId, BalancingViews.FaultView f, DisplayNames names) {
        String subject;
        if (f.diskId() != null && !f.diskId().isEmpty()) {
            subject = String.join(", ", Arrays.stream(f.diskId().split(",")).map(names::disk).toList());
        } else if (f.vmId() != null) {
            subject = "VM " + names.vm(f.vmId());
        } else {
            subject = "datastore " + names.datastore(f.datastoreId());
        }
        if (f.vmId() != null && f.datastoreId() != null) {
            subject += " on " + names.datastore(f.datastoreId());
        }
        store.insertFault(clusterId, truncate(subject, 255),
                truncate((f.reasonCode() == null ? "" : io.opensdrs.balance.ReasonCode.ofWireName(f.reasonCode())
                        .map(io.opensdrs.balance.ReasonCode::label).orElse(f.reasonCode()) + ": ") + f.message(), 2000), Timestamp.from(clock.instant()),
                f.reasonCode(), f.vmId(), f.diskId() == null ? null : truncate(f.diskId(), 128), f.datastoreId(), runId);
        return f;
    }

    public void history(String clusterId, String action, String detail, Long recommendationId) {
        history.record(clusterId, action, detail, recommendationId);
    }

    static String truncate(String s, int max) {
        return ActionHistoryRepository.truncate(s, max);
    }
}
