package io.opensdrs.server.ingest;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.opensdrs.shared.agent.v1.Ack;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.AgentServiceGrpc;
import io.opensdrs.shared.agent.v1.ContractVersion;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.RegisterResponse;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.Optional;

/**
 * The server side of agent.proto's AgentService. Session messages are applied one at a time on
 * the call's thread: gRPC asks the agent for the next message only when onNext returns, so a
 * slow database slows the agents down instead of queueing unbounded work here.
 */
@Component
public class AgentGrpcService extends AgentServiceGrpc.AgentServiceImplBase {

    private static final Logger log = LoggerFactory.getLogger(AgentGrpcService.class);
    static final int STATS_WINDOW_SECONDS = 20;       // Pesto §5.2
    static final int HEARTBEAT_PERIOD_SECONDS = 4;    // Pesto §5.1.1

    private final AgentMessageIngestion ingestion;
    private final SequenceLedger ledger;
    private final AgentSessions sessions;
    private final AgentRepository agents;
    private final TransactionTemplate tx;
    private final AgentHostBinding hostBinding;

    public AgentGrpcService(AgentMessageIngestion ingestion, SequenceLedger ledger, AgentSessions sessions,
                            AgentRepository agents, TransactionTemplate tx, AgentHostBinding hostBinding) {
        this.hostBinding = hostBinding;
        this.ingestion = ingestion;
        this.ledger = ledger;
        this.sessions = sessions;
        this.agents = agents;
        this.tx = tx;
    }

    @Override
    public void register(RegisterRequest request, StreamObserver<RegisterResponse> response) {
        String agentId = AgentAuthInterceptor.AGENT_ID.get();
        RegisterResponse.Builder r = RegisterResponse.newBuilder()
                .setServerContractMinor(ContractVersion.CONTRACT_MINOR_VERSION.getNumber())
                .setStatsWindowSeconds(STATS_WINDOW_SECONDS)
                .setHeartbeatPeriodSeconds(HEARTBEAT_PERIOD_SECONDS);
        Optional<String> problem = AgentMessageValidator.check(request);
        if (problem.isEmpty() && !request.getAgentId().equals(agentId)) {
            problem = Optional.of("agent_id '" + request.getAgentId() + "' is not the agent this credential was issued for");
        }
        if (problem.isPresent()) {
            response.onNext(r.setAccepted(false).setReason(problem.get()).setLastAcceptedSeq(ledger.lastAcceptedSeq(agentId)).build());
            response.onCompleted();
            return;
        }
        Optional<String> refused = tx.execute(s -> {
            Optional<String> hostRefused = hostBinding.register(agentId, request.getHost());
            if (hostRefused.isEmpty()) {
                agents.register(agentId, request, Instant.now());
            }
            return hostRefused.map(h -> "host " + h);
        });
        if (refused != null && refused.isPresent()) {
            response.onNext(r.setAccepted(false).setReason(refused.get()).setLastAcceptedSeq(ledger.lastAcceptedSeq(agentId)).build());
            response.onCompleted();
            return;
        }
        response.onNext(r.setAccepted(true).setLastAcceptedSeq(ledger.lastAcceptedSeq(agentId)).build());
        response.onCompleted();
    }

    @Override
    public StreamObserver<AgentMessage> session(StreamObserver<ServerMessage> responseObserver) {
        String agentId = AgentAuthInterceptor.AGENT_ID.get();
        ServerCallStreamObserver<ServerMessage> out = (ServerCallStreamObserver<ServerMessage>) responseObserver;
        sessions.opened(agentId, out);
        out.setOnCancelHandler(() -> sessions.closed(agentId, out));
        return new StreamObserver<>() {
            private boolean done;

            @Override
            public void onNext(AgentMessage message) {
                if (done) {
                    return;
                }
                Ack ack;
                try {
                    ack = ingestion.apply(agentId, message);
                } catch (AgentMessageIngestion.RevokedException e) {
                    finish(Status.UNAUTHENTICATED.withDescription(e.getMessage()));
                    return;
                } catch (RuntimeException e) {
                    // nothing was committed (the transaction rolled back); the agent resends later
                    log.warn("agent {}: message seq {} failed: {}", agentId, message.getSeq(), e.toString());
                    finish(Status.UNAVAILABLE.withDescription("server could not store seq " + message.getSeq()));
                    return;
                }
                synchronized (out) {
                    if (!out.isCancelled()) {
                        try {
                            out.onNext(ServerMessage.newBuilder().setAck(ack).build());
                        } catch (IllegalStateException closed) {
                            done = true;
                        }
                    }
                }
            }

            @Override
            public void onError(Throwable t) {
                done = true;
                sessions.closed(agentId, out);
            }

            @Override
            public void onCompleted() {
                done = true;
                sessions.closed(agentId, out);
                synchronized (out) {
                    try {
                        out.onCompleted();
                    } catch (IllegalStateException closed) {
                        // closed by a revocation meanwhile
                    }
                }
            }

            private void finish(Status status) {
                done = true;
                sessions.closed(agentId, out);
                synchronized (out) {
                    try {
                        out.onError(status.asRuntimeException());
                    } catch (IllegalStateException closed) {
                        // already closed
                    }
                }
            }
        };
    }
}
