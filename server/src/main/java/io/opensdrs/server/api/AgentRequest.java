package io.opensdrs.server.api;

import io.opensdrs.server.problems.ApiIds;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.List;

/**
 * POST /api/v1/agents: issue a credential for a new agent id, bound to the ESX hosts named (or, with
 * none, to the host the agent first registers as).
 */
public record AgentRequest(@NotNull @Pattern(regexp = ApiIds.IDENTIFIER, message = ApiIds.IDENTIFIER_MESSAGE) String agentId,
                           @Schema(description = "ESX host names, as vCenter knows them, the agent may register and report as;"
                                   + " none: the host of its first registration")
                           @Size(max = 64) List<@NotNull @Pattern(regexp = ApiIds.NAME, message = ApiIds.NAME_MESSAGE) String> hosts) {
}
