package io.opensdrs.server.ingest;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-agent credentials (SPEC §5: agents authenticate with a per-agent credential the server can
 * revoke). A credential is a 256-bit random bearer token, shown once when issued; the database
 * keeps only its SHA-256 (a slow password hash buys nothing for a token of that entropy, and the
 * check runs on every gRPC call). Verified tokens are cached; revocation clears the cache entry
 * and closes the agent's open sessions, so it takes effect immediately.
 */
@Component
public class AgentCredentialStore {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final AgentRepository agents;
    private final AgentSessions sessions;
    private final ConcurrentHashMap<String, String> agentByTokenHash = new ConcurrentHashMap<>();
    /** Counts revocations, so that a token read from the database before one is not cached after its cache clear. */
    private final AtomicLong revocations = new AtomicLong();

    public AgentCredentialStore(AgentRepository agents, AgentSessions sessions) {
        this.agents = agents;
        this.sessions = sessions;
    }

    /** What issuing returns: the token is not stored and cannot be shown again. */
    public record IssuedCredential(String agentId, String token, Instant issuedAt) {
    }

    /** A credential's state, without its secret. */
    public record AgentRecord(String agentId, boolean revoked, Instant issuedAt, Instant revokedAt, List<String> boundHosts, String host,
                              String agentVersion, Instant registeredAt, long lastAcceptedSeq,
                              long acceptedMessages, long acceptedSamples, long buffered, long droppedOverflow) {
    }

    /**
     * Issues a credential for a new agent id, bound to {@code hosts} (ESX host names) or, when none are
     * given, to the host of the agent's first registration ({@link AgentHostBinding}).
     *
     * @throws IllegalStateException when the id already has one (revoke it and issue under a new id)
     */
    @Transactional
    public IssuedCredential issue(String agentId, List<String> hosts) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = "sdrs_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Instant now = Instant.now();
        try {
            agents.insertCredential(agentId, hash(token), now);
        } catch (DuplicateKeyException e) {
            throw new IllegalStateException("agent " + agentId + " already has a credential");
        }
        agents.bindHosts(agentId, new java.util.TreeSet<>(hosts));
        return new IssuedCredential(agentId, token, now);
    }

    /** Revokes the agent's credential; returns false when the agent is unknown. */
    public boolean revoke(String agentId) {
        boolean revoked = agents.revoke(agentId, Instant.now());
        revocations.incrementAndGet();
        agentByTokenHash.values().removeIf(agentId::equals);
        sessions.closeAll(agentId, "credential revoked");
        return revoked || exists(agentId);
    }

    public boolean exists(String agentId) {
        return agents.exists(agentId);
    }

    /** The agent a bearer token belongs to, if the token is known and not revoked. */
    public Optional<String> authenticate(String token) {
        if (token == null || token.isEmpty() || token.length() > 200) {
            return Optional.empty();
        }
        String h = hash(token);
        String cached = agentByTokenHash.get(h);
        if (cached != null) {
            return Optional.of(cached);
        }
        long before = revocations.get();
        Optional<String> id = agents.agentWithToken(h);
        if (id.isPresent()) {
            agentByTokenHash.put(h, id.get());
            if (revocations.get() != before) {
                // a revocation ran while the token was read: what was read may be stale, and the
                // revocation's cache clear may have run before the put above
                agentByTokenHash.remove(h);
                return agents.agentWithToken(h);
            }
        }
        return id;
    }

    public List<AgentRecord> list() {
        return agents.records();
    }

    public Optional<AgentRecord> find(String agentId) {
        return agents.record(agentId);
    }

    static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
