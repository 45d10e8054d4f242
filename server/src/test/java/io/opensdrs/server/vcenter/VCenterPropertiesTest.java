package io.opensdrs.server.vcenter;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad vCenter settings stop the server with the property named (SPEC §5). */
class VCenterPropertiesTest {

    static VCenterProperties valid() {
        VCenterProperties p = new VCenterProperties();
        p.setUrl("https://vc.example.com/sdk");
        p.setUser("sdrs");
        p.setPassword("pw");
        return p;
    }

    @Test
    void unsetUrlMeansNoVCenter() {
        assertThat(new VCenterProperties().isConfigured()).isFalse();
        assertThat(valid().isConfigured()).isTrue();
        assertThat(valid().connection().user()).isEqualTo("sdrs");
    }

    @Test
    void eachBadSettingNamesItsProperty() {
        VCenterProperties p = valid();
        p.setUrl("ftp://vc/sdk");
        assertThatThrownBy(p::connection).hasMessageStartingWith("sdrs.vcenter.url");
        p = valid();
        p.setUrl("https://bad host/sdk");
        assertThatThrownBy(p::connection).hasMessageStartingWith("sdrs.vcenter.url");
        p = valid();
        p.setUser(" ");
        assertThatThrownBy(p::connection).hasMessageStartingWith("sdrs.vcenter.user");
        p = valid();
        p.setPassword(null);
        assertThatThrownBy(p::connection).hasMessageStartingWith("sdrs.vcenter.password");
        p = valid();
        p.setPasswordFile(Path.of("/nonexistent/vc-password"));
        assertThatThrownBy(p::connection).hasMessageContaining("set only one");
        p.setPassword(null);
        assertThatThrownBy(p::connection).hasMessageStartingWith("sdrs.vcenter.password-file");
        p = valid();
        p.setInsecure(true);
        p.setThumbprint("AA:BB");
        assertThatThrownBy(p::connection).hasMessageContaining("set only one");
        p = valid();
        p.setTimeout(java.time.Duration.ZERO);
        assertThatThrownBy(p::connection).hasMessageStartingWith("sdrs.vcenter.timeout");
    }
}
