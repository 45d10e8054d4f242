package io.opensdrs.agent.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The agent's per-agent bearer token (SPEC §5; agent.proto: every call carries
 * {@code authorization: Bearer <token>}), issued by the server's {@code POST /api/v1/agents}. It
 * comes from a file ({@code --token-file}, so that it is not in the process list) or from the
 * environment variable {@code SDRS_AGENT_TOKEN}; never from a command-line argument.
 */
public record AgentCredential(String agentId, String token) {

    public static final String TOKEN_ENV = "SDRS_AGENT_TOKEN";

    public AgentCredential {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("empty agent token");
        }
        token = token.strip();
    }

    /** From {@code tokenFile} when given, else from {@code SDRS_AGENT_TOKEN}. */
    public static AgentCredential load(String agentId, Path tokenFile, Map<String, String> env) throws IOException {
        if (tokenFile != null) {
            String t = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
            if (t.isEmpty()) {
                throw new IllegalArgumentException("--token-file " + tokenFile + " is empty");
            }
            return new AgentCredential(agentId, t);
        }
        String t = env.get(TOKEN_ENV);
        if (t == null || t.isBlank()) {
            throw new IllegalArgumentException("--server needs a credential: --token-file FILE or " + TOKEN_ENV);
        }
        return new AgentCredential(agentId, t);
    }

    @Override
    public String toString() {
        return "AgentCredential[" + agentId + ", token hidden]";
    }
}
