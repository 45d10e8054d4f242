package io.opensdrs.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST API as the integration suites' administrator calls it: basic auth with the suites'
 * {@code admin}/{@code test-secret} user, JSON in and out, and the status the call must answer.
 */
public final class AdminApi {

    public static final String USER = "admin";
    public static final String PASSWORD = "test-secret";

    private final TestRestTemplate rest;
    private static final ObjectMapper JSON = new ObjectMapper();

    public AdminApi(TestRestTemplate rest) {
        this.rest = rest.withBasicAuth(USER, PASSWORD);
    }

    public TestRestTemplate rest() {
        return rest;
    }

    /**
     * Sends {@code body} (a JSON string, or an object to serialise; null for none), asserts the
     * status and returns the response's JSON (null when it has no body).
     */
    public JsonNode call(HttpMethod method, String path, Object body, int expectedStatus) throws Exception {
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        String payload = body == null ? null : body instanceof String s ? s : JSON.writeValueAsString(body);
        ResponseEntity<String> r = rest.exchange(path, method, new HttpEntity<>(payload, h), String.class);
        assertThat(r.getStatusCode().value()).as(method + " " + path + " -> " + r.getBody()).isEqualTo(expectedStatus);
        return r.getBody() == null ? null : JSON.readTree(r.getBody());
    }

    /** Sends a JSON body and returns the response's JSON, whatever the status. */
    public JsonNode callAnyStatus(HttpMethod method, String path, String body) throws Exception {
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        ResponseEntity<String> r = rest.exchange(path, method, new HttpEntity<>(body, h), String.class);
        return JSON.readTree(r.getBody() == null ? "{\"status\":" + r.getStatusCode().value() + "}" : r.getBody());
    }
}
