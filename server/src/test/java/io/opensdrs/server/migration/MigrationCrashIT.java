package io.opensdrs.server.migration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.vsphere.VcsimProcess;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance 3: the server (the repackaged jar, its own process) is killed with kill -9 while
 * three storage vMotions run in our simulator, then restarted on the same H2 file: each
 * migration completes exactly once — one RelocateVM task per disk in the simulator's task
 * history — and ends verified.
 */
class MigrationCrashIT {

    static final List<String> VMS = List.of("c1", "c2", "c3");
    final ObjectMapper json = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();
    int httpPort;
    Path dataDir;
    VcsimProcess vcsim;

    static String world() {
        return "{\"datacenter\":\"DC0\",\"storagePods\":[{\"name\":\"POD0\",\"datastores\":[{\"name\":\"ds1\",\"capacityGB\":100},"
                + "{\"name\":\"ds2\",\"capacityGB\":100}]}],\"hosts\":[{\"name\":\"h1\",\"cluster\":\"C0\"},{\"name\":\"h2\",\"cluster\":\"C0\"},"
                + "{\"name\":\"h3\",\"cluster\":\"C0\"}],\"vms\":["
                + "{\"name\":\"c1\",\"host\":\"h1\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":8,\"datastore\":\"ds1\"}]},"
                + "{\"name\":\"c2\",\"host\":\"h2\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":8,\"datastore\":\"ds1\"}]},"
                + "{\"name\":\"c3\",\"host\":\"h3\",\"disks\":[{\"name\":\"disk1\",\"sizeGB\":8,\"datastore\":\"ds1\"}]}]}";
    }

    @Test
    void killDashNineWhileThreeMigrationsRunEachCompletesExactlyOnce() throws Exception {
        // 8 GiB at 256 MiB/s: 32 s per copy, longer than a server restart
        vcsim = FaithfulVcsim.start(world(), "crash", "-relocate-rate-mbps", "256", "-username", "sdrs", "-password", "sdrs-pass");
        Process server = null;
        try {
            dataDir = Files.createTempDirectory("sdrs-migration-crash-");
            httpPort = freePort();
            server = start("run1");
            syncInventory();
            String pod = null;
            for (JsonNode c : get("/api/v1/clusters")) {
                if ("POD0".equals(c.get("name").asText())) {
                    pod = c.get("id").asText();
                }
            }
            assertThat(pod).isNotNull();
            String ds2 = FaithfulVcsim.moid(vcsim, "s", "ds2");
            List<Long> recs = new ArrayList<>();
            for (String vm : VMS) {
                String body = json.writeValueAsString(Map.of("reasonCode", "balanceDatastoreSpaceUsage", "moves", List.of(Map.of(
                        "vmId", FaithfulVcsim.moid(vcsim, "m", vm), "diskKeys", FaithfulVcsim.diskKeys(vcsim, vm),
                        "destinationDatastoreId", ds2))));
                long id = post("/api/v1/clusters/" + pod + "/recommendations", body).get("id").asLong();
                post("/api/v1/recommendations/" + id + "/apply", "");
                recs.add(id);
            }
            long deadline = System.currentTimeMillis() + 30_000;
            while (running() < 3) {
                assertThat(System.currentTimeMillis()).as("3 migrations running").isLessThan(deadline);
                Thread.sleep(50);
            }
            server.destroyForcibly(); // SIGKILL: no shutdown hook, nothing flushed
            server.waitFor();
            for (String vm : VMS) {
                assertThat(FaithfulVcsim.relocationTasks(vcsim, FaithfulVcsim.moid(vcsim, "m", vm))).as(vm).isEqualTo(1);
                assertThat(FaithfulVcsim.diskFile(vcsim, vm, FaithfulVcsim.diskKeys(vcsim, vm).get(0))).as("still copying")
                        .isEqualTo("[ds1] " + vm + "/disk1.vmdk");
            }

            server = start("run2");
            for (long id : recs) {
                JsonNode r = awaitEnd(id);
                assertThat(r.get("state").asText()).as(r.toString()).isEqualTo("APPLIED");
                assertThat(r.at("/actions/0/attempt").asInt()).isEqualTo(1);
            }
            StringBuilder report = new StringBuilder();
            for (String vm : VMS) {
                String moid = FaithfulVcsim.moid(vcsim, "m", vm);
                long tasks = FaithfulVcsim.relocationTasks(vcsim, moid);
                String file = FaithfulVcsim.diskFile(vcsim, vm, FaithfulVcsim.diskKeys(vcsim, vm).get(0));
                assertThat(tasks).as("RelocateVM tasks of " + vm).isEqualTo(1);
                assertThat(file).isEqualTo("[ds2] " + vm + "/disk1.vmdk");
                report.append(String.format(" %s: %d RelocateVM task(s), disk now %s;", vm, tasks, file));
            }
            System.out.println("acceptance 3: killed with 3 running, restarted:" + report);
            server.destroy();
            server.waitFor();
        } finally {
            if (server != null && server.isAlive()) {
                server.destroyForcibly().waitFor();
            }
            vcsim.close();
        }
    }

    int running() throws Exception {
        int n = 0;
        for (JsonNode a : get("/api/v1/migrations").get("inFlight")) {
            if ("RUNNING".equals(a.get("state").asText())) {
                n++;
            }
        }
        return n;
    }

    void syncInventory() throws Exception {
        // the server's own first sync may be running; ask until one of ours succeeds
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/api/v1/inventory/sync?kind=full")).POST(HttpRequest.BodyPublishers.noBody()));
            if (r.statusCode() == 200) {
                return;
            }
            assertThat(System.currentTimeMillis()).as(r.body()).isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    JsonNode awaitEnd(long id) throws Exception {
        long deadline = System.currentTimeMillis() + 120_000;
        JsonNode r;
        do {
            Thread.sleep(250);
            r = get("/api/v1/recommendations/" + id);
        } while ("APPLYING".equals(r.get("state").asText()) && System.currentTimeMillis() < deadline);
        return r;
    }

    Process start(String name) throws Exception {
        String jar = System.getProperty("sdrs.server.jar", "target/sdrs-server.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = new File("target/migration-crash-" + name + ".log");
        Process p = new ProcessBuilder(java, "-Xmx512m", "-jar", jar,
                "--sdrs.data-dir=" + dataDir, "--server.port=" + httpPort, "--sdrs.grpc.port=0",
                "--sdrs.security.users[0].name=admin", "--sdrs.security.users[0].password=pw",
                "--sdrs.vcenter.url=" + vcsim.sdkUrl(), "--sdrs.vcenter.user=sdrs", "--sdrs.vcenter.password=sdrs-pass",
                "--sdrs.vcenter.insecure=true", "--sdrs.plugin.register=false", "--sdrs.migration.poll-interval=PT0.2S",
                "--sdrs.inventory.incremental-interval=PT1H")
                .redirectErrorStream(true).redirectOutput(log).start();
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            assertThat(p.isAlive()).as("server process alive, see " + log).isTrue();
            try {
                if (http.send(HttpRequest.newBuilder(uri("/actuator/health")).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return p;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        p.destroyForcibly();
        throw new AssertionError("server did not start, see " + log);
    }

    URI uri(String path) {
        return URI.create("http://localhost:" + httpPort + path);
    }

    JsonNode get(String path) throws Exception {
        return ok(send(HttpRequest.newBuilder(uri(path)).GET()));
    }

    JsonNode post(String path, String body) throws Exception {
        return ok(send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))));
    }

    JsonNode ok(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return json.readTree(r.body());
    }

    HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        String auth = Base64.getEncoder().encodeToString("admin:pw".getBytes(StandardCharsets.UTF_8));
        return http.send(b.header("Authorization", "Basic " + auth).build(), HttpResponse.BodyHandlers.ofString());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
