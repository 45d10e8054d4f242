package io.opensdrs.cli.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class FitCommandTest {

    private static final String SSD = "SERVER/IBM_M1015/SAMSUNG_PM883";

    private static String run(int expectedCode, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new ModelCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        // Same contract as the root CLI: user errors are IllegalArgumentException → exit 2.
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof IllegalArgumentException) {
                cmd.getErr().println("error: " + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        int code = cli.execute(args);
        assertThat(code).as(err.toString()).isEqualTo(expectedCode);
        return out + err.toString();
    }

    @Test
    void fitsFioDeviceAndPredictsAtQd64() {
        String text = run(0, "fit", "--fio-csv", DevicesCommandTest.fioCsv().toString(), "--device", SSD,
                "--rw", "randread", "--max-qd", "32", "--predict-qd", "64");
        assertThat(text).contains("pesto/ols", "R² = 0.98", "45408.9", "+12.3%");
        String weighted = run(0, "fit", "--fio-csv", DevicesCommandTest.fioCsv().toString(), "--device", SSD,
                "--max-qd", "32", "--predict-qd", "64", "--estimator", "wls");
        assertThat(weighted).contains("pesto/wls", "+0.9%");
    }

    @Test
    void fitsPlainCsvWithEveryModel(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("m.csv");
        StringBuilder b = new StringBuilder("oio,latency_ms,iops\n");
        for (int q : new int[] {1, 2, 4, 8, 16, 32}) {
            double l = 0.5 * q + 5 + (q % 3) * 0.1;
            b.append(q).append(',').append(l).append(',').append(q / l * 1000).append('\n');
        }
        Files.writeString(csv, b.toString());
        for (String model : ModelNames.ALL) {
            String text = run(0, "fit", "--csv", csv.toString(), "--model", model, "--min-qd", "1", "--predict-qd", "8,64");
            assertThat(text).as(model).contains("model " + model, "R² =");
        }
    }

    @Test
    void userErrorsNameTheColumnOrOption(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "oio,latency\n1,2\n");
        assertThat(run(2, "fit", "--csv", csv.toString())).contains("latency_ms");
        assertThat(run(2, "fit", "--fio-csv", DevicesCommandTest.fioCsv().toString(), "--device", "NO/SUCH"))
                .contains("--device", "NO/SUCH");
        assertThat(run(2, "fit", "--fio-csv", DevicesCommandTest.fioCsv().toString(), "--device", SSD, "--max-qd", "1"))
                .contains("too few points");
        assertThat(run(2, "fit", "--fio-csv", DevicesCommandTest.fioCsv().toString(), "--device", SSD, "--model", "nope"))
                .contains("--model");
    }
}
