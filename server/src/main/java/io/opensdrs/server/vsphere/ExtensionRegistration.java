package io.opensdrs.server.vsphere;

/**
 * A vCenter extension as the product registers it for its vSphere Client remote plugin:
 * a {@code vsphere-client-remote} client entry pointing at the plugin manifest, and a
 * {@code MANIFEST_SERVER} server entry with the certificate thumbprint of the server that
 * serves it (SPEC §4).
 */
public record ExtensionRegistration(String key, String version, String label, String summary, String company,
                                    String manifestUrl, String serverThumbprint, String adminEmail) {
    public ExtensionRegistration {
        for (String[] f : new String[][] {{"key", key}, {"version", version}, {"manifestUrl", manifestUrl}}) {
            if (f[1] == null || f[1].isBlank()) {
                throw new IllegalArgumentException("extension." + f[0] + ": must not be empty");
            }
        }
    }
}
