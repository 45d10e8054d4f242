package io.opensdrs.server.vsphere;

import io.opensdrs.server.vsphere.vim25.TlsTrust;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where vCenter is and how to trust and log in to it. Exactly one trust setting is used:
 * a pinned thumbprint, a CA bundle, or {@code insecure} — which must be asked for
 * explicitly; with none of them the JVM's trust store applies.
 */
public record VCenterConnection(URI sdkUrl, String user, String password, Path passwordFile, String thumbprint,
                                Path caFile, boolean insecure, Duration timeout, Duration keepAlive) {

    public VCenterConnection(URI sdkUrl, String user, String password, String thumbprint, Path caFile,
                             boolean insecure, Duration timeout, Duration keepAlive) {
        this(sdkUrl, user, password, null, thumbprint, caFile, insecure, timeout, keepAlive);
    }

    public VCenterConnection {
        if (sdkUrl == null || !"https".equals(sdkUrl.getScheme()) && !"http".equals(sdkUrl.getScheme())) {
            throw new IllegalArgumentException("vcenter.url: must be an https:// URL of the SDK endpoint, got " + sdkUrl);
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("vcenter.user: must not be empty");
        }
        if (password == null && passwordFile == null) {
            throw new IllegalArgumentException("vcenter.password: must be set (or vcenter.password-file)");
        }
        if (password != null && passwordFile != null) {
            throw new IllegalArgumentException("vcenter.password, vcenter.password-file: set only one");
        }
        if (passwordFile != null && !java.nio.file.Files.isReadable(passwordFile)) {
            throw new IllegalArgumentException("vcenter.password-file: cannot read " + passwordFile);
        }
        int trusts = (thumbprint != null && !thumbprint.isBlank() ? 1 : 0) + (caFile != null ? 1 : 0) + (insecure ? 1 : 0);
        if (trusts > 1) {
            throw new IllegalArgumentException("vcenter.thumbprint, vcenter.ca-file, vcenter.insecure: set only one");
        }
        timeout = timeout == null ? Duration.ofSeconds(60) : timeout;
        keepAlive = keepAlive == null ? Duration.ofMinutes(5) : keepAlive;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("vcenter.timeout: must be positive");
        }
    }

    /**
     * The password for the next login: read from {@code passwordFile} each time, so that a
     * rotated credential is picked up when the session has to be renewed, without a restart.
     */
    public String currentPassword() throws io.opensdrs.server.vsphere.vim25.VimFaultException {
        if (passwordFile == null) {
            return password;
        }
        try {
            return java.nio.file.Files.readString(passwordFile).strip();
        } catch (java.io.IOException e) {
            throw new io.opensdrs.server.vsphere.vim25.VimFaultException("Login", "InvalidLogin",
                    "cannot read vcenter.password-file " + passwordFile + ": " + e.getMessage(), e);
        }
    }

    public TlsTrust trust() {
        if (thumbprint != null && !thumbprint.isBlank()) {
            return TlsTrust.thumbprint(thumbprint);
        }
        if (caFile != null) {
            return TlsTrust.caBundle(caFile);
        }
        return insecure ? TlsTrust.insecure() : TlsTrust.system();
    }

    @Override
    public String toString() {
        return "VCenterConnection[" + sdkUrl + " as " + user + "]";
    }
}
