package io.opensdrs.server.api;

import io.opensdrs.server.ingest.AgentCredentialStore;
import io.opensdrs.server.problems.ApiIds;
import io.opensdrs.server.problems.NotFoundException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Host-agent credentials: issue (the token is shown once), list, revoke (takes effect at once). */
@RestController
@RequestMapping("/api/v1/agents")
@Tag(name = "agents")
public class AgentsController {

    private final AgentCredentialStore credentials;

    public AgentsController(AgentCredentialStore credentials) {
        this.credentials = credentials;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Issue a credential for a new agent id; the token is in this response only")
    public ApiViews.AgentIssued issue(@Valid @RequestBody AgentRequest request) {
        AgentCredentialStore.IssuedCredential c = credentials.issue(request.agentId(), request.hosts() == null ? java.util.List.of() : request.hosts());
        return new ApiViews.AgentIssued(c.agentId(), c.token(), c.issuedAt().toString(),
                "give the token to the agent (--token); it is not stored and cannot be shown again");
    }

    @GetMapping
    public List<AgentCredentialStore.AgentRecord> list() {
        return credentials.list();
    }

    @GetMapping("/{agentId}")
    @Operation(summary = "An agent: credential state, registration, highest accepted seq, accepted counts")
    public AgentCredentialStore.AgentRecord get(@PathVariable @Pattern(regexp = ApiIds.IDENTIFIER, message = ApiIds.IDENTIFIER_MESSAGE) String agentId) {
        return credentials.find(agentId).orElseThrow(() -> new NotFoundException("no agent " + agentId));
    }

    @PostMapping("/{agentId}/revoke")
    @Operation(summary = "Revoke an agent's credential; its open sessions are closed")
    public AgentCredentialStore.AgentRecord revoke(@PathVariable @Pattern(regexp = ApiIds.IDENTIFIER, message = ApiIds.IDENTIFIER_MESSAGE) String agentId) {
        if (!credentials.revoke(agentId)) {
            throw new NotFoundException("no agent " + agentId);
        }
        return credentials.find(agentId).orElseThrow();
    }
}
