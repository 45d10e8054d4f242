package io.opensdrs.capture;

import io.opensdrs.bench.ClosedLoopMeasurement;
import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.testbed.device.DeviceProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The device search: a Pesto model fitted, as the server fits it, to the injector's runs on a known
 * device (random reads at 4 and 256 KiB, OIO 2-32) leads back to that device or one whose line is as
 * near; the whole candidate set is searched within seconds.
 */
class DeviceMatchTest {

    static final long LUN = 1024L << 30;

    /** What the server's model would predict for the injector's workloads after the injector ran on {@code profile}. */
    static List<DeviceMatch.Target> modelOf(String profile, long seed) {
        ClosedLoopMeasurement bench = new ClosedLoopMeasurement(DeviceProfiles.get(profile), LUN, 800);
        List<Observation> runs = new ArrayList<>();
        for (double z : LqSlopeModel.injectorIoSizesKb()) {
            for (int q = 2; q <= 32; q *= 2) {
                runs.add(bench.measure(new Workload(q, z, 1, 1), seed + q));
            }
        }
        LqSlopeModel model = new LqSlopeModel();
        model.fit(runs);
        List<DeviceMatch.Target> targets = new ArrayList<>();
        for (double z : LqSlopeModel.injectorIoSizesKb()) {
            for (int q = 2; q <= 32; q *= 2) {
                targets.add(new DeviceMatch.Target(q, z, model.predict(new Workload(q, z, 1, 1)).latencyMs()));
            }
        }
        return targets;
    }

    @Test
    void aModelFittedToADevicesInjectorRunsLeadsBackToADeviceWithItsLine() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            DeviceMatch match = new DeviceMatch(400, 1, pool);
            assertThat(match.candidateList()).hasSize(64);
            long t0 = System.nanoTime();
            for (String profile : List.of(DeviceProfiles.HGST_7K2, DeviceProfiles.IBM_M1015_RAID5, DeviceProfiles.INTEL_D3_S4610)) {
                DeviceMatch.Choice c = match.choose(modelOf(profile, 99), LUN);
                System.out.printf("%s -> %s (line within %.1f %%), runner-up %s (%.1f %%)%n", profile, c.device().label(),
                        100 * c.relativeDistance(), c.runnerUp().label(), 100 * c.runnerUpDistance());
                // the device itself is among the candidates, so the chosen one is at least as near as it
                assertThat(c.relativeDistance()).as(profile).isLessThan(0.25);
                assertThat(c.measured()).hasSize(10);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("three searches on one LUN size in %.1f s%n", seconds);
            assertThat(seconds).isLessThan(120);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutAnyPredictionThereIsNothingToMatch() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            DeviceMatch match = new DeviceMatch(List.of(DeviceMatch.candidates().get(0)), 100, 1, pool);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> match.choose(List.of(new DeviceMatch.Target(2, 4, Double.NaN)), LUN))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("predicts no latency");
        } finally {
            pool.shutdownNow();
        }
    }
}
