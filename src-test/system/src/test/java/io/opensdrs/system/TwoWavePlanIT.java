package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.loop.ServerApi;
import io.opensdrs.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40, acceptance 3: the server's own Storage DRS run plans two waves where the second needs
 * the space the first frees, and the applier completes both without a {@code NoDiskSpace} fault.
 * The world ({@code two-wave.json}): x and y over the 80 % space threshold, z empty; x-big (12 GB)
 * can only go from x to z, and y-small (5 GB) then only into x, where 2.9 GB are free until x-big
 * has left. The administrator applies the child alone: its pending parent is queued with it (a
 * prerequisite), the child's action says it waits for the parent, and the stored parent, not the order
 * of the actions, makes it wait. vCenter is our vcsim as a process, the result read with govc.
 */
class TwoWavePlanIT {

    @Test
    void aTwoWavePlanWhoseSecondWaveNeedsTheSpaceTheFirstFreesCompletes() throws Exception {
        Path world = Path.of(TwoWavePlanIT.class.getResource("/two-wave.json").toURI());
        try (LocalLoop loop = new LocalLoop(ScenarioLoader.load(world), SystemLoops.settings("two-wave"), SystemLoops::say).start()) {
            ServerApi api = loop.api();
            SystemLoops.await("the server's inventory has the four VMs", Duration.ofMinutes(2), () -> api.get("/api/v1/disks").size() == 4);
            String cluster = SystemLoops.clusterId(loop, "tiers");
            String x = SystemLoops.datastoreId(loop, "x");
            String z = SystemLoops.datastoreId(loop, "z");
            String xBig = SystemLoops.vmId(loop, "x-big");
            String ySmall = SystemLoops.vmId(loop, "y-small");
            SystemLoops.say("x free before: " + loop.govc().json("datastore.info", "x").at("/datastores/0/summary/freeSpace").asLong() + " B");

            JsonNode run = api.post("/api/v1/clusters/" + cluster + "/run", Map.of());
            JsonNode parent = null;
            JsonNode child = null;
            for (JsonNode id : run.path("recommendationIds")) {
                JsonNode r = api.get("/api/v1/recommendations/" + id.asLong());
                SystemLoops.say("recommended: " + r.path("reasonCode").asText() + " " + r.path("actions"));
                JsonNode a = r.path("actions").get(0);
                if (a.path("vmId").asText().equals(xBig) && a.path("destinationDatastoreId").asText().equals(z)) {
                    parent = r;
                } else if (a.path("vmId").asText().equals(ySmall) && a.path("destinationDatastoreId").asText().equals(x)) {
                    child = r;
                }
            }
            // the engine walks the datastores in the order of their ids: x (created first) sheds before y
            assertThat(parent).as("x-big from x to z in run %s (datastore ids x %s, z %s)", run, x, z).isNotNull();
            assertThat(child).as("y-small from y to x in run %s", run).isNotNull();
            long parentAction = parent.path("actions").get(0).path("id").asLong();
            assertThat(child.path("actions").get(0).path("parentActionIds")).as("y-small's move waits for x-big's")
                    .extracting(JsonNode::asLong).containsExactly(parentAction);

            long parentId = parent.path("id").asLong();
            long childId = child.path("id").asLong();
            api.post("/api/v1/recommendations/" + childId + "/apply", Map.of());
            assertThat(api.get("/api/v1/recommendations/" + parentId).path("state").asText())
                    .as("x-big's recommendation, never applied, is queued with y-small's").isIn("APPLYING", "APPLIED");
            String[] waitReason = new String[1];
            SystemLoops.await("y-small's action says what it waits for", Duration.ofMinutes(2), () -> {
                JsonNode a = api.get("/api/v1/recommendations/" + childId).at("/actions/0");
                waitReason[0] = a.path("waitReason").isNull() ? null : a.path("waitReason").asText();
                return waitReason[0] != null || !a.path("state").asText().equals("QUEUED");
            });
            SystemLoops.say("y-small waits: " + waitReason[0]);
            assertThat(waitReason[0]).as("y-small's wait while x-big's copy runs")
                    .startsWith("waiting for its parent, action " + parentAction + " of recommendation " + parentId + ", to end");
            List<String> ended = new ArrayList<>();
            for (long id : List.of(parentId, childId)) {
                SystemLoops.await("recommendation " + id + " ended", Duration.ofMinutes(4), () -> {
                    String s = api.get("/api/v1/recommendations/" + id).path("state").asText();
                    return !s.equals("PENDING") && !s.equals("APPLYING");
                });
                JsonNode r = api.get("/api/v1/recommendations/" + id);
                ended.add(r.path("id").asLong() + " " + r.path("state").asText() + " " + r.path("faultType").asText("") + " "
                        + r.path("faultMessage").asText(""));
            }
            SystemLoops.say("ended: " + ended);
            JsonNode parentDone = api.get("/api/v1/recommendations/" + parentId);
            JsonNode childDone = api.get("/api/v1/recommendations/" + childId);
            assertThat(parentDone.path("state").asText()).as(parentDone.toString()).isEqualTo("APPLIED");
            assertThat(childDone.path("state").asText()).as("no NoDiskSpace: %s", childDone).isEqualTo("APPLIED");
            Instant parentEnd = Instant.parse(parentDone.at("/actions/0/finishedAt").asText());
            Instant childStart = Instant.parse(childDone.at("/actions/0/startedAt").asText());
            assertThat(childStart).as("y-small's copy started after x-big's move ended").isAfterOrEqualTo(parentEnd);
            List<String> xBigFiles = loop.govc().diskFiles("x-big");
            List<String> ySmallFiles = loop.govc().diskFiles("y-small");
            assertThat(xBigFiles).allMatch(f -> f.startsWith("[z] "));
            assertThat(ySmallFiles).allMatch(f -> f.startsWith("[x] "));
            SystemLoops.say(String.format("acceptance 3: wave 1 x-big x -> z ended %s; wave 2 y-small y -> x (parent action %d) started %s;"
                    + " both APPLIED; govc: x-big %s, y-small %s; x free after: %d B", parentEnd, parentAction, childStart, xBigFiles,
                    ySmallFiles, loop.govc().json("datastore.info", "x").at("/datastores/0/summary/freeSpace").asLong()));
        }
    }
}
