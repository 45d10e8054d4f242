package io.opensdrs.system;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Ctrl-C on `sdrs demo` stops every process it started: nothing is left running. */
class DemoShutdownIT {

    @Test
    void ctrlCStopsEverythingTheDemoStarted() throws Exception {
        Path root = SystemLoops.repositoryRoot();
        Path work = SystemLoops.workDir("demo-shutdown");
        Path out = work.resolve("demo.out");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process demo = new ProcessBuilder(java, "-jar", root.resolve("src-test/target/sdrs-cli.jar").toString(), "demo",
                "--work-dir", work.resolve("run").toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            SystemLoops.await("the demo waits for models (everything started)", Duration.ofMinutes(3), () -> {
                assertThat(demo.isAlive()).as("demo running: %s", Files.readString(out)).isTrue();
                return Files.readString(out, StandardCharsets.UTF_8).contains("waiting for a model of every datastore");
            });
            List<ProcessHandle> children = demo.descendants().toList();
            assertThat(children.stream().map(p -> p.info().commandLine().orElse("")).toList())
                    .as("vcsim, the server and four agents").hasSizeGreaterThanOrEqualTo(6)
                    .anyMatch(c -> c.contains("vcsim")).anyMatch(c -> c.contains("sdrs-server.jar"))
                    .anyMatch(c -> c.contains("sdrs-host-agent.jar"));
            // Ctrl-C: SIGINT to the demo's JVM (its shutdown hook stops what it started)
            new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).start().waitFor();
            assertThat(demo.waitFor(60, TimeUnit.SECONDS)).as("the demo exits on Ctrl-C").isTrue();
            for (ProcessHandle c : children) {
                SystemLoops.await(c.pid() + " (" + c.info().commandLine().orElse("?") + ") gone", Duration.ofSeconds(15),
                        () -> !c.isAlive());
            }
            SystemLoops.say("Ctrl-C: the demo and its " + children.size() + " child processes are gone");
        } finally {
            demo.descendants().forEach(ProcessHandle::destroyForcibly);
            demo.destroyForcibly();
        }
    }
}
