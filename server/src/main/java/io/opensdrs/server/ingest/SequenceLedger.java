package io.opensdrs.server.ingest;

import org.springframework.stereotype.Component;


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

    private final AgentRepository agents;

    public SequenceLedger(AgentRepository agents) {
        this.agents = agents;
    }

    /** Must be called inside a transaction; on APPLIED the caller stores the data in the same one. */
    public Outcome advance(String agentId, long seq, int samples) {
        if (agents.advanceSeq(agentId, seq, samples)) {
            return Outcome.APPLIED;
        }
        return agents.revoked(agentId).orElse(true) ? Outcome.REVOKED : Outcome.DUPLICATE;
    }

    public long lastAcceptedSeq(String agentId) {
        return agents.lastSeq(agentId).orElse(0L);
    }
}
