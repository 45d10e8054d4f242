package io.opensdrs.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opensdrs.server.AdminApi;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's OpenAPI document as committed for the plugin ({@code plugin-ui/openapi.json}), from which the
 * plugin's REST client types are generated at its build: this fails when the server's API and that file differ,
 * so a changed controller reaches the plugin as a changed file and, where the plugin no longer fits it, a type
 * error. {@code -Dsdrs.openapi.update=true} writes the server's document to the file instead.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.plugin.register=false",
})
class OpenApiDocumentTest {

    static final Path COMMITTED = Path.of("..", "plugin-ui", "openapi.json");
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    @Autowired TestRestTemplate rest;

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) throws IOException {
        Path dir = Files.createTempDirectory("sdrs-openapi-h2-");
        r.add("sdrs.data-dir", dir::toString);
    }

    @Test
    void thePluginsCommittedOpenApiDocumentIsTheServers() throws Exception {
        JsonNode live = new AdminApi(rest).call(HttpMethod.GET, "/v3/api-docs", null, 200);
        // the address the test server listened on is no part of the API
        ((ObjectNode) live).remove("servers");
        String text = JSON.writeValueAsString(JSON.convertValue(live, Map.class)) + "\n";
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "openapi.json"), text);
        assertThat(live.path("paths").has("/api/v1/clusters/{clusterId}/capacity-plan")).as("the capacity planner's endpoint").isTrue();
        if (Boolean.getBoolean("sdrs.openapi.update")) {
            Files.writeString(COMMITTED, text);
        }
        assertThat(Files.exists(COMMITTED) ? JSON.readTree(COMMITTED.toFile()) : null)
                .as("%s is not the server's OpenAPI document (written to server/target/openapi.json); update it with"
                        + " ./mvnw -o -pl server test -Dtest=OpenApiDocumentTest -Dsdrs.openapi.update=true, then rebuild the plugin"
                        + " (its client types come from the file) and commit both", COMMITTED)
                .isEqualTo(live);
    }
}
