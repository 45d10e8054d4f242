package io.opensdrs.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs Debian's {@code fio} for one queue depth of 4 KiB O_DIRECT random reads (B5's reference). */
public final class FioRunner {

    /** fio's read results: IOPS and mean total latency (submission + completion). */
    public record FioPoint(int queueDepth, double iops, double meanLatencyMs) {
    }

    private static final Pattern IOPS = Pattern.compile("\"read\"\\s*:\\s*\\{.*?\"iops\"\\s*:\\s*([0-9.eE+-]+)", Pattern.DOTALL);
    private static final Pattern LAT = Pattern.compile("\"read\"\\s*:\\s*\\{.*?\"lat_ns\"\\s*:\\s*\\{[^}]*?\"mean\"\\s*:\\s*([0-9.eE+-]+)", Pattern.DOTALL);

    /** The installed fio's version, or null if there is none on the PATH. */
    public static String version() {
        try {
            Process p = new ProcessBuilder("fio", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public static FioPoint run(Path file, long sizeBytes, int queueDepth, int seconds) throws IOException, InterruptedException {
        List<String> cmd = List.of("fio", "--name=b5", "--ioengine=libaio", "--direct=1", "--rw=randread", "--bs=4k",
                "--iodepth=" + queueDepth, "--numjobs=1", "--time_based", "--runtime=" + seconds,
                "--filename=" + file, "--size=" + sizeBytes, "--randrepeat=0", "--norandommap",
                "--output-format=json");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("fio exited with " + p.exitValue() + ": " + String.join(" ", cmd));
        }
        return new FioPoint(queueDepth, number(IOPS, json), number(LAT, json) / 1e6);
    }

    private static double number(Pattern p, String json) throws IOException {
        Matcher m = p.matcher(json);
        if (!m.find()) {
            throw new IOException("unexpected fio output: " + json.substring(0, Math.min(400, json.length())));
        }
        return Double.parseDouble(m.group(1));
    }
}
