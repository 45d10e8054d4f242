package io.opensdrs.model.romano;

import io.opensdrs.model.Observation;
import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FullFactorialFloorTest {

    @Test
    void aDeviceOfRomanosFormHasNoFloorBeyondItsNoise() {
        // Romano Table 4's E2 with no noise: one β of the design reproduces every point.
        List<Observation> exact = new ArrayList<>();
        for (Workload w : RomanoModelTest.testVector()) {
            exact.add(new Observation(w, RomanoModelTest.truth(w)));
        }
        FullFactorialFloor.Floor floor = FullFactorialFloor.of(exact);
        assertThat(floor.terms()).hasSize(16);
        assertThat(floor.points()).isEqualTo(1225);
        assertThat(floor.meanAbsoluteResidual()).isLessThan(1e-6);
    }

    @Test
    void aQueueingKneeLeavesAFloorNoRomanoModelGoesBelow() {
        // A service-time floor until the queue forms, then latency ∝ O: no product of X, R, Z, O
        // bends like that, so even the best β leaves residuals, and every Romano fit scores above them.
        Random rnd = new Random(3);
        List<Observation> calibration = new ArrayList<>();
        List<Observation> heldOut = new ArrayList<>();
        for (Workload w : RomanoModelTest.testVector()) {
            calibration.add(new Observation(w, knee(w) * Math.exp(0.05 * rnd.nextGaussian())));
            heldOut.add(new Observation(w, knee(w) * Math.exp(0.05 * rnd.nextGaussian())));
        }
        FullFactorialFloor.Floor floor = FullFactorialFloor.of(heldOut);
        RomanoModel romano = new RomanoModel();
        romano.fit(calibration);
        double scored = heldOut.stream().mapToDouble(o -> Math.abs(romano.predict(o.workload()).latencyMs() - o.latencyMs()))
                .average().orElseThrow();
        assertThat(floor.meanAbsoluteResidual()).isGreaterThan(1.0);
        assertThat(floor.lowerBound()).isLessThanOrEqualTo(floor.meanAbsoluteResidual())
                .isCloseTo(floor.meanAbsoluteResidual(), within(0.001 * floor.meanAbsoluteResidual()));
        assertThat(scored).isGreaterThan(floor.lowerBound());
    }

    /** 8 ms of seek and rotation per IO (less with Z), served 8 at a time by the array's spindles. */
    private static double knee(Workload w) {
        double service = 0.5 + 7.5 * w.randomFraction() + 0.02 * w.ioSizeKb();
        return service * Math.max(1, w.outstandingIos() / 8);
    }
}
