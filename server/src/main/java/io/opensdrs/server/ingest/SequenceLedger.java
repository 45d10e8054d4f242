package io.opensdrs.server.ingest;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * The per-agent highest applied sequence number (agent.proto: AgentMessage.seq is strictly
 * increasing per agent across reconnects; a resend of an applied seq is a DUPLICATE).
 *
 * <p>{@link #advance} runs inside the transaction that stores the message's data: the ledger and
 * the data commit together, so if the server dies after the commit but before the ack, the
 * agent's resend finds the seq already applied and is told DUPLICATE, not counted twice. The
 * conditional UPDATE also takes the agent row's lock, which serialises concurrent messages of one
 * agent, and re-checks revocation inside the transaction.
 */
@Component
public class SequenceLedger {

    public enum Outcome { APPLIED, DUPLICATE, REVOKED }

    private final JdbcTemplate jdbc;

    public SequenceLedger(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Must be called inside a transaction; on APPLIED the caller stores the data in the same one. */
    public Outcome advance(String agentId, long seq, int samples) {
        int n = jdbc.update("UPDATE agent SET last_seq = ?, accepted_messages = accepted_messages + 1,"
                        + " accepted_samples = accepted_samples + ? WHERE agent_id = ? AND revoked = FALSE AND last_seq < ?",
                seq, samples, agentId, seq);
        if (n == 1) {
            return Outcome.APPLIED;
        }
        List<Boolean> revoked = jdbc.queryForList("SELECT revoked FROM agent WHERE agent_id = ?", Boolean.class, agentId);
        return revoked.isEmpty() || revoked.get(0) ? Outcome.REVOKED : Outcome.DUPLICATE;
    }

    public long lastAcceptedSeq(String agentId) {
        List<Long> v = jdbc.queryForList("SELECT last_seq FROM agent WHERE agent_id = ?", Long.class, agentId);
        return v.isEmpty() ? 0 : v.get(0);
    }
}
