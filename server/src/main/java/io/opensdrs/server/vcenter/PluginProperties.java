package io.opensdrs.server.vcenter;

import org.springframework.boot.context.properties.ConfigurationProperties;


/**
 * The vSphere Client remote plugin's registration in vCenter ({@code sdrs.plugin.*}).
 */
@ConfigurationProperties(prefix = "sdrs.plugin")
public class PluginProperties {

    /** Register the plugin at start-up (when vCenter is configured). */
    private boolean register = true;
    /** Extension key in vCenter's ExtensionManager. */
    private String key = "io.opensdrs.plugin";
    /** Registered version; a change makes the server update the registration at its next start. */
    private String version = "0.1.0";
    /** The manifest URL vCenter fetches; default https://{server.address or host name}:{server.port}/ui/plugin.json. */
    private String manifestUrl;
    /**
     * SHA-1 thumbprint of the certificate the manifest is served with; default: computed from
     * server.ssl's key store when one is configured.
     */
    private String serverThumbprint;
    private String adminEmail;
    /**
     * Origins ({@code https://host[:port]}) allowed to frame the plugin's pages under {@code /ui/}: the
     * vSphere Client, which shows remote plugins in a frame. Default: the origin of {@code sdrs.vcenter.url}.
     */
    private java.util.List<String> frameAncestors = new java.util.ArrayList<>();

    public boolean isRegister() { return register; }
    public void setRegister(boolean register) { this.register = register; }
    public String getKey() { return key; }
    public void setKey(String key) { this.key = key; }
    public String getVersion() { return version; }
    public void setVersion(String version) { this.version = version; }
    public String getManifestUrl() { return manifestUrl; }
    public void setManifestUrl(String manifestUrl) { this.manifestUrl = manifestUrl; }
    public String getServerThumbprint() { return serverThumbprint; }
    public void setServerThumbprint(String serverThumbprint) { this.serverThumbprint = serverThumbprint; }
    public String getAdminEmail() { return adminEmail; }
    public void setAdminEmail(String adminEmail) { this.adminEmail = adminEmail; }
    public java.util.List<String> getFrameAncestors() { return frameAncestors; }
    public void setFrameAncestors(java.util.List<String> frameAncestors) { this.frameAncestors = frameAncestors; }

}
