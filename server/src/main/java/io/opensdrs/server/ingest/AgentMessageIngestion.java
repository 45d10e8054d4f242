package io.opensdrs.server.ingest;

import io.opensdrs.server.models.DatastoreModels;
import io.opensdrs.server.stats.DiskWindowIngestion;
import io.opensdrs.shared.agent.v1.Ack;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.BufferReport;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;

/**
 * Applies one agent message: validate, then in one transaction advance the {@link SequenceLedger}
 * and store the message's effects, then (after the commit) fold the samples into the live
 * percentiles, then build the ack. The ack is therefore only ever sent for committed effects.
 */
@Component
public class AgentMessageIngestion {

    /** Thrown when the agent's credential was revoked while its session was open. */
    public static final class RevokedException extends RuntimeException {
        RevokedException(String agentId) {
            super("credential of agent " + agentId + " is revoked");
        }
    }

    private final TransactionTemplate tx;
    private final SequenceLedger ledger;
    private final DiskWindowIngestion windows;
    private final DatastoreModels models;
    private final DatastoreHeartbeats heartbeats;
    private final AgentRepository agents;
    private final IngestMetrics metrics;
    private final AgentHostBinding hostBinding;

    public AgentMessageIngestion(TransactionTemplate tx, SequenceLedger ledger, DiskWindowIngestion windows,
                                 DatastoreModels models,
                                 DatastoreHeartbeats heartbeats, AgentRepository agents, IngestMetrics metrics,
                                 AgentHostBinding hostBinding) {
        this.hostBinding = hostBinding;
        this.tx = tx;
        this.ledger = ledger;
        this.windows = windows;
        this.models = models;
        this.heartbeats = heartbeats;
        this.agents = agents;
        this.metrics = metrics;
    }

    /** The ack to send. */
    public Ack apply(String agentId, AgentMessage m) {
        Optional<String> problem = AgentMessageValidator.check(m);
        if (problem.isEmpty() && m.hasDiskStats()) {
            problem = hostBinding.report(agentId, "disk_stats.host", m.getDiskStats().getHost());
        }
        if (problem.isEmpty() && m.hasDatastoreState()) {
            problem = hostBinding.report(agentId, "datastore_state.host", m.getDatastoreState().getHost());
        }
        if (problem.isPresent()) {
            metrics.message("rejected", 0);
            return ack(m.getSeq(), AckStatus.REJECTED, problem.get(), ledger.lastAcceptedSeq(agentId));
        }
        return applyNumbered(agentId, m);
    }

    private Ack applyNumbered(String agentId, AgentMessage m) {
        int samples = m.hasDiskStats() ? m.getDiskStats().getSamplesCount() : 0;
        SequenceLedger.Outcome outcome = tx.execute(status -> {
            SequenceLedger.Outcome o = ledger.advance(agentId, m.getSeq(), samples);
            if (o != SequenceLedger.Outcome.APPLIED) {
                return o;
            }
            switch (m.getBodyCase()) {
                case DISK_STATS:
                    windows.store(agentId, m.getSeq(), m.getDiskStats());
                    break;
                case DATASTORE_STATE:
                    heartbeats.record(m.getDatastoreState());
                    break;
                case INJECTOR_RESULT:
                    models.recordInjectorResult(agentId, m.getSeq(), m.getInjectorResult());
                    break;
                case BUFFER_REPORT:
                    BufferReport b = m.getBufferReport();
                    agents.recordBuffer(agentId, b.getBuffered(), b.getDroppedOverflow());
                    break;
                default:
                    throw new IllegalStateException("validated message without a body");
            }
            return o;
        });
        switch (outcome) {
            case APPLIED:
                if (m.hasDiskStats()) {
                    windows.fold(m.getDiskStats());
                }
                metrics.message("accepted", samples);
                return ack(m.getSeq(), AckStatus.ACCEPTED, "", m.getSeq());
            case DUPLICATE:
                metrics.message("duplicate", 0);
                return ack(m.getSeq(), AckStatus.DUPLICATE, "seq " + m.getSeq() + " was already applied",
                        ledger.lastAcceptedSeq(agentId));
            default:
                throw new RevokedException(agentId);
        }
    }

    private static Ack ack(long seq, AckStatus status, String reason, long cumulative) {
        return Ack.newBuilder().setSeq(seq).setStatus(status).setReason(reason).setCumulativeSeq(cumulative).build();
    }
}
