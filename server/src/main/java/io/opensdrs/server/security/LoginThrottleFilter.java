package io.opensdrs.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Applies the {@link LoginThrottle} to HTTP Basic logins: a request with credentials for a blocked
 * user or from a blocked address is answered 429 with {@code Retry-After} before its password is
 * checked; after the request, a 401 counts as a failure and anything else as a success.
 */
final class LoginThrottleFilter extends OncePerRequestFilter {

    private final LoginThrottle throttle;

    LoginThrottleFilter(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            chain.doFilter(request, response);
            return;
        }
        String user = userOf(header.substring(6).trim());
        String address = request.getRemoteAddr();
        Optional<Duration> wait = throttle.wait(user, address);
        if (wait.isPresent()) {
            long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
            response.setHeader("Retry-After", Long.toString(seconds));
            ProblemResponses.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "Too many failed logins", "Authorization",
                    "too many failed logins for this user or from this address; try again in " + seconds + " s");
            return;
        }
        chain.doFilter(request, response);
        if (response.getStatus() == HttpStatus.UNAUTHORIZED.value()) {
            throttle.failed(user, address);
        } else {
            throttle.succeeded(user, address);
        }
    }

    private static String userOf(String encoded) {
        try {
            String decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? decoded : decoded.substring(0, colon);
        } catch (IllegalArgumentException notBase64) {
            return "";
        }
    }
}
