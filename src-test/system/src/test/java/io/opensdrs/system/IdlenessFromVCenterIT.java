package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioLoader;
import io.opensdrs.shared.vscsi.v1.SetWorkloadRequest;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;
import io.opensdrs.testbed.vscsi.PacedWorld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The injector does not start while vCenter's counters say another host loads the datastore
 * (Pesto §5.1.1), with that host running no agent: no heartbeat block carries its IO, so the only
 * way the leader learns it is the server reading the host's counters from vCenter and sending them
 * to the agents ({@code HostDatastoreLoads}). Two hosts see one datastore; only {@code quiet} has an
 * agent; a VM on {@code busy} keeps 8 random reads outstanding. While it runs, the leader defers;
 * once it stops, the leader injects and the datastore gets its model.
 */
class IdlenessFromVCenterIT {

    static final String WORLD = """
            {"name": "idleness", "seed": 3, "hours": 1,
             "datastoreClusters": [{"name": "pair", "datastores": ["shared"]}],
             "datastores": [{"name": "shared", "capacityGB": 512,
                             "device": {"type": "hdd-array", "profile": "hgst-7k2", "disks": 1, "rpm": 7200, "raid": "none"}}],
             "hosts": [{"name": "busy", "datastores": ["shared"]}, {"name": "quiet", "datastores": ["shared"]}],
             "vms": [{"name": "noisy", "host": "busy", "disks": [{"name": "data", "sizeGB": 20, "datastore": "shared",
                      "workload": {"oio": 8, "ioSizeKB": 4, "readPct": 100, "randomPct": 100}}]}]}""";

    static final Pattern DEFERRED = Pattern.compile("ds=shared type=inject-deferred reason=not-idle ios=(\\d+) oio=([0-9.]+)");
    static LocalLoop loop;

    @BeforeAll
    static void start() throws Exception {
        Scenario world = ScenarioLoader.parse(WORLD, "idleness");
        loop = new LocalLoop(world, SystemLoops.settings("idleness").withoutAgentOn("busy"), SystemLoops::say).start();
        noisy(8); // the busy host's VM runs from the start
    }

    @AfterAll
    static void stop() {
        SystemLoops.closeAndCheckStopped(loop);
    }

    static void noisy(int oio) {
        VScsiGrpc.newBlockingStub(loop.vscsiChannel()).setWorkload(SetWorkloadRequest.newBuilder().setVm("noisy")
                .setDiskKey(PacedWorld.FIRST_DISK_KEY).setOio(oio).setIoSizeKb(4).setReadPct(100).setRandomPct(100).build());
    }

    @Test
    void theLeaderDefersWhileAHostWithoutAgentLoadsTheDatastoreAndInjectsOnceItStops() throws Exception {
        assertThat(loop.agents()).containsOnlyKeys("quiet");
        Path agentLog = loop.agents().get("quiet").log();
        // the leader hears of busy's IO from the server and defers, more than once
        String[] seen = {null};
        SystemLoops.await("quiet's agent deferring its run on the datastore busy loads", Duration.ofSeconds(90), () -> {
            Matcher m = DEFERRED.matcher(Files.readString(agentLog));
            int loaded = 0;
            while (m.find()) {
                if (Double.parseDouble(m.group(2)) > 1) { // busy's OIO as vCenter counted it (before the first read: unknown, 0)
                    loaded++;
                    seen[0] = m.group();
                }
            }
            return loaded >= 2;
        });
        SystemLoops.say("while busy's VM runs, quiet's agent: " + seen[0] + "; testbed: " + loop.publishedStatistics());
        assertThat(Files.readString(agentLog)).as("no injector run while the datastore is loaded")
                .doesNotContain("type=inject-start");
        assertThat(model()).as("no measured model yet").isEqualTo("default");

        long stoppedAt = System.nanoTime();
        noisy(0);
        SystemLoops.await("a measured model of the datastore once busy's VM stopped", Duration.ofSeconds(120),
                () -> model().equals("injector"));
        SystemLoops.say(String.format("busy's VM stopped: the injector's model of shared %.1f s later (wall clock)",
                (System.nanoTime() - stoppedAt) / 1e9));
        assertThat(Files.readString(agentLog)).contains("type=inject-start");
    }

    static String model() throws Exception {
        JsonNode m = loop.api().get("/api/v1/datastores/shared/model?kind=pesto");
        return m.path("model").path("source").asText();
    }
}
