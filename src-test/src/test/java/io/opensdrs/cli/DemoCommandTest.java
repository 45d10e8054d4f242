package io.opensdrs.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void demoPrintsTheShippedWorldFirst() {
        // --world-only stops after the first step; the whole loop is DemoShutdownIT's and BalancingIT's
        SdrsRun r = SdrsRun.of("demo", "--world-only");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("World 'demo': 6 datastores, 4 hosts, 14 VMs, 22 virtual disks")
                .contains("gold-7k1")
                .contains("at hour     8: datastore gold-ssd2 added to cluster gold");
    }

    @Test
    void aBrokenScenarioFileExitsTwoNamingTheField(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("broken.json");
        Files.writeString(f, "{\"name\":\"x\",\"datastores\":[{\"name\":\"ds1\",\"capacityGB\":-1,"
                + "\"device\":{\"type\":\"ssd\"}}],\"hosts\":[{\"name\":\"h\",\"datastores\":[\"ds1\"]}],\"vms\":[]}");
        SdrsRun r = SdrsRun.of("demo", "--scenario", f.toString(), "--exit-when-done");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("error:").contains("$.datastores[0].capacityGB");
        assertThat(r.out()).doesNotContain("World 'x'");
    }
}
