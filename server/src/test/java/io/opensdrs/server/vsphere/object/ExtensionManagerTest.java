package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.ExtensionRegistration;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes.Extension;
import org.junit.jupiter.api.Test;

import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin's extension as registered and as read back. */
class ExtensionManagerTest {

    static final ExtensionRegistration PLUGIN = new ExtensionRegistration("io.opensdrs.plugin", "0.1.0", "OpenSDRS",
            "Storage DRS in the open", "OpenSDRS", "https://127.0.0.1:8443/plugin/plugin.json",
            "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD", "admin@example.org");

    @Test
    void theExtensionHasARemotePluginClientAndAManifestServer() throws Exception {
        XMLGregorianCalendar heartbeat = DatatypeFactory.newInstance().newXMLGregorianCalendar("2026-11-27T10:00:20Z");
        Extension e = ExtensionManager.extension(PLUGIN, heartbeat);
        assertThat(e.key).isEqualTo("io.opensdrs.plugin");
        assertThat(e.lastHeartbeatTime).isEqualTo(heartbeat);
        assertThat(e.shownInSolutionManager).isFalse();
        assertThat(e.client).singleElement().satisfies(c -> {
            assertThat(c.type).isEqualTo("vsphere-client-remote");
            assertThat(c.url).isEqualTo(PLUGIN.manifestUrl());
            assertThat(c.version).isEqualTo("0.1.0");
        });
        assertThat(e.server).singleElement().satisfies(s -> {
            assertThat(s.type).isEqualTo("MANIFEST_SERVER");
            assertThat(s.url).isEqualTo(PLUGIN.manifestUrl());
            assertThat(s.serverThumbprint).isEqualTo(PLUGIN.serverThumbprint());
            assertThat(s.adminEmail).containsExactly("admin@example.org");
        });
        assertThat(ExtensionManager.registration(e)).as("read back as registered").isEqualTo(PLUGIN);
    }

    @Test
    void anExtensionWithoutEntriesReadsWithoutManifestThumbprintOrEmail() {
        Extension e = new Extension();
        e.key = "com.example.other";
        e.version = "2.0";
        ExtensionRegistration r = ExtensionManager.registration(e);
        assertThat(r.manifestUrl()).isEqualTo("(none)");
        assertThat(r.serverThumbprint()).isNull();
        assertThat(r.adminEmail()).isNull();
        assertThat(r.label()).isNull();
    }
}
