package io.opensdrs.bench;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import io.opensdrs.model.romano.RomanoModel;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.testbed.device.DeviceProfile;
import io.opensdrs.testbed.device.DeviceProfiles;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RomanoBalancingDesignTest {

    /**
     * B2 gives each datastore the Romano model its injector design supports. On Romano Table 2's
     * N2 (7 × 15k RAID-6, read and write-back cache) the model must still see a small random-read
     * mix (webfile8k, Romano Table 7) at its measured latency, not at a tenth of it.
     */
    @Test
    void theBalancingDesignFitsTheWriteCachedArraySmallRandomReads() throws Exception {
        DatastoreSpec n2 = ScenarioCatalog.example("romano-testbed").datastores().stream()
                .filter(d -> d.name().equals("N2")).findFirst().orElseThrow();
        DeviceProfile profile = DeviceProfiles.resolve(n2.device());
        long capacity = (long) (n2.capacityGB() * (1L << 30));
        DeviceUnderTest device = new DeviceUnderTest("N2", profile, capacity);
        RomanoModel model = new RomanoModel();
        model.fit(new InjectorObservations(300, 1, null).of(device, "romano-balancing",
                CalibrationDesign.romanoBalancingCalibration()));
        Workload webfile8k = new Workload(8, 8, 0.95, 0.75);
        Observation measured = new ClosedLoopMeasurement(profile, capacity, 800).measure(webfile8k, 5);
        double predicted = model.predict(webfile8k).latencyMs();
        assertThat(predicted).isBetween(0.6 * measured.latencyMs(), 1.5 * measured.latencyMs());
    }
}
