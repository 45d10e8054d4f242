package io.opensdrs.bench;

import io.opensdrs.model.Workload;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** B1 on a tiny configuration: the table is produced and consistent, and Romano's accuracy does not fall below a guard. */
class ModelAccuracyBenchmarkTest {

    @Test
    void tinyB1ProducesAConsistentTable() {
        List<Workload> vector = new ArrayList<>();
        List<Workload> full = CalibrationDesign.romanoTestVector();
        assertEquals(1225, full.size());
        for (int i = 0; i < full.size(); i += 40) {
            vector.add(full.get(i));
        }
        List<DeviceUnderTest> devices = List.of(DeviceUnderTest.calibrated("hgst-7k2"),
                DeviceUnderTest.calibrated("intel-d3-s4610"));
        ExecutorService executor = Executors.newFixedThreadPool(2);
        ModelAccuracyBenchmark.Result r;
        try {
            r = new ModelAccuracyBenchmark(vector, 100, 3).run(devices, executor);
        } finally {
            executor.shutdownNow();
        }
        assertEquals(2, r.perDevice().size());
        for (String model : ModelAccuracyBenchmark.MODELS) {
            ResidualSummary s = r.pooled().get(model);
            int fittedOn = 0;
            for (var byModel : r.perDevice().values()) {
                if (byModel.containsKey(model)) {
                    fittedOn++;
                    assertEquals(vector.size(), byModel.get(model).count());
                }
            }
            assertEquals(fittedOn * vector.size(), s.count(), model);
            if (s.count() > 0) {
                assertTrue(s.min() <= s.q1() && s.q1() <= s.median() && s.median() <= s.q3() && s.q3() <= s.max(), model);
                assertTrue(s.meanAbsolute() >= Math.abs(s.mean()) - 1e-9, model);
            }
        }
        ResidualSummary romano = r.pooled().get("romano");
        assertEquals(romano.count(), romano.withInterval(), "every romano prediction has an interval");
        assertTrue(romano.coverage() >= 0 && romano.coverage() <= 1);
        ResidualSummary pesto = r.pooled().get("pesto");
        assertEquals(pesto.count(), pesto.withInterval(), "every fitted LQ line's prediction has an interval");
        assertTrue(pesto.coverage() >= 0 && pesto.coverage() <= 1);
        assertTrue(Double.isNaN(r.pooled().get("queueing").coverage()), "the queueing model has no interval");

        // Romano's fit is one β of the floor's design, so it can never score below the floor.
        assertEquals(2, r.romanoFloor().size());
        r.romanoFloor().forEach((device, floor) -> {
            assertEquals(vector.size(), floor.points());
            assertTrue(floor.lowerBound() <= floor.meanAbsoluteResidual() + 1e-9, device);
            assertTrue(r.perDevice().get(device).get("romano").meanAbsolute() >= floor.lowerBound() - 1e-9, device);
        });

        // Issue 41's B1 goals guarded on this small fixed set, so that a drop in Romano's accuracy or in its intervals'
        // coverage fails here and not only in the benchmark (the values measured and the margins: src-test README, B1)
        r.romanoFloor().forEach((device, floor) -> {
            ResidualSummary fitted = r.perDevice().get(device).get("romano");
            assertTrue(fitted.meanAbsolute() <= 2.6 * floor.meanAbsoluteResidual(), device + ": romano " + fitted.meanAbsolute()
                    + " ms against the floor of its form " + floor.meanAbsoluteResidual() + " ms");
            assertTrue(fitted.coverage() >= 0.90, device + ": romano's 95 % intervals cover " + fitted.coverage());
        });
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        B1Command.print(r, new PrintStream(buf, true, StandardCharsets.UTF_8));
        String table = buf.toString(StandardCharsets.UTF_8);
        for (String model : ModelAccuracyBenchmark.MODELS) {
            assertTrue(table.contains(model), table);
        }
        assertTrue(table.contains("mean |ε|") && table.contains("95 % interval coverage"), table);
        assertTrue(table.contains("the floor of Romano's form: ≥ "), table);
        String byOio = table.substring(table.indexOf("romano by outstanding IOs"), table.indexOf("the floor of Romano's form"));
        long levels = vector.stream().mapToDouble(Workload::outstandingIos).distinct().count();
        assertEquals(levels + 2, byOio.lines().filter(l -> !l.isBlank()).count(),
                "a title, a header and one row per outstanding-IO level:\n" + byOio);
    }

    @Test
    void quartilesFollowRsDefault() {
        ResidualSummary s = ResidualSummary.of(new double[] {4, 1, 3, 2}, 0, 0);
        assertEquals(1.75, s.q1(), 1e-12);
        assertEquals(2.5, s.median(), 1e-12);
        assertEquals(3.25, s.q3(), 1e-12);
        assertEquals(2.5, s.meanAbsolute(), 1e-12);
    }
}
