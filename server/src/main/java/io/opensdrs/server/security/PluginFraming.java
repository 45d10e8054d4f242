package io.opensdrs.server.security;

import io.opensdrs.server.vcenter.PluginProperties;
import io.opensdrs.server.vcenter.VCenterProperties;
import org.springframework.security.web.header.HeaderWriter;
import org.springframework.security.web.header.writers.DelegatingRequestMatcherHeaderWriter;
import org.springframework.security.web.header.writers.StaticHeadersWriter;
import org.springframework.security.web.header.writers.frameoptions.XFrameOptionsHeaderWriter;
import org.springframework.security.web.util.matcher.RequestMatcher;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Who may show the server's pages in a frame. The vSphere Client shows a remote plugin's pages in a
 * frame, so {@code /ui/} answers with a CSP {@code frame-ancestors} naming this server and the
 * vSphere Client's origin (the registered vCenter's, or {@code sdrs.plugin.frame-ancestors}) in place
 * of {@code X-Frame-Options}; everything else keeps {@code X-Frame-Options: DENY}, so no other site
 * can frame a page and trick a click on it.
 */
final class PluginFraming {

    private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.\\-\\[\\]:]+");
    static final RequestMatcher UI = r -> r.getRequestURI().equals("/ui") || r.getRequestURI().startsWith("/ui/");
    static final RequestMatcher NOT_UI = r -> !UI.matches(r);

    private PluginFraming() {
    }

    static HeaderWriter uiPolicy(PluginProperties plugin, VCenterProperties vcenter) {
        return new DelegatingRequestMatcherHeaderWriter(UI, new StaticHeadersWriter("Content-Security-Policy",
                "frame-ancestors " + String.join(" ", ancestors(plugin, vcenter))));
    }

    static HeaderWriter denyElsewhere() {
        return new DelegatingRequestMatcherHeaderWriter(NOT_UI, new XFrameOptionsHeaderWriter(XFrameOptionsHeaderWriter.XFrameOptionsMode.DENY));
    }

    /** 'self', then the configured origins or the origin of vCenter's SDK URL; a malformed origin stops start-up naming the property. */
    static List<String> ancestors(PluginProperties plugin, VCenterProperties vcenter) {
        List<String> out = new ArrayList<>(List.of("'self'"));
        if (!plugin.getFrameAncestors().isEmpty()) {
            for (int i = 0; i < plugin.getFrameAncestors().size(); i++) {
                String o = plugin.getFrameAncestors().get(i).strip().replaceAll("/+$", "");
                if (!ORIGIN.matcher(o).matches()) {
                    throw new IllegalArgumentException("sdrs.plugin.frame-ancestors[" + i + "]: '" + plugin.getFrameAncestors().get(i)
                            + "' is not an origin such as https://vcenter.example.com");
                }
                out.add(o);
            }
        } else if (vcenter.getUrl() != null && !vcenter.getUrl().isBlank()) {
            URI u = URI.create(vcenter.getUrl().strip());
            out.add(u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort()));
        }
        return out;
    }
}
