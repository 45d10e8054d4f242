package io.opensdrs.server.ingest;

import io.grpc.Status;
import io.opensdrs.shared.agent.v1.ServerMessage;
import io.grpc.stub.ServerCallStreamObserver;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open Session streams per agent, so that a revocation closes them at once (SPEC §5) and a
 * reconnecting agent's stale stream is closed when its new one opens (sequence numbers come from
 * one sender; two live streams of one agent could otherwise interleave).
 */
@Component
public class AgentSessions {

    private final Map<String, Set<ServerCallStreamObserver<ServerMessage>>> open = new ConcurrentHashMap<>();

    void opened(String agentId, ServerCallStreamObserver<ServerMessage> stream) {
        Set<ServerCallStreamObserver<ServerMessage>> mine = open.computeIfAbsent(agentId, k -> ConcurrentHashMap.newKeySet());
        for (ServerCallStreamObserver<ServerMessage> old : mine) {
            close(old, Status.ABORTED.withDescription("superseded by a newer session of agent " + agentId));
        }
        mine.clear();
        mine.add(stream);
    }

    void closed(String agentId, ServerCallStreamObserver<ServerMessage> stream) {
        Set<ServerCallStreamObserver<ServerMessage>> mine = open.get(agentId);
        if (mine != null) {
            mine.remove(stream);
        }
    }

    public int openSessions() {
        return open.values().stream().mapToInt(Set::size).sum();
    }

    void closeAll(String agentId, String why) {
        Set<ServerCallStreamObserver<ServerMessage>> mine = open.remove(agentId);
        if (mine != null) {
            for (ServerCallStreamObserver<ServerMessage> s : mine) {
                close(s, Status.UNAUTHENTICATED.withDescription(why));
            }
        }
    }

    // ------------------------------------------------------------------ directives (io.opensdrs.server.balancing)

    /**
     * Sends a directive (ThrottleLimits, CongestionThresholds, InjectorRequest) on the agent's
     * open sessions; answers how many took it (0: not connected, the caller retries later).
     * Synchronized on the stream like the acks, since a gRPC stream takes one writer at a time.
     */
    public int send(String agentId, ServerMessage message) {
        Set<ServerCallStreamObserver<ServerMessage>> mine = open.get(agentId);
        int sent = 0;
        if (mine != null) {
            for (ServerCallStreamObserver<ServerMessage> s : mine) {
                synchronized (s) {
                    try {
                        if (!s.isCancelled()) {
                            s.onNext(message);
                            sent++;
                        }
                    } catch (RuntimeException closed) {
                        // the stream ended meanwhile; the agent gets the directive on its next session
                    }
                }
            }
        }
        return sent;
    }

    private static void close(ServerCallStreamObserver<ServerMessage> s, Status status) {
        synchronized (s) {
            try {
                s.onError(status.asRuntimeException());
            } catch (IllegalStateException alreadyClosed) {
                // the stream ended on its own meanwhile
            }
        }
    }
}
