package io.opensdrs.server.ingest;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Authenticates every agent call (SPEC §5; agent.proto: "Every call carries the agent's
 * credential in the authorization metadata header"). Calls without a known, unrevoked
 * {@code Bearer} token are closed with UNAUTHENTICATED before any handler runs.
 */
@Component
public class AgentAuthInterceptor implements ServerInterceptor {

    static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    /** The authenticated agent id of the current call. */
    public static final Context.Key<String> AGENT_ID = Context.key("sdrs-agent-id");

    private final AgentCredentialStore credentials;
    private final IngestMetrics metrics;

    public AgentAuthInterceptor(AgentCredentialStore credentials, IngestMetrics metrics) {
        this.credentials = credentials;
        this.metrics = metrics;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String header = headers.get(AUTHORIZATION);
        Optional<String> agent = Optional.empty();
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            agent = credentials.authenticate(header.substring(7).trim());
        }
        if (agent.isEmpty()) {
            metrics.refusedCall();
            call.close(Status.UNAUTHENTICATED.withDescription(header == null
                    ? "missing authorization metadata (Bearer <agent token>)"
                    : "unknown or revoked agent credential"), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        return Contexts.interceptCall(Context.current().withValue(AGENT_ID, agent.get()), call, headers, next);
    }
}
