package io.opensdrs.server.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Answers a request refused before it reaches a controller (authentication, throttling, the browser
 * guard) with the same RFC 7807 problem detail the controllers' errors use, naming the field (here a
 * header or the credentials) that made it fail.
 */
final class ProblemResponses {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ProblemResponses() {
    }

    static void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String title, String field,
                      String detail) throws IOException {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "about:blank");
        p.put("title", title);
        p.put("status", status.value());
        p.put("detail", field + ": " + detail);
        p.put("instance", request.getRequestURI());
        p.put("field", field);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        JSON.writeValue(response.getOutputStream(), p);
    }
}
