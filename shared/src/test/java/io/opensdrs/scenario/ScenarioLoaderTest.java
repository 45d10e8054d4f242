package io.opensdrs.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioLoaderTest {
    private static final String DIR = "/io/opensdrs/scenario/";

    private static String resource(String name) throws IOException {
        try (InputStream in = ScenarioLoaderTest.class.getResourceAsStream(DIR + name)) {
            assertThat(in).as("test resource %s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyShippedExampleLoads() throws Exception {
        List<String> names = ScenarioCatalog.names();
        assertThat(names).contains("demo");
        for (String name : names) {
            Scenario s = ScenarioCatalog.example(name);
            assertThat(s.name()).isEqualTo(name);
            assertThat(s.datastores()).isNotEmpty();
            assertThat(s.diskCount()).isPositive();
        }
    }

    @Test
    void baseFixtureLoadsWithDefaultsApplied() throws Exception {
        Scenario s = ScenarioLoader.parse(resource("valid-base.json"), "valid-base.json");
        assertThat(s.datastores()).extracting(DatastoreSpec::name).containsExactly("ds1", "ds2", "ds3");
        assertThat(s.datastores().get(0).device()).isInstanceOf(DeviceSpec.HddArray.class);
        assertThat(s.datastores().get(1).device()).isInstanceOf(DeviceSpec.Ssd.class);
        WorkloadSpec w = s.vm("vm2").orElseThrow().disk("data").orElseThrow().workload();
        // Schema defaults: 4 KB random reads.
        assertThat(w.ioSizeKB()).isEqualTo(4.0);
        assertThat(w.readPct()).isEqualTo(100.0);
        assertThat(w.randomPct()).isEqualTo(100.0);
        assertThat(s.events()).singleElement().isInstanceOf(EventSpec.Maintenance.class);
        assertThat(s.rules()).singleElement().isInstanceOf(RuleSpec.VmAntiAffinity.class);
        assertThat(s.vm("vm1").orElseThrow().memoryMB()).as("not given").isNull();
    }

    @Test
    void aVmsMemoryIsRead() throws Exception {
        String text = resource("valid-base.json").replaceFirst("\"name\": \"vm1\",", "\"name\": \"vm1\", \"memoryMB\": 4096,");
        assertThat(text).contains("\"memoryMB\": 4096");
        assertThat(ScenarioLoader.parse(text, "memory.json").vm("vm1").orElseThrow().memoryMB()).isEqualTo(4096);
    }

    @Test
    void phasesReplaceTheWorkloadWithinTheirHours() throws Exception {
        Scenario demo = ScenarioCatalog.example("demo");
        WorkloadSpec oltp = demo.vm("gold-oltp1").orElseThrow().disk("data").orElseThrow().workload();
        assertThat(oltp.at(3).oio()).isEqualTo(8.0);
        assertThat(oltp.at(10).oio()).isEqualTo(16.0);
        assertThat(oltp.at(10).ioSizeKB()).isEqualTo(8.0);
        assertThat(oltp.at(17).oio()).isEqualTo(8.0);
    }

    static Stream<Arguments> malformed() throws IOException {
        return resource("invalid/expectations.csv").lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> l.split("\\|", 3))
                .map(f -> Arguments.of(f[0], f[1], f[2]));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("malformed")
    void malformedFileIsRejectedNamingTheField(String file, String path, String fragment) throws IOException {
        String text = resource("invalid/" + file + ".json");
        assertThatThrownBy(() -> ScenarioLoader.parse(text, file + ".json"))
                .isInstanceOfSatisfying(InvalidScenarioException.class, e -> {
                    assertThat(e.errors())
                            .as("errors for %s", file)
                            .anySatisfy(err -> {
                                assertThat(err.path()).isEqualTo(path);
                                assertThat(err.message()).contains(fragment);
                            });
                    assertThat(e.getMessage()).contains(file + ".json").contains(path);
                });
    }

    @Test
    void atLeastTwelveMalformedFilesAreCovered() throws IOException {
        assertThat(malformed().count()).isGreaterThanOrEqualTo(12);
    }

    @Test
    void missingFileIsAClearError() {
        assertThatThrownBy(() -> ScenarioLoader.load(java.nio.file.Path.of("/nonexistent/world.json")))
                .isInstanceOf(InvalidScenarioException.class)
                .hasMessageContaining("/nonexistent/world.json")
                .hasMessageContaining("no such file");
    }

    @Test
    void unknownExampleNameListsTheShippedOnes() {
        assertThatThrownBy(() -> ScenarioCatalog.resolve("no-such-world"))
                .isInstanceOf(InvalidScenarioException.class)
                .hasMessageContaining("no shipped scenario named 'no-such-world'")
                .hasMessageContaining("demo");
    }
}
