package io.opensdrs.bench;

import io.opensdrs.scenario.WorkloadSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RomanoMixAccuracyTest {

    /** Half the mixes put a 512 KiB or 1 MiB stream beside 4–8 KiB IOs, half keep every size within a factor of two. */
    @Test
    void mixesAlternateBetweenFarApartAndSimilarIoSizes() {
        List<RomanoMixAccuracy.Mix> mixes = RomanoMixAccuracy.draw(60, 11);
        assertThat(mixes).hasSize(60);
        for (RomanoMixAccuracy.Mix m : mixes) {
            double lo = m.members().stream().mapToDouble(WorkloadSpec::ioSizeKB).min().orElseThrow();
            double hi = m.members().stream().mapToDouble(WorkloadSpec::ioSizeKB).max().orElseThrow();
            assertThat(m.members()).hasSizeBetween(2, 4);
            assertThat(m.members()).allSatisfy(w -> assertThat(w.oio()).isBetween(1.0, 8.0));
            if (m.index() % 2 == 0) {
                assertThat(m.sizes()).isEqualTo(RomanoMixAccuracy.Sizes.DIFFER);
                assertThat(hi).isGreaterThanOrEqualTo(512);
                assertThat(lo).isLessThanOrEqualTo(8);
            } else {
                assertThat(m.sizes()).isEqualTo(RomanoMixAccuracy.Sizes.SIMILAR);
                assertThat(hi / lo).isLessThanOrEqualTo(2);
            }
        }
        assertThat(RomanoMixAccuracy.draw(60, 11)).isEqualTo(mixes);
    }

    /** A mix runs its members together: one window each, and the mix's latency is their IO-weighted mean. */
    @Test
    void aMixIsMeasuredAsItsMembersRunTogether() {
        DeviceUnderTest hgst = DeviceUnderTest.calibrated("hgst-7k2");
        RomanoMixAccuracy.Mix mix = new RomanoMixAccuracy.Mix(0, RomanoMixAccuracy.Sizes.DIFFER, List.of("vod", "webfile4k"),
                List.of(new WorkloadSpec(4, 512.0, 100.0, 100.0, null, null), new WorkloadSpec(4, 4.0, 95.0, 75.0, null, null)));
        RomanoMixAccuracy.Measured m = RomanoMixAccuracy.measure(hgst, mix, 3);
        assertThat(m.windows()).hasSize(2);
        double ios = m.windows().get(0).ios() + m.windows().get(1).ios();
        double mean = (m.windows().get(0).ios() * m.windows().get(0).meanLatencyMs()
                + m.windows().get(1).ios() * m.windows().get(1).meanLatencyMs()) / ios;
        assertThat(m.latencyMs()).isCloseTo(mean, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(RomanoMixAccuracy.seen(m.windows().get(0)).ioSizeKb()).isCloseTo(512, org.assertj.core.api.Assertions.within(1.0));
        assertThat(RomanoMixAccuracy.seen(m.windows().get(1)).outstandingIos()).isCloseTo(4, org.assertj.core.api.Assertions.within(0.5));
        // the two share the device: the 4 KiB reads wait behind 512 KiB IOs, slower than alone
        double alone = new ClosedLoopMeasurement(hgst.profile(), hgst.capacityBytes(), 400)
                .measure(new io.opensdrs.model.Workload(4, 4, 0.95, 0.75), 3).latencyMs();
        assertThat(m.windows().get(1).meanLatencyMs()).isGreaterThan(1.5 * alone);
    }
}
