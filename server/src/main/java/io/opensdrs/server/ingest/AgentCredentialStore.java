package io.opensdrs.server.ingest;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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

    private final JdbcTemplate jdbc;
    private final AgentSessions sessions;
    private final ConcurrentHashMap<String, String> agentByTokenHash = new ConcurrentHashMap<>();

    public AgentCredentialStore(JdbcTemplate jdbc, AgentSessions sessions) {
        this.jdbc = jdbc;
        this.sessions = sessions;
    }

    /** What issuing returns: the token is not stored and cannot be shown again. */
    public record IssuedCredential(String agentId, String token, Instant issuedAt) {
    }

    /** A credential's state, without its secret. */
    public record AgentRecord(String agentId, boolean revoked, Instant issuedAt, Instant revokedAt, String host,
                              String agentVersion, Instant registeredAt, long lastAcceptedSeq,
                              long acceptedMessages, long acceptedSamples, long buffered, long droppedOverflow) {
    }

    /**
     * Issues a credential for a new agent id.
     *
     * @throws IllegalStateException when the id already has one (revoke it and issue under a new id)
     */
    @Transactional
    public IssuedCredential issue(String agentId) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = "sdrs_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Instant now = Instant.now();
        try {
            jdbc.update("INSERT INTO agent (agent_id, token_hash, revoked, issued_at) VALUES (?, ?, FALSE, ?)",
                    agentId, hash(token), Timestamp.from(now));
        } catch (DuplicateKeyException e) {
            throw new IllegalStateException("agent " + agentId + " already has a credential");
        }
        return new IssuedCredential(agentId, token, now);
    }

    /** Revokes the agent's credential; returns false when the agent is unknown. */
    public boolean revoke(String agentId) {
        int n = jdbc.update("UPDATE agent SET revoked = TRUE, revoked_at = ? WHERE agent_id = ? AND revoked = FALSE",
                Timestamp.from(Instant.now()), agentId);
        agentByTokenHash.values().removeIf(agentId::equals);
        sessions.closeAll(agentId, "credential revoked");
        return n > 0 || exists(agentId);
    }

    public boolean exists(String agentId) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM agent WHERE agent_id = ?", Integer.class, agentId);
        return n != null && n > 0;
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
        List<String> ids = jdbc.queryForList("SELECT agent_id FROM agent WHERE token_hash = ? AND revoked = FALSE",
                String.class, h);
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        agentByTokenHash.put(h, ids.get(0));
        return Optional.of(ids.get(0));
    }

    public List<AgentRecord> list() {
        return jdbc.query(SELECT_RECORD + " ORDER BY agent_id", (rs, i) -> record(rs));
    }

    public Optional<AgentRecord> find(String agentId) {
        return jdbc.query(SELECT_RECORD + " WHERE agent_id = ?", (rs, i) -> record(rs), agentId).stream().findFirst();
    }

    private static final String SELECT_RECORD = "SELECT agent_id, revoked, issued_at, revoked_at, host, agent_version,"
            + " registered_at, last_seq, accepted_messages, accepted_samples, buffered, dropped_overflow FROM agent";

    private static AgentRecord record(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new AgentRecord(rs.getString(1), rs.getBoolean(2), instant(rs.getTimestamp(3)), instant(rs.getTimestamp(4)),
                rs.getString(5), rs.getString(6), instant(rs.getTimestamp(7)), rs.getLong(8), rs.getLong(9),
                rs.getLong(10), rs.getLong(11), rs.getLong(12));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
