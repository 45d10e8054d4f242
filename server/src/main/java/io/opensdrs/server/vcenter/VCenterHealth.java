package io.opensdrs.server.vcenter;

import io.opensdrs.server.vsphere.VSphereClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health} component {@code vCenter}: which vCenter the server talks to, or that
 * it runs without one ({@code sdrs.vcenter.url} unset). Without vCenter the server is still
 * healthy (statistics and models work); the detail says what is missing.
 */
@Component("vCenter")
public class VCenterHealth implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(VCenterHealth.class);

    private final ObjectProvider<VSphereClient> client;
    private final VCenterProperties properties;

    public VCenterHealth(ObjectProvider<VSphereClient> client, VCenterProperties properties) {
        this.client = client;
        this.properties = properties;
        if (!properties.isConfigured()) {
            log.warn("sdrs.vcenter.url is not set: running without vCenter (no inventory sync, no migrations, no plugin registration)");
        }
    }

    @Override
    public Health health() {
        VSphereClient c = client.getIfAvailable();
        if (c == null) {
            return Health.up().withDetail("configured", false)
                    .withDetail("detail", "sdrs.vcenter.url is not set: running without vCenter").build();
        }
        var about = c.about();
        return Health.up().withDetail("configured", true).withDetail("url", properties.getUrl())
                .withDetail("product", about.fullName()).build();
    }
}
