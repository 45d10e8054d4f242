package io.opensdrs.loop;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process of the loop (vcsim, the server, an agent) whose stdout and stderr go to one
 * log file: started, watched for a line, suspended (SIGSTOP, a server cut off from its agents),
 * killed (SIGKILL, a crash) or stopped (SIGTERM, then SIGKILL after a grace period). Closing it
 * is idempotent so that finally blocks and shutdown hooks may both do it.
 */
public final class ManagedProcess implements AutoCloseable {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private volatile Process process;

    private ManagedProcess(String name, List<String> command, Map<String, String> environment, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    /** Starts {@code command}, its output appended to {@code log}; extra environment in {@code environment}. */
    public static ManagedProcess start(String name, List<String> command, Map<String, String> environment, Path log)
            throws IOException {
        ManagedProcess p = new ManagedProcess(name, command, environment, log);
        p.launch();
        return p;
    }

    private void launch() throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(environment);
        process = pb.start();
    }

    /** Starts the same command again (a restart after {@link #kill()} or {@link #stop()}), same log. */
    public void restart() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        Files.writeString(log, "---- restarted ----\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND, java.nio.file.StandardOpenOption.CREATE);
        launch();
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Waits for the first log line matching {@code pattern} and returns its first group (or the whole match). */
    public String awaitLine(Pattern pattern, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher m = pattern.matcher(Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "");
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : m.group();
            }
            if (!isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue()
                        + " before printing " + pattern + "; its log ends:\n" + tail(30));
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(name + " printed no " + pattern + " within " + timeout + "; its log ends:\n"
                + tail(30));
    }

    /** SIGSTOP: the process stays, frozen (its sockets stay open but nothing answers). */
    public void suspend() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #suspend()}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String sig) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(pid())).redirectErrorStream(true).start();
        if (k.waitFor() != 0) {
            throw new IOException("kill -" + sig + " " + pid() + " failed: "
                    + new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** SIGKILL, as a crash would: nothing of the process's own shutdown runs. */
    public void kill() throws InterruptedException {
        Process p = process;
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGTERM (with SIGCONT first, so a suspended process can act on it), SIGKILL after the grace period. */
    public void stop() {
        List<ProcessHandle> children = requestStop();
        awaitStopped(children, System.nanoTime() + STOP_GRACE.toNanos());
    }

    /**
     * The first half of {@link #stop()}: SIGCONT, then SIGTERM; returns the descendants to reap.
     * A caller stopping several processes signals them all first so that their shutdowns overlap.
     */
    List<ProcessHandle> requestStop() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return List.of();
        }
        try {
            signal("CONT");
        } catch (IOException | InterruptedException e) {
            // best effort: a process that is not stopped needs no SIGCONT
        }
        List<ProcessHandle> children = new ArrayList<>(p.descendants().toList());
        p.destroy();
        return children;
    }

    /** The second half of {@link #stop()}: waits until {@code deadlineNanos}, then SIGKILL. */
    void awaitStopped(List<ProcessHandle> children, long deadlineNanos) {
        Process p = process;
        if (p == null) {
            return;
        }
        try {
            long left = Math.max(0, deadlineNanos - System.nanoTime());
            if (!p.waitFor(left, TimeUnit.NANOSECONDS)) {
                p.destroyForcibly();
                p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }

    static Duration stopGrace() {
        return STOP_GRACE;
    }

    @Override
    public void close() {
        stop();
    }

    /** The last {@code lines} lines of the log (for failure messages). */
    public String tail(int lines) {
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long len = f.length();
            long from = Math.max(0, len - 64 * 1024);
            byte[] b = new byte[(int) (len - from)];
            f.seek(from);
            f.readFully(b);
            List<String> all = new String(b, StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return name + (process != null ? " (pid " + process.pid() + ")" : "");
    }
}
