package io.opensdrs.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.ingest.AgentGrpcServer;
import io.opensdrs.server.ingest.SimulatedAgent;
import io.opensdrs.server.inventory.InMemoryInventorySource;
import io.opensdrs.server.inventory.InventorySnapshot;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.RegisterResponse;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's surface against a careful attacker and a careless client: one case per class of hole,
 * each with the request sent and the problem detail it must get, and the state unchanged after a refusal.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.security.users[1].name=operator",
        "sdrs.security.users[1].password=",
        "sdrs.security.login-failures-before-delay=3",
        "sdrs.plugin.frame-ancestors=https://vc.example.com",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.balancing.addition-check-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.congestion-interval=PT1H",
})
@Import(RequestHardeningTest.Fixtures.class)
class RequestHardeningTest {

    @TestConfiguration
    static class Fixtures {
        @Bean
        InMemoryInventorySource inventorySource() {
            return new InMemoryInventorySource();
        }
    }

    static Path dataDir;

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) throws Exception {
        dataDir = Files.createTempDirectory("sdrs-hardening-");
        r.add("sdrs.data-dir", dataDir::toString);
    }

    @Autowired TestRestTemplate rest;
    @Autowired JdbcTemplate jdbc;
    @Autowired InMemoryInventorySource inventory;
    @Autowired AgentGrpcServer grpc;
    @Autowired UserDetailsService users;
    static final ObjectMapper JSON = new ObjectMapper();

    /** The sample inventory, and ds-d in the same pod, which only host-22 mounts (vm-31 runs on host-21). */
    @BeforeEach
    void inventory() throws Exception {
        InventorySnapshot s = InMemoryInventorySource.sample("v-hardening");
        List<InventorySnapshot.DatastoreInfo> datastores = new ArrayList<>(s.datastores());
        datastores.add(InMemoryInventorySource.ds("datastore-14", "ds-d", "group-p1", 1000L << 30, 900L << 30));
        List<InventorySnapshot.HostInfo> hosts = List.of(s.hosts().get(0), new InventorySnapshot.HostInfo("host-22", "esx2",
                "datacenter-1", List.of("datastore-11", "datastore-12", "datastore-13", "datastore-14")));
        inventory.setSnapshot(new InventorySnapshot("v-hardening", s.datacenters(), s.clusters(), datastores, hosts, s.vms()));
        api().call(HttpMethod.POST, "/api/v1/inventory/sync?kind=full", null, 200);
    }

    AdminApi api() {
        return new AdminApi(rest);
    }

    Map<String, Object> state() {
        Map<String, Object> f = new TreeMap<>();
        for (String t : List.of("agent", "agent_host", "recommendation", "migration_action", "cluster_settings", "datastore")) {
            f.put(t, jdbc.queryForList("SELECT * FROM " + t).toString());
        }
        return f;
    }

    /** Sends the request, asserts a problem detail with the status and the field, and returns it. */
    JsonNode refused(HttpMethod method, String path, String body, int status, String field) throws Exception {
        Map<String, Object> before = state();
        JsonNode p = api().call(method, path, body, status);
        assertThat(p.path("field").asText()).as(method + " " + path + " " + body + " -> " + p).isEqualTo(field);
        assertThat(p.path("status").asInt()).isEqualTo(status);
        assertThat(p.toString()).as("no Java internals in " + p).doesNotContain("java.", "Jackson", "class ", "`");
        assertThat(state()).as("state after " + method + " " + path + " " + body).isEqualTo(before);
        return p;
    }

    // ------------------------------------------------------------------ references

    @Test
    void aMoveStaysInTheClusterItIsMadeIn() throws Exception {
        String create = "/api/v1/clusters/group-p1/recommendations";
        // ds-c (datastore-13) is in no cluster: applying this would take db's disk out of group-p1
        JsonNode out = refused(HttpMethod.POST, create, "{\"reasonCode\":\"balanceDatastoreIOLoad\",\"moves\":[{\"vmId\":\"vm-32\","
                + "\"diskKeys\":[2000],\"destinationDatastoreId\":\"datastore-13\"}]}", 400, "moves[0].destinationDatastoreId");
        assertThat(out.path("detail").asText()).contains("datastore-13 is in no datastore cluster, not in group-p1");
        // ds-d is in the pod but web's host esx1 does not mount it
        JsonNode unseen = refused(HttpMethod.POST, create, "{\"reasonCode\":\"balanceDatastoreIOLoad\",\"moves\":[{\"vmId\":\"vm-31\","
                + "\"diskKeys\":[2000],\"destinationDatastoreId\":\"datastore-14\"}]}", 400, "moves[0].destinationDatastoreId");
        assertThat(unseen.path("detail").asText()).contains("host host-21 of VM vm-31 does not mount datastore datastore-14");
        // the VM's own datastore
        refused(HttpMethod.POST, create, "{\"reasonCode\":\"balanceDatastoreIOLoad\",\"moves\":[{\"vmId\":\"vm-32\","
                + "\"destinationDatastoreId\":\"datastore-11\"}]}", 400, "moves[0].destinationDatastoreId");
        // the same move inside the pod is taken
        api().call(HttpMethod.POST, create, "{\"reasonCode\":\"balanceDatastoreIOLoad\",\"moves\":[{\"vmId\":\"vm-32\","
                + "\"diskKeys\":[2000],\"destinationDatastoreId\":\"datastore-12\"}]}", 201);
    }

    // ------------------------------------------------------------------ strict JSON

    @Test
    void noValueIsConvertedIntoAnotherKind() throws Exception {
        refused(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{\"enter\":1}", 400, "enter");
        refused(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{\"enter\":\"true\"}", 400, "enter");
        String settings = JSON.writeValueAsString(ServerIntegrationSuite.validSettings());
        refused(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings.replace("\"spaceThresholdPct\":85", "\"spaceThresholdPct\":\"90\""),
                400, "spaceThresholdPct");
        JsonNode fraction = refused(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings",
                settings.replace("\"spaceThresholdPct\":85", "\"spaceThresholdPct\":80.9"), 400, "spaceThresholdPct");
        assertThat(fraction.path("detail").asText()).isEqualTo("spaceThresholdPct: must be an integer");
        refused(HttpMethod.POST, "/api/v1/agents", "{\"agentId\":123}", 400, "agentId");
        refused(HttpMethod.POST, "/api/v1/clusters/group-p1/recommendations", "{\"reasonCode\":\"balanceDatastoreIOLoad\",\"moves\":[{"
                + "\"vmId\":\"vm-32\",\"diskKeys\":[2000.7],\"destinationDatastoreId\":\"datastore-12\"}]}", 400, "moves[0].diskKeys[0]");
    }

    @Test
    void duplicateKeysAndNullElementsAreProblemsNotServerErrors() throws Exception {
        JsonNode twice = refused(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{\"enter\":false,\"enter\":true}", 400, "enter");
        assertThat(twice.path("detail").asText()).isEqualTo("enter: is given twice; give each property once");
        refused(HttpMethod.POST, "/api/v1/clusters/group-p1/recommendations", "{\"reasonCode\":\"balanceDatastoreIOLoad\",\"moves\":[{"
                + "\"vmId\":\"vm-32\",\"vmId\":\"vm-31\",\"destinationDatastoreId\":\"datastore-12\"}]}", 400, "moves[0].vmId");
        String settings = JSON.writeValueAsString(ServerIntegrationSuite.validSettings());
        refused(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings.replace("{", "{\"vmOverrides\":[null],"), 400, "vmOverrides[0]");
        // a number no one means, which the parser refuses by its own limits: named as the body, without the parser's words
        refused(HttpMethod.POST, "/api/v1/datastores/ds-a/maintenance", "{\"enter\":" + "9".repeat(2000) + "}", 400, "body");
    }

    @Test
    void theErrorPageIsNotAnEndpoint() {
        ResponseEntity<String> r = api().rest().getForEntity("/error", String.class);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(403);
        assertThat(r.getHeaders().getContentType()).hasToString("application/problem+json");
    }

    // ------------------------------------------------------------------ identifiers

    @Test
    void namesAClientGivesFollowOneGrammar() throws Exception {
        for (String id : List.of("..", ".", "-rf", "a/b", "has space", "")) {
            refused(HttpMethod.POST, "/api/v1/agents", JSON.writeValueAsString(Map.of("agentId", id)), 400, "agentId");
        }
        String settings = JSON.writeValueAsString(ServerIntegrationSuite.validSettings());
        refused(HttpMethod.PUT, "/api/v1/clusters/group-p1/settings", settings.replace("{", "{\"serviceClasses\":[{\"id\":\"..\","
                + "\"deliveryBoundMs\":10,\"demandBoundIops\":100,\"demandBoundBytesPerSecond\":1000}],"), 400, "serviceClasses[0].id");
    }

    // ------------------------------------------------------------------ agents bound to hosts

    @Test
    void anAgentSpeaksOnlyForTheHostsItsCredentialIsBoundTo() throws Exception {
        String token = api().call(HttpMethod.POST, "/api/v1/agents", "{\"agentId\":\"esx1-agent\",\"hosts\":[\"esx1\"]}", 201)
                .path("token").asText();
        assertThat(api().call(HttpMethod.GET, "/api/v1/agents/esx1-agent", null, 200).path("boundHosts").toString())
                .isEqualTo("[\"esx1\"]");
        try (SimulatedAgent a = new SimulatedAgent("localhost", grpc.port(), token)) {
            RegisterResponse other = a.register("esx1-agent", "esx2", List.of("ds-a"));
            assertThat(other.getAccepted()).isFalse();
            assertThat(other.getReason()).isEqualTo("host 'esx2' is not a host this agent's credential is bound to [esx1]");
            assertThat(jdbc.queryForObject("SELECT host FROM agent WHERE agent_id = 'esx1-agent'", String.class)).isNull();
            assertThat(a.register("esx1-agent", "esx1", List.of("ds-a")).getAccepted()).isTrue();
            SimulatedAgent.Session s = a.openSession();
            s.send(AgentMessage.newBuilder().setSeq(1).setDiskStats(SimulatedAgent.batch("esx2", "vm", 2, List.of("ds-a"),
                    1_700_000_000_000L, new Random(1))).build());
            ServerMessage m = s.take(20_000);
            assertThat(m.getAck().getStatus()).isEqualTo(AckStatus.REJECTED);
            assertThat(m.getAck().getReason()).isEqualTo("disk_stats.host 'esx2' is not a host this agent's credential is bound to [esx1]");
            assertThat(jdbc.queryForObject("SELECT last_seq FROM agent WHERE agent_id = 'esx1-agent'", Long.class)).isZero();
        }
        // issued without hosts: bound to the host of its first registration
        String loose = api().call(HttpMethod.POST, "/api/v1/agents", "{\"agentId\":\"first-use\"}", 201).path("token").asText();
        try (SimulatedAgent a = new SimulatedAgent("localhost", grpc.port(), loose)) {
            assertThat(a.register("first-use", "esx2", List.of()).getAccepted()).isTrue();
            assertThat(a.register("first-use", "esx1", List.of()).getReason()).contains("'esx1' is not a host");
        }
    }

    // ------------------------------------------------------------------ cross-site requests

    @Test
    void aBrowserOnAnotherSiteCannotActThroughTheApi() throws Exception {
        api().call(HttpMethod.POST, "/api/v1/agents", "{\"agentId\":\"csrf-target\"}", 201);
        Map<String, Object> before = state();
        HttpHeaders form = new HttpHeaders();
        form.set("Content-Type", "application/x-www-form-urlencoded");
        ResponseEntity<String> r = api().rest().exchange("/api/v1/agents/csrf-target/revoke", HttpMethod.POST,
                new HttpEntity<>("x=1", form), String.class);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(415);
        assertThat(JSON.readTree(r.getBody()).path("field").asText()).isEqualTo("Content-Type");
        HttpHeaders crossSite = new HttpHeaders();
        crossSite.set("Sec-Fetch-Site", "cross-site");
        r = api().rest().exchange("/api/v1/agents/csrf-target/revoke", HttpMethod.POST, new HttpEntity<>(null, crossSite), String.class);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(403);
        assertThat(JSON.readTree(r.getBody()).path("field").asText()).isEqualTo("Sec-Fetch-Site");
        assertThat(state()).isEqualTo(before);
        // no challenge a browser would answer by remembering credentials
        ResponseEntity<String> anonymous = rest.getForEntity("/api/v1/clusters", String.class);
        assertThat(anonymous.getStatusCode().value()).isEqualTo(401);
        assertThat(anonymous.getHeaders().get("WWW-Authenticate")).isNull();
        assertThat(JSON.readTree(anonymous.getBody()).path("field").asText()).isEqualTo("Authorization");
        // a client that is not a browser revokes with a bodyless POST
        assertThat(api().rest().postForEntity("/api/v1/agents/csrf-target/revoke", null, String.class).getStatusCode().value()).isEqualTo(200);
    }

    /** The vSphere Client frames the plugin's pages; nothing may frame the rest. */
    @Test
    void onlyThePluginsPagesMayBeFramedAndOnlyByTheVSphereClient() {
        ResponseEntity<String> ui = rest.getForEntity("/ui/", String.class);
        assertThat(ui.getStatusCode().value()).isEqualTo(200);
        assertThat(ui.getHeaders().getFirst("Content-Security-Policy")).isEqualTo("frame-ancestors 'self' https://vc.example.com");
        assertThat(ui.getHeaders().get("X-Frame-Options")).isNull();
        ResponseEntity<String> api = api().rest().getForEntity("/api/v1/clusters", String.class);
        assertThat(api.getHeaders().getFirst("X-Frame-Options")).isEqualTo("DENY");
        assertThat(api.getHeaders().get("Content-Security-Policy")).isNull();
    }

    // ------------------------------------------------------------------ logins

    @Test
    void failedLoginsAreDelayedAndPasswordsAreHeldAsBcrypt() throws Exception {
        TestRestTemplate guess = rest.withBasicAuth("admin", "guess");
        for (int i = 0; i < 3; i++) {
            assertThat(guess.getForEntity("/api/v1/clusters", String.class).getStatusCode().value()).isEqualTo(401);
        }
        ResponseEntity<String> delayed = guess.getForEntity("/api/v1/clusters", String.class);
        assertThat(delayed.getStatusCode().value()).as(delayed.getBody()).isEqualTo(429);
        assertThat(delayed.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        // while delayed, even the right password is not checked
        assertThat(api().rest().getForEntity("/api/v1/clusters", String.class).getStatusCode().value()).isEqualTo(429);
        Thread.sleep(1_100);
        assertThat(api().rest().getForEntity("/api/v1/clusters", String.class).getStatusCode().value()).isEqualTo(200);

        assertThat(users.loadUserByUsername("admin").getPassword()).startsWith("{bcrypt}");
        Path generated = dataDir.resolve("operator.password");
        assertThat(Files.getPosixFilePermissions(generated)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String password = Files.readString(generated).strip();
        assertThat(rest.withBasicAuth("operator", password).getForEntity("/api/v1/clusters", String.class).getStatusCode().value())
                .isEqualTo(200);
    }

    // ------------------------------------------------------------------ generated bad bodies

    /**
     * A property test over the server's own OpenAPI document: for every operation that changes
     * something, bodies with one property made wrong — another JSON kind, a fraction for an integer,
     * a null in a list, a key twice, an unknown key, a value outside its documented range or pattern,
     * at the top level or inside a listed or nested object — and bodyless changes sent as a form.
     * Each must answer 4xx naming that property, in the API's words, and leave the state as it was.
     */
    @Test
    void generatedBadBodiesAreRefusedNamingTheFieldAndChangeNothing() throws Exception {
        JsonNode doc = api().call(HttpMethod.GET, "/v3/api-docs", null, 200);
        JsonNode schemas = doc.path("components").path("schemas");
        List<String[]> operations = new ArrayList<>();
        doc.path("paths").fields().forEachRemaining(p -> p.getValue().fields().forEachRemaining(op -> {
            if (List.of("post", "put", "patch", "delete").contains(op.getKey())) {
                String ref = op.getValue().at("/requestBody/content/application~1json/schema/$ref").asText("");
                operations.add(new String[]{op.getKey().toUpperCase(), concrete(p.getKey()), ref.replace("#/components/schemas/", "")});
            }
        }));
        assertThat(operations).as("mutating operations in the document").hasSizeGreaterThanOrEqualTo(10);
        long seed = 44;
        Random rnd = new Random(seed);
        int sent = 0;
        for (int i = 0; i < 240; i++) {
            String[] op = operations.get(rnd.nextInt(operations.size()));
            Map<String, Object> before = state();
            String body;
            String field;
            int status;
            if (op[2].isEmpty()) {
                HttpHeaders form = new HttpHeaders();
                form.set("Content-Type", rnd.nextBoolean() ? "application/x-www-form-urlencoded" : "text/plain");
                ResponseEntity<String> r = api().rest().exchange(op[1], HttpMethod.valueOf(op[0]), new HttpEntity<>("a=1", form), String.class);
                assertThat(r.getStatusCode().value()).as(seed + " " + op[0] + " " + op[1] + " as a form -> " + r.getBody()).isEqualTo(415);
                assertThat(JSON.readTree(r.getBody()).path("field").asText()).isEqualTo("Content-Type");
                assertThat(state()).as(op[0] + " " + op[1]).isEqualTo(before);
                sent++;
                continue;
            }
            String[] bad = badBody(schemas, op[2], rnd);
            if (bad == null) {
                continue;
            }
            body = bad[0];
            field = bad[1];
            JsonNode p = api().callAnyStatus(HttpMethod.valueOf(op[0]), op[1], body);
            String what = "seed " + seed + " #" + i + ": " + op[0] + " " + op[1] + " " + body + " -> " + p;
            assertThat(p.path("status").asInt()).as(what).isBetween(400, 499);
            List<String> named = new ArrayList<>();
            p.path("errors").forEach(e -> named.add(e.path("field").asText()));
            named.add(p.path("field").asText());
            assertThat(named).as(what).contains(field);
            assertThat(p.toString()).as(what).doesNotContain("java.", "Jackson", "class ", "`");
            assertThat(state()).as(what).isEqualTo(before);
            sent++;
        }
        assertThat(sent).isGreaterThan(200);
    }

    /** A path of the document with its variables filled by existing objects of the fixture's inventory. */
    static String concrete(String path) {
        return path.replace("{clusterId}", "group-p1").replace("{name}", "ds-a").replace("{agentId}", "fuzz-agent")
                .replace("{ruleId}", "vmAntiAffinity:x").replace("{id}", "1");
    }

    /** A body of the schema with one property made wrong, and the field the refusal must name; null if none can be. */
    static String[] badBody(JsonNode schemas, String schema, Random rnd) throws Exception {
        JsonNode props = schemas.path(schema).path("properties");
        List<String> names = new ArrayList<>();
        props.fieldNames().forEachRemaining(names::add);
        if (names.isEmpty()) {
            return null;
        }
        String name = names.get(rnd.nextInt(names.size()));
        JsonNode prop = props.path(name);
        String nestedRef = prop.path("$ref").asText(prop.path("items").path("$ref").asText(""));
        if (!nestedRef.isEmpty() && rnd.nextBoolean()) {
            String[] inner = badBody(schemas, nestedRef.replace("#/components/schemas/", ""), rnd);
            if (inner != null) {
                boolean list = prop.has("items");
                return new String[]{"{\"" + name + "\":" + (list ? "[" + inner[0] + "]" : inner[0]) + "}",
                        name + (list ? "[0]." : ".") + inner[1]};
            }
        }
        String type = typeOf(prop);
        List<String[]> choices = new ArrayList<>();
        choices.add(new String[]{"{\"" + name + "\":" + wrongKind(type, rnd) + "}", name});
        choices.add(new String[]{"{\"zzUnknown\":1}", "zzUnknown"});
        choices.add(new String[]{"{\"" + name + "\":" + sample(type) + ",\"" + name + "\":" + sample(type) + "}", name});
        if (type.equals("integer")) {
            choices.add(new String[]{"{\"" + name + "\":2.5}", name});
        }
        if (type.equals("array")) {
            choices.add(new String[]{"{\"" + name + "\":[null]}", name + "[0]"});
        }
        if (prop.has("maximum")) {
            choices.add(new String[]{"{\"" + name + "\":" + (prop.path("maximum").asLong() + 1) + "}", name});
        }
        if (prop.has("minimum") && type.equals("integer")) {
            choices.add(new String[]{"{\"" + name + "\":" + (prop.path("minimum").asLong() - 1) + "}", name});
        }
        if (prop.has("pattern")) {
            choices.add(new String[]{"{\"" + name + "\":\"~bad value~\"}", name});
        }
        return choices.get(rnd.nextInt(choices.size()));
    }

    static String typeOf(JsonNode prop) {
        JsonNode t = prop.path("type");
        if (t.isArray()) {
            for (JsonNode x : t) {
                if (!x.asText().equals("null")) {
                    return x.asText();
                }
            }
        }
        return t.isMissingNode() ? (prop.has("$ref") ? "object" : "string") : t.asText();
    }

    static String sample(String type) {
        return switch (type) {
            case "integer", "number" -> "1";
            case "boolean" -> "true";
            case "array" -> "[]";
            case "object" -> "{}";
            default -> "\"a\"";
        };
    }

    /** A JSON value of another kind than {@code type}, none of which the server may convert. */
    static String wrongKind(String type, Random rnd) {
        List<String> others = new ArrayList<>(switch (type) {
            case "integer" -> List.of("\"12\"", "true", "[1]", "{}");
            case "number" -> List.of("\"0.5\"", "false", "[]", "{}");
            case "boolean" -> List.of("1", "0", "\"true\"", "[]");
            case "array" -> List.of("\"a\"", "1", "{}", "true");
            case "object" -> List.of("\"a\"", "1", "[]", "true");
            default -> List.of("123", "1.5", "true", "[]", "{}");
        });
        return others.get(rnd.nextInt(others.size()));
    }
}
