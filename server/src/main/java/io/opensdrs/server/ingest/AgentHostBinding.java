package io.opensdrs.server.ingest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ties an agent credential to the ESX hosts it was issued for (SPEC §5), so that a stolen or misused
 * token cannot speak for another host: register as it, report statistics for its datastores (which
 * feed balancing) or receive its throttle limits. A credential issued without hosts is bound to the
 * host of its first registration. Refusals are logged, as a security event.
 */
@Component
public class AgentHostBinding {

    private static final Logger log = LoggerFactory.getLogger(AgentHostBinding.class);

    private final AgentRepository agents;
    /** The bound hosts by agent, read once: a binding never changes once made. */
    private final ConcurrentHashMap<String, List<String>> bound = new ConcurrentHashMap<>();

    public AgentHostBinding(AgentRepository agents) {
        this.agents = agents;
    }

    /**
     * At registration, in the registration's transaction: binds an unbound credential to {@code host};
     * empty when the agent may register as {@code host}, else why not.
     */
    Optional<String> register(String agentId, String host) {
        List<String> hosts = agents.boundHosts(agentId);
        if (hosts.isEmpty()) {
            agents.bindHosts(agentId, List.of(host));
            log.info("agent {}: credential bound to host {}, the host of its first registration", agentId, host);
            return Optional.empty();
        }
        return refusal(agentId, host, hosts, "register as");
    }

    /** Whether the agent may report for {@code host}: empty when it may, else why not (field {@code field}). */
    Optional<String> report(String agentId, String field, String host) {
        List<String> hosts = bound.computeIfAbsent(agentId, agents::boundHosts);
        if (hosts.isEmpty()) {
            bound.remove(agentId);
            return Optional.of(field + " '" + host + "': the agent has not registered, so its credential is bound to no host yet");
        }
        return refusal(agentId, host, hosts, "report for").map(r -> field + " " + r);
    }

    private static Optional<String> refusal(String agentId, String host, List<String> hosts, String what) {
        if (hosts.contains(host)) {
            return Optional.empty();
        }
        log.warn("agent {}: refused to {} host {}; its credential is bound to {}", agentId, what, host, hosts);
        return Optional.of("'" + host + "' is not a host this agent's credential is bound to " + hosts);
    }
}
