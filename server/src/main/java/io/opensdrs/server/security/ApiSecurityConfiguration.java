package io.opensdrs.server.security;

import io.opensdrs.server.SdrsProperties;
import io.opensdrs.server.vcenter.PluginProperties;
import io.opensdrs.server.vcenter.VCenterProperties;
import jakarta.servlet.DispatcherType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * REST authentication (SPEC §5: nothing reachable anonymously except health and the plugin's
 * static files): HTTP Basic against the server-side users of {@code sdrs.security.users}, stateless,
 * so no session cookie. Because the credentials travel in a header the client sets, and the server
 * never sends a Basic challenge (a browser would remember the answer and send it to any site's
 * request), a browser holds nothing another site could use; the {@link BrowserRequestGuard} adds the
 * content-type and fetch-metadata checks. Refusals are problem details: 401 without a challenge,
 * 403, 429 from the {@link LoginThrottle}. Framing: {@link PluginFraming}.
 */
@Configuration
public class ApiSecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ApiSecurityConfiguration.class);

    @Bean
    SecurityFilterChain api(HttpSecurity http, SdrsProperties properties, PluginProperties plugin, VCenterProperties vcenter)
            throws Exception {
        AuthenticationEntryPoint unauthorized = (request, response, e) -> ProblemResponses.write(request, response,
                HttpStatus.UNAUTHORIZED, "Unauthorized", "Authorization",
                "this call needs a user's credentials (HTTP Basic in the Authorization header)"
                        + (request.getHeader("Authorization") == null ? "" : "; the ones given were not accepted"));
        AccessDeniedHandler forbidden = (request, response, e) -> ProblemResponses.write(request, response, HttpStatus.FORBIDDEN,
                "Forbidden", "Authorization", "the user may not make this call");
        LoginThrottle throttle = new LoginThrottle(properties.getSecurity().getLoginFailuresBeforeDelay(), Duration.ofSeconds(1),
                Duration.ofMinutes(15), Clock.systemUTC());
        return http
                .authorizeHttpRequests(a -> a
                        // the error page Spring renders for a failed request; requested directly it is nothing
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers("/error").denyAll()
                        .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
                        // The plugin's static files (pages, scripts, plugin.json): vCenter fetches the
                        // manifest without credentials; every API call the pages make is authenticated.
                        .requestMatchers(HttpMethod.GET, "/ui", "/ui/", "/ui/**").permitAll()
                        .anyRequest().authenticated())
                .httpBasic(b -> b.authenticationEntryPoint(unauthorized))
                .exceptionHandling(e -> e.authenticationEntryPoint(unauthorized).accessDeniedHandler(forbidden))
                .headers(h -> h.frameOptions(f -> f.disable())
                        .addHeaderWriter(PluginFraming.denyElsewhere())
                        .addHeaderWriter(PluginFraming.uiPolicy(plugin, vcenter)))
                .addFilterBefore(new BrowserRequestGuard(), BasicAuthenticationFilter.class)
                .addFilterBefore(new LoginThrottleFilter(throttle), BasicAuthenticationFilter.class)
                // stateless, credentials in a header the client sets: see the class comment and BrowserRequestGuard
                .csrf(c -> c.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return new RecentlyVerifiedPasswords(PasswordEncoderFactories.createDelegatingPasswordEncoder(), Duration.ofMinutes(1),
                Clock.systemUTC());
    }

    /**
     * Users from configuration, each password held as a bcrypt hash: one given as {@code {bcrypt}...}
     * as is, a plain one hashed here. A user without a password gets a generated one, written to
     * {@code <data-dir>/<user>.password} readable only by the server's own OS user, never to the log.
     */
    @Bean
    UserDetailsService users(SdrsProperties properties, PasswordEncoder encoder) throws IOException {
        List<UserDetails> users = new ArrayList<>();
        for (SdrsProperties.User u : properties.getSecurity().getUsers()) {
            String password = u.getPassword();
            if (password == null || password.isEmpty()) {
                byte[] b = new byte[18];
                new SecureRandom().nextBytes(b);
                password = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
                Path file = writeOwnerOnly(Path.of(properties.getDataDir()), u.getName() + ".password", password + "\n");
                log.warn("sdrs.security.users: user '{}' has no password; one was generated for this run and written to {}",
                        u.getName(), file.toAbsolutePath());
            }
            String hashed = password.startsWith("{") ? password : encoder.encode(password);
            users.add(User.withUsername(u.getName()).password(hashed).roles(u.getRoles().toArray(String[]::new)).build());
        }
        InMemoryUserDetailsManager manager = new InMemoryUserDetailsManager(users);
        // Exposed only as a UserDetailsService: Spring Security "upgrades" the stored hash of a
        // UserDetailsPasswordService after a login, which is not wanted for hashes from configuration.
        return manager::loadUserByUsername;
    }

    private static Path writeOwnerOnly(Path dir, String name, String content) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        }
        Files.writeString(file, content, StandardOpenOption.TRUNCATE_EXISTING);
        return file;
    }
}
