package io.opensdrs.server.vcenter;

import io.opensdrs.server.vsphere.ExtensionRegistration;
import io.opensdrs.server.vsphere.VSphereClient;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.Ssl;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.stereotype.Component;

import java.io.InputStream;
import java.net.InetAddress;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * Registers the vSphere Client remote plugin in vCenter when the server is ready (SPEC §4):
 * ExtensionManager entry {@code io.opensdrs.plugin} with a {@code vsphere-client-remote} client
 * pointing at the manifest and a {@code MANIFEST_SERVER} server carrying the thumbprint of the
 * certificate that serves it. An existing registration is updated only when its version,
 * manifest URL or thumbprint differ, so restarts do not churn vCenter's plugin cache.
 * A failure is logged, not fatal: the server works without the plugin.
 */
@Component
public class PluginRegistration {

    private static final Logger log = LoggerFactory.getLogger(PluginRegistration.class);

    /** What the last start-up did: registered, updated, unchanged, skipped or failed. */
    private volatile String outcome = "not run";

    private final ObjectProvider<VSphereClient> client;
    private final PluginProperties plugin;
    private final ServerProperties server;
    private final Environment env;

    public PluginRegistration(ObjectProvider<VSphereClient> client, PluginProperties plugin, ServerProperties server, Environment env) {
        this.client = client;
        this.plugin = plugin;
        this.server = server;
        this.env = env;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void onReady() {
        VSphereClient c = client.getIfAvailable();
        if (c == null || !plugin.isRegister()) {
            outcome = "skipped";
            return;
        }
        try {
            outcome = register(c);
        } catch (VimFaultException | RuntimeException e) {
            outcome = "failed: " + e.getMessage();
            log.warn("vSphere Client plugin registration failed: {}", e.getMessage());
        }
    }

    public String outcome() {
        return outcome;
    }

    String register(VSphereClient c) throws VimFaultException {
        ExtensionRegistration wanted = new ExtensionRegistration(plugin.getKey(), plugin.getVersion(), "OpenSDRS",
                "Storage DRS for datastore clusters: recommendations, models and migrations", "OpenSDRS",
                manifestUrl(), thumbprint(), plugin.getAdminEmail());
        Optional<ExtensionRegistration> existing = c.findExtension(wanted.key());
        if (existing.isPresent() && Objects.equals(existing.get().version(), wanted.version())
                && Objects.equals(existing.get().manifestUrl(), wanted.manifestUrl())
                && Objects.equals(existing.get().serverThumbprint(), wanted.serverThumbprint())) {
            log.info("vSphere Client plugin {} {} already registered", wanted.key(), wanted.version());
            return "unchanged";
        }
        c.registerOrUpdateExtension(wanted);
        String what = existing.isPresent() ? "updated" : "registered";
        log.info("vSphere Client plugin {} {} {} (manifest {}, was {})", wanted.key(), wanted.version(), what,
                wanted.manifestUrl(), existing.map(ExtensionRegistration::version).orElse("absent"));
        return what;
    }

    String manifestUrl() {
        if (plugin.getManifestUrl() != null && !plugin.getManifestUrl().isBlank()) {
            return plugin.getManifestUrl();
        }
        String host;
        if (server.getAddress() != null && !server.getAddress().isAnyLocalAddress()) {
            host = server.getAddress().getHostAddress();
        } else {
            try {
                host = InetAddress.getLocalHost().getCanonicalHostName();
            } catch (java.net.UnknownHostException e) {
                host = "localhost";
            }
        }
        String port = env.getProperty("local.server.port", String.valueOf(server.getPort() == null ? 8080 : server.getPort()));
        return "https://" + host + ":" + port + "/ui/plugin.json";
    }

    /** The configured thumbprint, or SHA-1 of server.ssl's certificate, or null without TLS. */
    String thumbprint() {
        if (plugin.getServerThumbprint() != null && !plugin.getServerThumbprint().isBlank()) {
            return plugin.getServerThumbprint();
        }
        Ssl ssl = server.getSsl();
        if (ssl == null || !ssl.isEnabled() || ssl.getKeyStore() == null) {
            return null;
        }
        try (InputStream in = new DefaultResourceLoader().getResource(ssl.getKeyStore()).getInputStream()) {
            KeyStore ks = KeyStore.getInstance(ssl.getKeyStoreType() == null ? "PKCS12" : ssl.getKeyStoreType());
            ks.load(in, ssl.getKeyStorePassword() == null ? null : ssl.getKeyStorePassword().toCharArray());
            String alias = ssl.getKeyAlias() != null ? ssl.getKeyAlias() : ks.aliases().nextElement();
            Certificate cert = ks.getCertificate(alias);
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(sha1);
        } catch (Exception e) {
            throw new IllegalStateException("server.ssl.key-store: cannot read the certificate for the plugin thumbprint: " + e.getMessage(), e);
        }
    }
}
