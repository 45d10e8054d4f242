package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.demo.DemoRun;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.loop.ManagedProcess;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Starting the loop for a test class: the repository's built jars, a fresh work directory per class. */
final class SystemLoops {
    /** Compressed time for the tests: a 20-s window every 0.5 s. */
    static final double SPEED = 40;

    private SystemLoops() {
    }

    static Path repositoryRoot() {
        return Path.of(System.getProperty("sdrs.repository.root", "../..")).toAbsolutePath().normalize();
    }

    static Path workDir(String name) throws IOException {
        Path dir = Path.of(System.getProperty("sdrs.system.work", "target/system")).toAbsolutePath().resolve(name);
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return Files.createDirectories(dir);
    }

    static Scenario demoWorld() throws Exception {
        return ScenarioCatalog.resolve("demo");
    }

    static LocalLoop.Settings settings(String name) throws IOException {
        return LocalLoop.Settings.defaults(repositoryRoot(), workDir(name)).withSpeed(SPEED);
    }

    /** Starts the loop and waits for a model of every datastore. */
    static LocalLoop startWithModels(Scenario world, LocalLoop.Settings settings) throws Exception {
        LocalLoop loop = new LocalLoop(world, settings, SystemLoops::say).start();
        try {
            DemoRun.awaitModels(loop, SystemLoops::say);
            return loop;
        } catch (Exception | Error e) {
            say("server log ends:\n" + loop.server().tail(30));
            loop.close();
            throw e;
        }
    }

    /** The demo world with models and the VMs' IO running, in a fresh work directory {@code name}. */
    static LocalLoop startDemoWorldWithVmIo(String name) throws Exception {
        LocalLoop loop = startWithModels(demoWorld(), settings(name));
        loop.startVmIo();
        return loop;
    }

    /** Closes the loop and checks that every process it started is gone. */
    static void closeAndCheckStopped(LocalLoop loop) {
        if (loop == null) {
            return;
        }
        List<ManagedProcess> started = loop.processes();
        loop.close();
        for (ManagedProcess p : started) {
            assertThat(p.isAlive()).as("%s stopped", p).isFalse();
        }
    }

    static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    static void await(String what, Duration timeout, CheckedCondition condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(250);
        }
    }

    @FunctionalInterface
    interface CheckedCondition {
        boolean holds() throws Exception;
    }

    /** The managed-object id of a VM, from the server's inventory. */
    static String vmId(LocalLoop loop, String vmName) throws Exception {
        for (JsonNode d : loop.api().get("/api/v1/disks")) {
            if (d.path("vmName").asText().equals(vmName)) {
                return d.path("vm").asText();
            }
        }
        throw new AssertionError("no VM " + vmName + " in the server's inventory");
    }

    /** vCenter's key of a VM's disk named in the scenario ("data"), from the server's inventory. */
    static int diskKey(LocalLoop loop, String vmName, String disk) throws Exception {
        for (JsonNode d : loop.api().get("/api/v1/disks")) {
            if (d.path("vmName").asText().equals(vmName) && d.path("file").asText().endsWith("/" + disk + ".vmdk")) {
                return d.path("diskKey").asInt();
            }
        }
        throw new AssertionError("no disk " + disk + " of " + vmName + " in the server's inventory");
    }

    static String datastoreId(LocalLoop loop, String name) throws Exception {
        for (JsonNode d : loop.api().get("/api/v1/datastores")) {
            if (d.path("name").asText().equals(name)) {
                return d.path("id").asText();
            }
        }
        throw new AssertionError("no datastore " + name + " in the server's inventory");
    }

    static String clusterId(LocalLoop loop, String name) throws Exception {
        for (JsonNode c : loop.api().get("/api/v1/clusters")) {
            if (c.path("name").asText().equals(name)) {
                return c.path("id").asText();
            }
        }
        throw new AssertionError("no cluster " + name);
    }

}
