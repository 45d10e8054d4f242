package io.opensdrs.server.security;

import io.opensdrs.server.vcenter.PluginProperties;
import io.opensdrs.server.vcenter.VCenterProperties;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PluginFramingTest {

    @Test
    void theVSphereClientOfTheRegisteredVCenterMayFrameThePlugin() {
        VCenterProperties vcenter = new VCenterProperties();
        vcenter.setUrl("https://vc.lab.example:8443/sdk");
        assertThat(PluginFraming.ancestors(new PluginProperties(), vcenter)).containsExactly("'self'", "https://vc.lab.example:8443");
        vcenter.setUrl("https://vc.lab.example/sdk");
        assertThat(PluginFraming.ancestors(new PluginProperties(), vcenter)).containsExactly("'self'", "https://vc.lab.example");
        // without vCenter only the server's own pages may frame them
        assertThat(PluginFraming.ancestors(new PluginProperties(), new VCenterProperties())).containsExactly("'self'");
    }

    @Test
    void configuredOriginsReplaceVCentersAndAreChecked() {
        PluginProperties plugin = new PluginProperties();
        plugin.setFrameAncestors(List.of("https://client.example/", "https://other.example:9443"));
        VCenterProperties vcenter = new VCenterProperties();
        vcenter.setUrl("https://vc.lab.example/sdk");
        assertThat(PluginFraming.ancestors(plugin, vcenter)).containsExactly("'self'", "https://client.example", "https://other.example:9443");
        plugin.setFrameAncestors(List.of("https://ok.example", "*; script-src *"));
        assertThatThrownBy(() -> PluginFraming.ancestors(plugin, vcenter)).hasMessageStartingWith("sdrs.plugin.frame-ancestors[1]: ");
    }
}
