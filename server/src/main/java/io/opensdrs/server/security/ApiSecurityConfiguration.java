package io.opensdrs.server.security;

import io.opensdrs.server.SdrsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * REST authentication (SPEC §5: nothing reachable anonymously except health and the plugin's
 * static files): HTTP Basic against the server-side users of {@code sdrs.security.users};
 * stateless, so no session cookie and no CSRF token are involved.
 */
@Configuration
public class ApiSecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ApiSecurityConfiguration.class);

    @Bean
    SecurityFilterChain api(HttpSecurity http) throws Exception {
        return http
                .authorizeHttpRequests(a -> a
                        .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
                        // The plugin's static files (pages, scripts, plugin.json): vCenter fetches the
                        // manifest without credentials; every API call the pages make is authenticated.
                        .requestMatchers(HttpMethod.GET, "/ui", "/ui/", "/ui/**").permitAll()
                        .requestMatchers("/error").permitAll()
                        .anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                .csrf(c -> c.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * Users from configuration. A password written with an encoder prefix ({@code {bcrypt}...}) is
     * used as is; a plain one is compared as given ({@code {noop}}): it is in the configuration
     * in clear anyway, and a bcrypt check per request would dominate the API's latency.
     */
    @Bean
    UserDetailsService users(SdrsProperties properties) {
        List<UserDetails> users = new ArrayList<>();
        for (SdrsProperties.User u : properties.getSecurity().getUsers()) {
            String password = u.getPassword();
            if (password == null || password.isEmpty()) {
                byte[] b = new byte[18];
                new SecureRandom().nextBytes(b);
                password = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
                log.warn("sdrs.security.users: user '{}' has no password; generated for this run: {}", u.getName(), password);
            }
            if (!password.startsWith("{")) {
                password = "{noop}" + password;
            }
            users.add(User.withUsername(u.getName()).password(password).roles(u.getRoles().toArray(String[]::new)).build());
        }
        InMemoryUserDetailsManager manager = new InMemoryUserDetailsManager(users);
        // Exposed only as a UserDetailsService: Spring Security "upgrades" the password of any
        // UserDetailsPasswordService to bcrypt after the first login, which would then cost a
        // bcrypt check (~100 ms of CPU) on every stateless API request.
        return manager::loadUserByUsername;
    }
}
