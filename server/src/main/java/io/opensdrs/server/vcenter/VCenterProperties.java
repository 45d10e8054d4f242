package io.opensdrs.server.vcenter;

import io.opensdrs.server.vsphere.VCenterConnection;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the server's vCenter is ({@code sdrs.vcenter.*}). Without {@code sdrs.vcenter.url} the
 * server runs without vCenter: no inventory sync, no migrations, and health says so. With it,
 * every other setting is checked at start-up and a bad one stops the server naming the property.
 */
@ConfigurationProperties(prefix = "sdrs.vcenter")
public class VCenterProperties {

    /** The SDK endpoint, {@code https://vcenter.example.com/sdk}. */
    private String url;
    private String user;
    private String password;
    /** A file holding the password, read again at each login (credential rotation without restart). */
    private Path passwordFile;
    /** SHA-1 or SHA-256 thumbprint of vCenter's certificate to pin. */
    private String thumbprint;
    /** PEM bundle of the CAs to trust for vCenter. */
    private Path caFile;
    /** Trust any certificate: only for simulators and labs; must be asked for explicitly. */
    private boolean insecure;
    private Duration timeout = Duration.ofSeconds(60);
    private Duration keepAlive = Duration.ofMinutes(5);

    public boolean isConfigured() {
        return url != null && !url.isBlank();
    }

    /** The connection these settings describe; IllegalArgumentException naming the property otherwise. */
    public VCenterConnection connection() {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("sdrs.vcenter.url: not a URL: " + e.getMessage());
        }
        try {
            return new VCenterConnection(uri, user, password, passwordFile, thumbprint, caFile, insecure, timeout, keepAlive);
        } catch (IllegalArgumentException e) {
            // VCenterConnection names its fields vcenter.*; the property is sdrs.vcenter.*
            throw new IllegalArgumentException("sdrs." + e.getMessage(), e);
        }
    }

    public String getUrl() { return url; }
    public void setUrl(String url) { this.url = url; }
    public String getUser() { return user; }
    public void setUser(String user) { this.user = user; }
    public String getPassword() { return password; }
    public void setPassword(String password) { this.password = password; }
    public Path getPasswordFile() { return passwordFile; }
    public void setPasswordFile(Path passwordFile) { this.passwordFile = passwordFile; }
    public String getThumbprint() { return thumbprint; }
    public void setThumbprint(String thumbprint) { this.thumbprint = thumbprint; }
    public Path getCaFile() { return caFile; }
    public void setCaFile(Path caFile) { this.caFile = caFile; }
    public boolean isInsecure() { return insecure; }
    public void setInsecure(boolean insecure) { this.insecure = insecure; }
    public Duration getTimeout() { return timeout; }
    public void setTimeout(Duration timeout) { this.timeout = timeout; }
    public Duration getKeepAlive() { return keepAlive; }
    public void setKeepAlive(Duration keepAlive) { this.keepAlive = keepAlive; }
}
