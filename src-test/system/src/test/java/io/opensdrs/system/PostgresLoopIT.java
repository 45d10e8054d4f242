package io.opensdrs.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.opensdrs.loop.LocalLoop;
import io.opensdrs.loop.ServerApi;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same loop with the server on PostgreSQL (a real PostgreSQL server process, the server's
 * {@code postgres} profile): models from the agents, a storage vMotion applied and followed by
 * the testbed, and a balancing run when the server has one.
 */
class PostgresLoopIT {

    @Test
    void theLoopRunsOnPostgreSql() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            LocalLoop.Settings settings = SystemLoops.settings("postgres")
                    .withDatabase(new LocalLoop.Database(pg.getJdbcUrl("postgres", "postgres"), "postgres", "postgres"));
            try (LocalLoop loop = SystemLoops.startWithModels(SystemLoops.demoWorld(), settings)) {
                loop.startVmIo();
                ServerApi api = loop.api();
                String vm = SystemLoops.vmId(loop, "silver-oltp1");
                JsonNode rec = api.post("/api/v1/clusters/" + SystemLoops.clusterId(loop, "silver") + "/recommendations",
                        Map.of("reasonCode", "balanceDatastoreIOLoad", "moves", List.of(Map.of("vmId", vm,
                                "diskKeys", List.of(SystemLoops.diskKey(loop, "silver-oltp1", "data")), "destinationDatastoreId", SystemLoops.datastoreId(loop, "silver-10k2")))));
                long id = rec.path("id").asLong();
                api.post("/api/v1/recommendations/" + id + "/apply", Map.of());
                SystemLoops.await("recommendation applied", Duration.ofMinutes(2),
                        () -> api.get("/api/v1/recommendations/" + id).path("state").asText().equals("APPLIED"));
                SystemLoops.await("the testbed followed", Duration.ofMinutes(2),
                        () -> loop.follower().status("silver-oltp1", 2000).getDatastoreNow().equals("silver-10k2"));
                assertThat(loop.govc().diskFiles("silver-oltp1")).anyMatch(f -> f.startsWith("[silver-10k2] silver-oltp1/data"));
                SystemLoops.say("PostgreSQL: models for every datastore, silver-oltp1 moved to silver-10k2 and followed");
                runBalancingIfPresent(loop);
            }
        }
    }

    private static void runBalancingIfPresent(LocalLoop loop) throws Exception {
        ServerApi api = loop.api();
        List<Long> ids = new ArrayList<>();
        for (JsonNode c : api.get("/api/v1/clusters")) {
            JsonNode run;
            try {
                run = api.post("/api/v1/clusters/" + c.path("id").asText() + "/run", Map.of());
            } catch (ServerApi.ApiException e) {
                if (e.status() == 404 || e.status() == 405) {
                    SystemLoops.say("PostgreSQL: this server build has no balancing run over REST; not exercised");
                    return;
                }
                throw e;
            }
            for (JsonNode r : run.path("recommendationIds")) {
                api.post("/api/v1/recommendations/" + r.asLong() + "/apply", Map.of());
                ids.add(r.asLong());
            }
        }
        for (long id : ids) {
            SystemLoops.await("recommendation " + id + " finished", Duration.ofMinutes(4), () -> {
                String s = api.get("/api/v1/recommendations/" + id).path("state").asText();
                return !s.equals("PENDING") && !s.equals("APPLYING");
            });
            assertThat(api.get("/api/v1/recommendations/" + id).path("state").asText()).isEqualTo("APPLIED");
        }
        SystemLoops.say("PostgreSQL: balancing run applied " + ids.size() + " recommendation(s)");
    }
}
