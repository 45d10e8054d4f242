package io.opensdrs.testbed.fidelity;

import io.opensdrs.testbed.device.DeviceProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Acceptance 1: the testbed behaves like the storage the seeds measured. */
class FidelityChecksTest {
    private final FidelityChecks checks = new FidelityChecks(1, s -> { });

    @ParameterizedTest
    @ValueSource(strings = {"hgst-7k2", "wd740gd-10k", "ibm-m1015-8x2tb-raid5", "intel-d3-s4610"})
    void latencyIsLinearInOutstandingIosAndPeakIsOneOverSlope(String profile) {
        List<FidelityChecks.Check> rows = checks.profileChecks(profile);
        for (FidelityChecks.Check c : rows) {
            boolean singleDisk = profile.equals(DeviceProfiles.HGST_7K2) || profile.equals(DeviceProfiles.WD740GD_10K);
            if (c.name().equals("slope-256k/4k") && singleDisk) {
                // One spindle: a 256 KiB read adds only its transfer (~2.5 ms) to the same
                // positioning time, so the slope grows < 2×; Pesto Fig. 6's 5.8× comes from a
                // 9-disk LUN where a large IO occupies several spindles: reported, not scored.
                assertThat(c.scored()).as(c.toString()).isFalse();
                assertThat(Double.parseDouble(c.measured())).as(c.toString()).isBetween(1.3, 3.0);
                continue;
            }
            assertThat(c.scored()).as(c.toString()).isTrue();
            assertThat(c.pass()).as(c.toString()).isTrue();
        }
    }

    @Test
    void orderOfSpeedFlipsBetweenWorkloads() {
        FidelityChecks.Check c = checks.orderFlip();
        assertThat(c.pass()).as(c.toString()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hgst-7k2", "ibm-m1015-8x2tb-raid5"})
    void sequentialStreamLosesItsAdvantageWhenMixedWithRandom(String profile) {
        FidelityChecks.Check c = checks.sequentialMix(profile);
        assertThat(c.pass()).as(c.toString()).isTrue();
    }
}
