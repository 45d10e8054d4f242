package io.opensdrs.testbed.cli;

import io.opensdrs.cli.SdrsRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class TestbedCommandTest {
    @Test
    void invalidScenarioIsRejectedNamingTheFieldAndNothingStarts(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, """
                {"name": "bad", "datastores": [{"name": "ds1", "capacityGB": 100,
                  "device": {"type": "hdd-array", "profile": "no-such-disk"}}],
                 "hosts": [{"name": "esx1", "datastores": ["ds1"]}], "vms": []}
                """);
        SdrsRun r = SdrsRun.of("testbed", "run", bad.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("error:").contains("$.datastores[0].device.profile");
        assertThat(r.out()).doesNotContain("testbed run:");

        Files.writeString(bad, "{\"name\": \"bad\", \"datastores\": [], \"hosts\": [], \"bogus\": 1}");
        SdrsRun r2 = SdrsRun.of("testbed", "run", bad.toString());
        assertThat(r2.exit()).isEqualTo(2);
        assertThat(r2.err()).contains("bogus");
        assertThat(r2.out()).doesNotContain("testbed run:");
    }

    @Test
    void runPrintsPerDatastoreLatencyAndWritesCsv(@TempDir Path dir) {
        Path csv = dir.resolve("out.csv");
        SdrsRun r = SdrsRun.of("testbed", "run", "romano-testbed", "--hours", "0.5", "--every-min", "10", "--csv", csv.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("E1 ms/IOPS").contains("done:");
        assertThat(csv).exists();
    }
}
