package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.model.romano.ShortCalibrationDesign;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Romano in the live product (SPEC §3.3): the agent's injector runs Romano's short calibration
 * design on idle datastores (the emulated injector file, through the testbed's vSCSI service, as
 * its Pesto runs), the server fits a calibrated Romano model per datastore from it, and once the
 * VMs' IO runs, the server's automatic choice — per datastore, by held-out accuracy on the
 * production windows it reads from vCenter — uses Romano on at least one datastore. Everything is
 * read as an administrator reads it: the server's REST API and the agent's log.
 *
 * <p>Two single-spindle datastores in one cluster, one host with an agent; each VM writes 70 % and
 * reads 80 % sequentially (64 KiB, 4 outstanding), which a line measured with random reads cannot
 * know and Romano's R and X terms can.
 */
class RomanoLiveIT {

    static final String WORLD = """
            {"name": "romano-live", "seed": 5, "hours": 1,
             "datastoreClusters": [{"name": "pair", "datastores": ["spindle1", "spindle2"]}],
             "datastores": [
               {"name": "spindle1", "capacityGB": 256,
                "device": {"type": "hdd-array", "profile": "hgst-7k2", "disks": 1, "rpm": 7200, "raid": "none"}},
               {"name": "spindle2", "capacityGB": 256,
                "device": {"type": "hdd-array", "profile": "wd740gd-10k", "disks": 1, "rpm": 10000, "raid": "none"}}],
             "hosts": [{"name": "esx1", "datastores": ["spindle1", "spindle2"]}],
             "vms": [
               {"name": "log1", "host": "esx1", "disks": [{"name": "data", "sizeGB": 20, "datastore": "spindle1",
                "workload": {"oio": 4, "ioSizeKB": 64, "readPct": 30, "randomPct": 20}}]},
               {"name": "log2", "host": "esx1", "disks": [{"name": "data", "sizeGB": 20, "datastore": "spindle2",
                "workload": {"oio": 4, "ioSizeKB": 64, "readPct": 30, "randomPct": 20}}]}]}""";

    static final List<String> DATASTORES = List.of("spindle1", "spindle2");
    static LocalLoop loop;

    @BeforeAll
    static void start() throws Exception {
        Scenario world = ScenarioLoader.parse(WORLD, "romano-live");
        loop = new LocalLoop(world, SystemLoops.settings("romano-live").withRomanoCalibration(25), SystemLoops::say).start();
    }

    @AfterAll
    static void stop() {
        SystemLoops.closeAndCheckStopped(loop);
    }

    @Test
    void theAgentCalibratesRomanoAndTheServerThenUsesItOnADatastore() throws Exception {
        long t0 = System.nanoTime();
        // the design's points that are not random reads: what only the calibration puts in a fit
        int design = (int) ShortCalibrationDesign.points().stream().filter(w -> w.readFraction() < 1 || w.randomFraction() < 1).count();
        // (1) every datastore's Romano fit holds the whole design the agent ran, with R and X spanned
        Map<String, JsonNode> calibrated = new TreeMap<>();
        SystemLoops.await("a Romano model fitted to the agent's whole calibration design on " + DATASTORES, Duration.ofMinutes(6), () -> {
            for (String ds : DATASTORES) {
                if (!calibrated.containsKey(ds)) {
                    calibrationFit(ds, design).ifPresent(m -> calibrated.put(ds, m));
                }
            }
            return calibrated.size() == DATASTORES.size();
        });
        double calibrationS = (System.nanoTime() - t0) / 1e9;
        for (Map.Entry<String, JsonNode> e : calibrated.entrySet()) {
            JsonNode m = e.getValue();
            SystemLoops.say(String.format(Locale.ROOT, "%s: romano from the calibration, %d points, R²=%.3f, terms %s", e.getKey(),
                    m.path("fitPoints").size(), m.path("rSquared").asDouble(Double.NaN), names(m.path("parameters"))));
        }
        String log = Files.readString(loop.agents().get("esx1").log());
        long parts = log.lines().filter(l -> l.contains("type=calibrate-start")).count();
        SystemLoops.say(String.format(Locale.ROOT, "calibration: %d parts over both datastores, %.0f s of wall clock", parts, calibrationS));
        assertThat(parts).as("the design ran in parts, one per idle period")
                .isGreaterThanOrEqualTo(2L * ShortCalibrationDesign.points().size() / 25);

        // (2) the VMs' IO: production windows the models have not seen decide each datastore's kind
        long t1 = System.nanoTime();
        loop.startVmIo();
        String clusterId = SystemLoops.clusterId(loop, "pair");
        Map<String, String> kinds = new TreeMap<>();
        JsonNode[] seen = new JsonNode[2]; // the model view and the cluster's model selection, read together
        SystemLoops.await("the server using romano on a datastore of cluster pair", Duration.ofMinutes(4), () -> {
            JsonNode selection = loop.api().get("/api/v1/clusters/" + clusterId + "/model-selection");
            for (String ds : DATASTORES) {
                JsonNode m = loop.api().get("/api/v1/datastores/" + ds + "/model");
                kinds.put(ds, m.path("clusterModelKind").asText());
                if (m.path("clusterModelKind").asText().equals("romano")
                        && selection.path("selectedByDatastore").path(ds).asText().equals("romano")) {
                    seen[0] = m;
                    seen[1] = selection;
                }
            }
            return seen[0] != null;
        });
        JsonNode used = seen[0];
        String romanoDs = used.path("datastore").asText();
        SystemLoops.say(String.format(Locale.ROOT, "%.0f s of VM IO later: kinds %s; %s uses %s (source %s, %d fit points);"
                        + " held-out mean |error| ms there %s; model-selection %s", (System.nanoTime() - t1) / 1e9, kinds, romanoDs,
                used.path("model").path("kind").asText(), used.path("model").path("source").asText(),
                used.path("model").path("fitPoints").size(), used.path("heldOutErrorMs"), seen[1]));
        assertThat(used.path("model").path("kind").asText()).isEqualTo("romano");
        assertThat(used.path("model").path("valid").asBoolean()).isTrue();
        // the model in use holds the agent's calibration (also when refitted with the production windows)
        assertThat(designPoints(used.path("model").path("fitPoints"))).isGreaterThanOrEqualTo(design);
        JsonNode errors = used.path("heldOutErrorMs");
        assertThat(errors.path("romano").isNumber()).as("romano scored on %s's held-out windows: %s", romanoDs, errors).isTrue();
        assertThat(errors.path("pesto").isNumber()).as("pesto scored on %s's held-out windows: %s", romanoDs, errors).isTrue();
        assertThat(errors.path("romano").asDouble()).as("held-out errors on %s: %s", romanoDs, errors)
                .isLessThan(errors.path("pesto").asDouble());
        SystemLoops.say(String.format(Locale.ROOT, "romano live: %.0f s of wall clock in all", (System.nanoTime() - t0) / 1e9));
    }

    /** The newest Romano fit of the datastore that holds every point of the agent's design, if any. */
    static java.util.Optional<JsonNode> calibrationFit(String ds, int design) throws Exception {
        JsonNode history;
        try {
            history = loop.api().get("/api/v1/datastores/" + ds + "/models/history?limit=20");
        } catch (io.opensdrs.loop.ServerApi.ApiException e) {
            if (e.status() == 404) {
                return java.util.Optional.empty();
            }
            throw e;
        }
        for (JsonNode m : history) {
            if (m.path("kind").asText().equals("romano") && m.path("source").asText().equals("calibration")
                    && m.path("valid").asBoolean() && designPoints(m.path("fitPoints")) >= design) {
                return java.util.Optional.of(m);
            }
        }
        return java.util.Optional.empty();
    }

    /** Fit points that are not random reads (R or X below 100 %): the injector's Pesto runs have none. */
    static int designPoints(JsonNode points) {
        int n = 0;
        for (JsonNode p : points) {
            if (p.path("readShare").asDouble() < 0.999 || p.path("randomness").asDouble() < 0.999) {
                n++;
            }
        }
        return n;
    }

    static List<String> names(JsonNode parameters) {
        List<String> out = new ArrayList<>();
        parameters.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
