package io.opensdrs.cli.model;

import io.opensdrs.model.pesto.QueueDepthExtrapolation.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Acceptance 3: LQ fits over QD 2–32 on real devices, scored at QD 64. */
class DevicesCommandTest {

    static Path fioCsv() {
        try {
            return Paths.get(DevicesCommandTest.class.getResource("/fio-plot/fio-randread-4k-numjobs1.csv").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static DevicesCommand.Report report() {
        return DevicesCommand.compute(FioRuns.read(fioCsv(), "randread", "4k", 1), 2, 32, 64, null, 0.10);
    }

    @Test
    void ordinaryLeastSquaresOverstatesSsdPeaksAndWeightedFitDoesBetter() {
        DevicesCommand.Report r = report();
        assertThat(r.ordinaryErrors().count()).isEqualTo(25);
        assertThat(r.weightedErrors().count()).isEqualTo(25);
        // Pesto's plain fit: about one device in two more than 10 % off.
        assertThat(r.ordinaryErrors().mean()).isBetween(0.10, 0.13);
        assertThat(r.ordinaryErrors().overLimit()).isGreaterThanOrEqualTo(15);
        // The asymptote-weighted fit: median under 2 %, all but two within 10 %.
        assertThat(r.weightedErrors().median()).isLessThan(0.02);
        assertThat(r.weightedErrors().mean()).isLessThan(0.05);
        List<String> missed = new ArrayList<>();
        for (Outcome o : r.weighted()) {
            if (o.scored() && Math.abs(o.relativeError()) > 0.10) {
                missed.add(o.device());
            }
        }
        // Honest record of the goal's misses: the two SSD RAID-0 sets still scale linearly at
        // QD 32 (latency flat), so nothing up to QD 32 shows where the controller saturates.
        assertThat(missed).containsExactlyInAnyOrder(
                "HPDL380G8/RAID/P420i_CRUCIAL_MX200x3_RAID0_8KCHUNK", "HPDL380G8/RAID/P420i_RAID0_4x_SSD");
    }

    @Test
    void disksAreWellServedByEitherFit() {
        DevicesCommand.Report r = report();
        for (String disk : List.of("HPDL380G8/RAID/P420i_HGST_HTS72101_100GB7k", "SERVER/IBM_M1015/8x2TBRAID5MDADM", "FLOPPY/random")) {
            Outcome o = r.ordinary().stream().filter(x -> x.device().equals(disk)).findFirst().orElseThrow();
            assertThat(Math.abs(o.relativeError())).as(disk).isLessThan(0.10);
            assertThat(o.line().rSquared()).as(disk).isGreaterThan(0.99);
        }
    }

    @Test
    void weightExponentIsChosenWithoutTheQd64Points() {
        // Remove every QD-64 point: the selection must not change.
        DevicesCommand.Report r = report();
        var without = DevicesCommand.compute(FioRuns.read(fioCsv(), "randread", "4k", 1), 2, 32, 1e9, null, 0.10);
        assertThat(without.exponent()).isEqualTo(r.exponent());
        assertThat(r.exponent()).isEqualTo(4);
    }

    @Test
    void commandPrintsTableAndWritesCsv(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("devices.csv");
        StringWriter text = new StringWriter();
        CommandLine cli = new CommandLine(new ModelCommand());
        cli.setOut(new PrintWriter(text));
        int code = cli.execute("devices", "--fio-csv", fioCsv().toString(), "--csv", out.toString());
        assertThat(code).isZero();
        assertThat(text.toString()).contains("OLS (Pesto)", "WLS Q^4", "SERVER/IBM_M1015/SAMSUNG_PM883");
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).startsWith("device,points,ols_m_ms");
        assertThat(lines).hasSize(1 + 31);
    }
}
