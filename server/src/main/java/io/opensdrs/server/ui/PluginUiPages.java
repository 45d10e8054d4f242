package io.opensdrs.server.ui;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The plugin's pages at the address the server prints and vCenter registers: the build copies the
 * plugin into {@code static/ui}, and Spring serves a static folder's {@code index.html} only at the
 * site root, so {@code /ui/} would answer 404. {@code /ui/} shows the plugin's {@code index.html}
 * (a forward, so the browser keeps {@code /ui/} and the page's relative {@code ./assets/} resolve
 * under it); {@code /ui} redirects to {@code /ui/} for the same reason.
 */
@Configuration(proxyBeanMethods = false)
public class PluginUiPages implements WebMvcConfigurer {

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/ui", "/ui/");
        registry.addViewController("/ui/").setViewName("forward:/ui/index.html");
    }
}
