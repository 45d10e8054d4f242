package io.opensdrs.server.vsphere;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A vCenter simulator running as a separate process on a free loopback port, and govc
 * pointed at it.
 */
public final class VcsimProcess implements AutoCloseable {
    private static final Pattern URL = Pattern.compile("(?:GOVC_URL|VCSIM_URL)=(\\S+)");

    private final Process process;
    private final URI url;
    private final Path govc;
    private final Path log;

    private VcsimProcess(Process process, URI url, Path govc, Path log) {
        this.process = process;
        this.url = url;
        this.govc = govc;
        this.log = log;
    }

    /**
     * Starts the given simulator binary with extra flags and waits until it prints its URL.
     * Its output goes to a log file under {@code target/} that outlives the test.
     */
    public static VcsimProcess start(Path binary, String... flags) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "-l", "127.0.0.1:0"));
        cmd.addAll(List.of(flags));
        Path logDir = Files.createDirectories(Path.of("target", "vcsim-logs"));
        Path log = Files.createTempFile(logDir, binary.getFileName().toString() + "-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = URL.matcher(Files.readString(log));
            if (m.find()) {
                return new VcsimProcess(p, URI.create(m.group(1)), GoTool.binary("govc"), log);
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        p.destroyForcibly();
        throw new IOException("vcsim did not start (" + String.join(" ", cmd) + "):\n" + Files.readString(log));
    }

    /** Fails when the simulator process has died, with its log. */
    public void assertAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IOException("vcsim exited " + process.exitValue() + ":\n" + Files.readString(log));
        }
    }

    /** The SDK URL without credentials. */
    public URI sdkUrl() {
        return URI.create(url.getScheme() + "://" + url.getHost() + ":" + url.getPort() + url.getPath());
    }

    public String user() {
        return url.getUserInfo().split(":", 2)[0];
    }

    public String password() {
        return url.getUserInfo().split(":", 2)[1];
    }

    public VCenterConnection insecureConnection() {
        return new VCenterConnection(sdkUrl(), user(), password(), null, null, true, null, null);
    }

    /** Runs govc against this simulator; fails the test on a non-zero exit. */
    public String govc(String... args) throws IOException, InterruptedException {
        return client(govc, args);
    }

    /**
     * Runs a command-line client of this simulator ({@code GOVC_URL} with the credentials, insecure),
     * such as govc or {@code vcsim sdrs-rule}; fails the test on a non-zero exit.
     */
    public String client(Path executable, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable.toString());
        cmd.addAll(List.of(args));
        String what = executable.getFileName() + " " + String.join(" ", args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("GOVC_URL", url.toString());
        pb.environment().put("GOVC_INSECURE", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(what + " timed out");
        }
        if (p.exitValue() != 0) {
            throw new IOException(what + " exited " + p.exitValue() + ": " + out);
        }
        return out;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
