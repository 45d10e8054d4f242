package io.opensdrs.server.balancing;

import io.opensdrs.server.ingest.AgentSessions;
import io.opensdrs.shared.agent.v1.ServerMessage;
import io.opensdrs.server.ingest.AgentRepository;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

/**
 * Directives to host agents over their Session streams (agent.proto ServerMessage): which agents
 * see a datastore (their RegisterRequest.datastores, table agent_datastore) or run on a host
 * (agent.host = the inventory host's name), and sending to them.
 */
@Component
public class AgentDirectives {

    private final AgentSessions sessions;
    private final AgentRepository agents;

    public AgentDirectives(AgentSessions sessions, AgentRepository agents) {
        this.sessions = sessions;
        this.agents = agents;
    }

    public List<String> agentsSeeing(String datastoreName) {
        return agents.agentsSeeing(datastoreName);
    }

    public List<String> agentsOnHost(String hostName) {
        return agents.agentsOn(hostName);
    }

    /** The agents the message reached (on at least one open session). */
    public List<String> send(List<String> agents, ServerMessage message) {
        List<String> reached = new ArrayList<>();
        for (String a : agents) {
            if (sessions.send(a, message) > 0) {
                reached.add(a);
            }
        }
        return reached;
    }
}
