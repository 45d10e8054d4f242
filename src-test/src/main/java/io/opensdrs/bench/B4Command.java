package io.opensdrs.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * B4 (SPEC §8): statistics ingestion. The benchmark runs the server in its own JVM, on the
 * server's classes and Spring, which this command line does not carry; it is module
 * {@code src-test/ingest-bench}, and this command runs that module's jar with the arguments it
 * is given ({@code sdrs bench b4 --help} prints the benchmark's own options).
 */
@Command(name = "b4",
        description = "B4: agents' streams through gRPC into P² percentiles and storage; samples/s and query latency"
                + " (src-test/ingest-bench's jar; `sdrs bench b4 --help` lists its options)")
public final class B4Command implements Callable<Integer> {

    static final String JAR = "src-test/ingest-bench/target/sdrs-ingest-bench.jar";

    @Option(names = "--jvm", paramLabel = "OPTIONS", description = "the benchmark JVM's options (default ${DEFAULT-VALUE})")
    String jvm = "-Xmx4g";

    @Unmatched
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path jar = B4vCommand.repositoryRoot().resolve(JAR);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("B4's jar " + jar + " is not built: ./mvnw -B -q -pl src-test/ingest-bench -am package -DskipTests");
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of(jvm.strip().split("\\s+")));
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(arguments);
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
