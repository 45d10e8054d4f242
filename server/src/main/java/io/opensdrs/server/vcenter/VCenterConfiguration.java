package io.opensdrs.server.vcenter;

import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.object.Vim25VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The vCenter connection: one logged-in {@link VSphereClient} when {@code sdrs.vcenter.url} is
 * set. A login that fails at start-up stops the server with vCenter's fault (wrong password,
 * untrusted certificate, unreachable): running half-configured would only hide it.
 */
@Configuration
@EnableConfigurationProperties({VCenterProperties.class, PluginProperties.class})
public class VCenterConfiguration {

    private static final Logger log = LoggerFactory.getLogger(VCenterConfiguration.class);

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(prefix = "sdrs.vcenter", name = "url")
    VSphereClient vSphereClient(VCenterProperties properties) throws VimFaultException {
        var connection = properties.connection();
        Vim25VSphereClient client = Vim25VSphereClient.login(connection);
        log.info("vCenter: logged in to {} ({} {})", connection, client.about().fullName(), client.about().apiVersion());
        return client;
    }
}
