package io.opensdrs.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Set;

/**
 * Keeps another web site from acting through an administrator's browser (cross-site request
 * forgery). The API authenticates every call with an {@code Authorization} header and never asks a
 * browser to remember credentials (no Basic challenge), and on top of that, as OWASP's CSRF guidance
 * for APIs advises, a change (POST, PUT, PATCH, DELETE under {@code /api/}):
 * <ul>
 *   <li>is refused when the browser says it comes from another site ({@code Sec-Fetch-Site}
 *       cross-site or same-site: the plugin's pages are served by this server, so theirs are
 *       same-origin);</li>
 *   <li>carries JSON: a body of any other content type — the only ones a cross-site form can send
 *       without the browser first asking this server, which grants no cross-origin access — or a
 *       body without a content type is refused with 415 naming {@code Content-Type}. A change
 *       without a body (apply, run, revoke) may omit it.</li>
 * </ul>
 */
final class BrowserRequestGuard extends OncePerRequestFilter {

    private static final Set<String> CHANGES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> OWN_SITE = Set.of("same-origin", "none");

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !CHANGES.contains(request.getMethod()) || !request.getRequestURI().startsWith("/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !OWN_SITE.contains(site.toLowerCase())) {
            ProblemResponses.write(request, response, HttpStatus.FORBIDDEN, "Cross-site request refused", "Sec-Fetch-Site",
                    "a change to OpenSDRS can only come from its own pages or a client that is not a browser, not from a page of another site ("
                            + site + ")");
            return;
        }
        String type = request.getContentType();
        boolean hasBody = request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
        if (type != null ? !isJson(type) : hasBody) {
            ProblemResponses.write(request, response, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type", "Content-Type",
                    "a change takes a JSON body (application/json)" + (type == null ? "; the request has a body without a content type"
                            : ", not " + type));
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean isJson(String contentType) {
        try {
            MediaType t = MediaType.parseMediaType(contentType);
            return "application".equals(t.getType()) && ("json".equals(t.getSubtype()) || t.getSubtype().endsWith("+json"));
        } catch (RuntimeException unparseable) {
            return false;
        }
    }
}
