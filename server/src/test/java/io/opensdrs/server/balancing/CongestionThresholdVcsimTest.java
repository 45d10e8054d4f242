package io.opensdrs.server.balancing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.balance.CongestionThresholds;
import io.opensdrs.balance.DefaultModelRule;
import io.opensdrs.server.AdminApi;
import io.opensdrs.server.ingest.AgentMessageIngestion;
import io.opensdrs.server.inventory.InventorySync;
import io.opensdrs.server.migration.FaithfulVcsim;
import io.opensdrs.server.migration.ServerAgainstVcsim;
import io.opensdrs.server.models.PerDatastoreModelKindTest;
import io.opensdrs.server.settings.ClusterPolicies;
import io.opensdrs.server.vsphere.VcsimProcess;
import io.opensdrs.shared.agent.v1.Ack;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The congestion threshold L_α (Pesto Eq. 9) of a datastore with a fitted model is set where ESXi
 * reads it: the datastore's SIOC {@code iormConfiguration} in vCenter (our simulator's
 * ConfigureDatastoreIORM_Task), read back from outside with govc; once, not at every cycle; and
 * nowhere else (a datastore on the default model, a datastore outside the managed clusters).
 */
@ServerAgainstVcsim
@TestPropertySource(properties = "sdrs.balancing.congestion-interval=PT1H")
class CongestionThresholdVcsimTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static VcsimProcess vcsim;

    /** ds1 gets a model from the injector; ds2, in the same pod, none; lone is in no pod but is measured too. */
    static final String WORLD = "{\"datacenter\":\"DC0\",\"storagePods\":[{\"name\":\"POD0\",\"datastores\":["
            + "{\"name\":\"ds1\",\"capacityGB\":100},{\"name\":\"ds2\",\"capacityGB\":100}]}],"
            + "\"datastores\":[{\"name\":\"lone\",\"capacityGB\":100}],"
            + "\"hosts\":[{\"name\":\"h1\",\"cluster\":\"C0\",\"datastores\":[\"ds1\",\"ds2\",\"lone\"]}],\"vms\":["
            + "{\"name\":\"a\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":1,\"datastore\":\"ds1\"}]}]}";

    @DynamicPropertySource
    static void vcenter(DynamicPropertyRegistry r) throws Exception {
        vcsim = FaithfulVcsim.start(WORLD, "congestion", "-username", FaithfulVcsim.USER, "-password", FaithfulVcsim.PASSWORD);
        FaithfulVcsim.registerAsVCenter(r, vcsim, "congestion");
    }

    @AfterAll
    static void stop() {
        if (vcsim != null) {
            vcsim.close();
        }
    }

    @Autowired InventorySync sync;
    @Autowired ClusterStateAssembler assembler;
    @Autowired ClusterPolicies policies;
    @Autowired AgentMessageIngestion ingestion;
    @Autowired CongestionThresholdPublisher publisher;
    @Autowired TestRestTemplate rest;
    @Autowired JdbcTemplate jdbc;

    /** The datastore's iormConfiguration as vCenter holds it, read with govc. */
    JsonNode held(String datastore) throws Exception {
        String ref = "Datastore:" + FaithfulVcsim.moid(vcsim, "s", datastore);
        return JSON.readTree(vcsim.govc("object.collect", "-json", ref, "iormConfiguration")).at("/0/val");
    }

    @Test
    void theFittedDatastoresThresholdIsSetInVCenterOnceAndNowhereElse() throws Exception {
        try {
            sync.fullSync();
        } catch (RuntimeException startupSyncRacing) {
            sync.fullSync();
        }
        new AdminApi(rest).call(HttpMethod.POST, "/api/v1/agents", Map.of("agentId", "esx1"), 201);
        // a device of 3.3 ms + 0.4 ms per outstanding IO: L_0.9 = C/(1 - α) = 33 ms, not SIOC's 30
        long seq = 1;
        for (String ds : new String[] {"ds1", "lone"}) {
            Ack ack = ingestion.apply("esx1", AgentMessage.newBuilder().setSeq(seq++)
                    .setInjectorResult(PerDatastoreModelKindTest.injectorRun(ds, 4, w -> 3.3 + 0.4 * w.outstandingIos())).build());
            assertThat(ack.getStatus()).as(ack.getReason()).isEqualTo(AckStatus.ACCEPTED);
        }
        String pod = jdbc.queryForObject("SELECT moid FROM datastore_cluster WHERE name = 'POD0'", String.class);
        String ds1 = FaithfulVcsim.moid(vcsim, "s", "ds1");
        ClusterStateAssembler.Assembled a = assembler.assemble(pod);
        assertThat(a.modelSource().get(ds1)).isNotEqualTo(DefaultModelRule.MODEL_NAME);
        CongestionThresholds.Threshold engine = CongestionThresholds.of(a.state(), policies.settings(pod).getCongestionAlpha(), 0).get(ds1);
        assertThat(engine.fallbackReason()).isNull();
        assertThat(engine.latencyMs()).isCloseTo(33, within(1.0));
        assertThat(held("ds1").path("congestionThreshold").asInt()).isEqualTo(30);

        publisher.publish();

        JsonNode ds1Held = held("ds1");
        assertThat(ds1Held.path("congestionThresholdMode").asText()).isEqualTo("manual");
        assertThat((double) ds1Held.path("congestionThreshold").asInt()).isCloseTo(engine.latencyMs(), within(1.0));
        assertThat(ds1Held.path("enabled").asBoolean(true)).as("SIOC's on/off is the administrator's").isFalse();
        assertThat(vcsim.govc("object.collect", "-s", "Datastore:" + ds1, "iormConfiguration.congestionThreshold").strip())
                .isEqualTo(String.valueOf(Math.round(engine.latencyMs())));
        for (String untouched : new String[] {"ds2", "lone"}) {
            JsonNode h = held(untouched);
            assertThat(h.path("congestionThresholdMode").asText()).as(untouched).isEqualTo("automatic");
            assertThat(h.path("congestionThreshold").asInt()).as(untouched).isEqualTo(30);
        }
        assertThat(publisher.vcenterWrites()).isEqualTo(1);

        // the same model again: vCenter already holds it, nothing is written
        publisher.publish();
        assertThat(publisher.vcenterWrites()).isEqualTo(1);
        assertThat(held("ds1")).isEqualTo(ds1Held);
    }
}
