package io.opensdrs.server.balancing;

import io.opensdrs.server.ingest.AgentSessions;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.springframework.jdbc.core.JdbcTemplate;
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
    private final JdbcTemplate jdbc;

    public AgentDirectives(AgentSessions sessions, JdbcTemplate jdbc) {
        this.sessions = sessions;
        this.jdbc = jdbc;
    }

    public List<String> agentsSeeing(String datastoreName) {
        return jdbc.queryForList("SELECT ad.agent_id FROM agent_datastore ad JOIN agent a ON a.agent_id = ad.agent_id"
                + " WHERE ad.datastore_name = ? AND a.revoked = FALSE ORDER BY ad.agent_id", String.class, datastoreName);
    }

    public List<String> agentsOnHost(String hostName) {
        return jdbc.queryForList("SELECT agent_id FROM agent WHERE host = ? AND revoked = FALSE ORDER BY agent_id", String.class, hostName);
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
