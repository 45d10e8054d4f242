package io.opensdrs.server.api;

import io.opensdrs.server.problems.ApiIds;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** POST /api/v1/agents: issue a credential for a new agent id. */
public record AgentRequest(@NotNull @Pattern(regexp = ApiIds.AGENT, message = ApiIds.AGENT_MESSAGE) String agentId) {
}
