package io.opensdrs.system;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What ships is the product (issue 40): the server's boot jar with every jar it nests, the host
 * agent's jar with the libraries beside it, and the engine, model and shared jars hold no class of
 * the testbed, no benchmark and no test agent, and the host agent carries no engine. Read from the
 * packaged jars, after the reactor built them. The testbed's packages are read from its own jars
 * (the sdrs command line's and B4's), so a package the testbed adds is covered without a change here.
 */
class ProductJarsIT {

    /** Jars only a benchmark needs. */
    private static final List<String> BENCHMARK_LIBRARIES = List.of("jmh-core-", "jopt-simple-", "sdrs-src-test-",
            "sdrs-ingest-bench-", "sdrs-system-tests-");

    @Test
    void productJarsCarryNoTestbedBenchmarkOrTestAgentClass() throws IOException {
        Path root = SystemLoops.repositoryRoot();
        Set<String> testbedPackages = new TreeSet<>();
        for (String jar : List.of("src-test/target/sdrs-cli.jar", "src-test/ingest-bench/target/sdrs-ingest-bench.jar")) {
            Path path = root.resolve(jar);
            assertThat(path).as("the testbed's jar (built before this module)").isRegularFile();
            try (ZipInputStream in = new ZipInputStream(Files.newInputStream(path))) {
                for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                    if (e.getName().endsWith(".class") && e.getName().contains("/")) {
                        testbedPackages.add(e.getName().substring(0, e.getName().lastIndexOf('/')));
                    }
                }
            }
        }
        assertThat(testbedPackages).as("packages read from the testbed's jars")
                .contains("io/opensdrs/testbed/world", "io/opensdrs/cli", "io/opensdrs/bench", "io/opensdrs/bench/ingest");

        List<Path> product = new ArrayList<>();
        product.add(root.resolve("server/target/sdrs-server.jar"));
        product.add(root.resolve("host-agent/target/sdrs-host-agent.jar"));
        // The agent's libraries are the ones its manifest's Class-Path names: what `java -jar`
        // loads and what ships beside it; a stale jar left in target/lib by an older build is neither.
        Path agentJar = root.resolve("host-agent/target/sdrs-host-agent.jar");
        List<Path> jars = new ArrayList<>();
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(agentJar.toFile())) {
            String classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");
            assertThat(classPath).as("the host agent's manifest Class-Path").isNotNull();
            for (String entry : classPath.trim().split("\\s+")) {
                Path lib = agentJar.getParent().resolve(entry);
                assertThat(lib).as("a library the agent's manifest names").isRegularFile();
                jars.add(lib);
            }
        }
        assertThat(jars).as("the host agent ships the models, not the engine")
                .anyMatch(p -> p.getFileName().toString().startsWith("sdrs-model-"))
                .noneMatch(p -> p.getFileName().toString().startsWith("sdrs-engine-"));
        product.addAll(jars);
        product.add(moduleJar(root.resolve("model/engine/target"), "sdrs-engine-"));
        product.add(moduleJar(root.resolve("model/target"), "sdrs-model-"));
        product.add(moduleJar(root.resolve("shared/target"), "sdrs-shared-"));

        List<String> found = new ArrayList<>();
        int classes = 0;
        for (Path jar : product) {
            assertThat(jar).as("a product jar").isRegularFile();
            try (InputStream in = Files.newInputStream(jar)) {
                classes += scan(in, root.relativize(jar).toString(), testbedPackages, found);
            }
        }
        assertThat(classes).as("classes read from the product jars").isGreaterThan(1000);
        assertThat(found).as("testbed, benchmark or test-agent content in a product jar").isEmpty();
        SystemLoops.say("product jars: " + product.size() + " jars, " + classes + " classes, none of the testbed ("
                + testbedPackages.size() + " packages), of a benchmark or a test agent");
    }

    /** The module's own jar in {@code target}: not its tests, sources or the server's plain-classes jar. */
    private static Path moduleJar(Path target, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(target)) {
            List<Path> jars = files.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(prefix) && n.endsWith(".jar") && !n.endsWith("-tests.jar") && !n.endsWith("-sources.jar");
            }).toList();
            assertThat(jars).as(prefix + "*.jar in " + target).hasSize(1);
            return jars.get(0);
        }
    }

    /** Reads one jar (and every jar nested in it) and adds what must not ship to {@code found}; returns its classes. */
    private static int scan(InputStream jar, String where, Set<String> testbedPackages, List<String> found) throws IOException {
        int classes = 0;
        ZipInputStream in = new ZipInputStream(jar);
        for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
            String name = e.getName();
            if (e.isDirectory()) {
                continue;
            }
            if (name.endsWith(".jar")) {
                String file = name.substring(name.lastIndexOf('/') + 1);
                if (BENCHMARK_LIBRARIES.stream().anyMatch(file::startsWith) || file.endsWith("-tests.jar")) {
                    found.add(where + "!" + name + ": a benchmark's or the tests' library");
                }
                classes += scan(in, where + "!" + name, testbedPackages, found);
                continue;
            }
            if (name.equals("META-INF/BenchmarkList")) {
                found.add(where + "!" + name + ": JMH's benchmark list");
            }
            if (!name.endsWith(".class")) {
                continue;
            }
            classes++;
            String path = name.startsWith("BOOT-INF/classes/") ? name.substring("BOOT-INF/classes/".length()) : name;
            String pkg = path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
            String simple = path.substring(path.lastIndexOf('/') + 1, path.length() - ".class".length()).replaceAll("\\$.*", "");
            String why = testbedPackages.contains(pkg) || (pkg + "/").startsWith("io/opensdrs/testbed/") ? "a testbed package"
                    : List.of(pkg.split("/")).stream().anyMatch(s -> s.equals("bench") || s.equals("jmh_generated")) ? "a benchmark package"
                    : simple.endsWith("Benchmark") ? "a benchmark"
                    : simple.equals("SimulatedAgent") ? "the tests' simulated agent"
                    : null;
            if (why != null) {
                found.add(where + "!" + name + ": " + why);
            }
        }
        return classes;
    }
}
