package io.opensdrs.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** The server's REST API as an administrator (HTTP Basic), JSON in and out. */
public final class ServerApi {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A non-2xx answer, with the body the server gave (an RFC 7807 problem detail). */
    public static final class ApiException extends IOException {
        private final int status;

        ApiException(String what, int status, String body) {
            super(what + " -> HTTP " + status + ": " + body);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private final String base;
    private final Duration timeout;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ServerApi(String base, String user, String password) {
        this(base, user, password, Duration.ofSeconds(30));
    }

    /** @param timeout how long one request may take (a capture of a large cluster reads hours of windows) */
    public ServerApi(String base, String user, String password, Duration timeout) {
        this.timeout = timeout;
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public String base() {
        return base;
    }

    public JsonNode get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    public JsonNode post(String path, Object body) throws IOException, InterruptedException {
        return send("POST", path, body);
    }

    public JsonNode put(String path, Object body) throws IOException, InterruptedException {
        return send("PUT", path, body);
    }

    /** The status of an unauthenticated GET (health), or -1 when nothing answers. */
    public int openStatus(String path) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    private JsonNode send(String method, String path, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Authorization", authorization).header("Accept", "application/json");
        if (body != null) {
            b.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new ApiException(method + " " + path, r.statusCode(), r.body());
        }
        return r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
    }
}
