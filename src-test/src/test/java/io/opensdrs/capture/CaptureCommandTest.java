package io.opensdrs.capture;

import com.sun.net.httpserver.HttpServer;
import io.opensdrs.cli.SdrsRun;
import io.opensdrs.scenario.PhaseSpec;
import io.opensdrs.scenario.RuleSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioLoader;
import io.opensdrs.scenario.VmSpec;
import io.opensdrs.scenario.WorkloadSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code sdrs capture} against a stand-in server on loopback that answers the capture endpoint with
 * a canned capture (HTTP Basic checked): the scenario written loads, names fit the format, workloads
 * and phases follow the measured hours, devices are chosen, rules carried over, and the check runs.
 */
class CaptureCommandTest {

    static final String PASSWORD = "s3cret pass";
    HttpServer server;
    final AtomicInteger captures = new AtomicInteger();

    @BeforeEach
    void serve() throws IOException {
        byte[] capture;
        try (InputStream in = CaptureCommandTest.class.getResourceAsStream("capture-pod1.json")) {
            capture = in.readAllBytes();
        }
        byte[] clusters = "[{\"id\":\"group-p1\",\"name\":\"pod1\"},{\"id\":\"group-p2\",\"name\":\"pod2\"}]".getBytes(StandardCharsets.UTF_8);
        String expected = "Basic " + Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/v1/clusters", x -> {
            byte[] body;
            int status = 200;
            if (!expected.equals(x.getRequestHeaders().getFirst("Authorization"))) {
                status = 401;
                body = "{\"title\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8);
            } else if (x.getRequestURI().getPath().equals("/api/v1/clusters")) {
                body = clusters;
            } else if (x.getRequestURI().getPath().equals("/api/v1/clusters/group-p1/capture")) {
                captures.incrementAndGet();
                body = capture;
            } else {
                status = 404;
                body = "{}".getBytes(StandardCharsets.UTF_8);
            }
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(status, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void writesAScenarioTheLoaderAcceptsWithDevicesWorkloadsPhasesAndRules(@TempDir Path dir) throws Exception {
        Path pw = Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
        Path out = dir.resolve("sub/pod1.json");
        SdrsRun r = SdrsRun.of("capture", "--server", url(), "--cluster", "pod1", "--out", out.toString(), "--password-file",
                pw.toString(), "--probe-ios", "200", "--threads", "2", "--check-hours", "0.1");
        System.out.println(r.out());
        System.out.println(r.err());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(captures.get()).isEqualTo(1);
        Scenario s = ScenarioLoader.load(out);
        assertThat(s.name()).isEqualTo("capture-pod1");
        assertThat(s.hours()).isEqualTo(24.0);
        assertThat(s.datastoreClusters()).hasSize(1);
        assertThat(s.datastoreClusters().get(0).name()).isEqualTo("pod1");
        assertThat(s.datastoreClusters().get(0).datastores()).containsExactly("ds-a", "ds-b");
        assertThat(s.datastore("ds-a").orElseThrow().capacityGB()).isEqualTo(1024.0);
        assertThat(s.description()).contains("ds-a = ").contains("ds-b = ").contains("line within");
        assertThat(s.hosts()).extracting(h -> h.name()).containsExactly("esx1", "esx2");

        VmSpec web = s.vms().stream().filter(v -> v.name().equals("web")).findFirst().orElseThrow();
        assertThat(web.host()).isEqualTo("esx1");
        WorkloadSpec w = web.disks().get(0).workload();
        assertThat(w.oio()).isEqualTo(4.0);
        // hours 10 and 11 alike: one phase; hour 14 another; no phase for the hours without windows
        List<PhaseSpec> phases = w.phases();
        assertThat(phases).hasSize(2);
        assertThat(phases.get(0).fromHour()).isEqualTo(10);
        assertThat(phases.get(0).toHour()).isEqualTo(12);
        assertThat(phases.get(0).oio()).isEqualTo(2.0);
        assertThat(phases.get(0).ioSizeKB()).isEqualTo(8.0);
        assertThat(phases.get(1).fromHour()).isEqualTo(14);
        assertThat(phases.get(1).toHour()).isEqualTo(15);
        assertThat(phases.get(1).oio()).isEqualTo(8.0);
        assertThat(phases.get(1).randomPct()).isEqualTo(10.0);
        assertThat(w.at(3).oio()).isEqualTo(4.0);
        // web_1 did no IO: idle all day
        WorkloadSpec idle = web.disks().get(1).workload();
        assertThat(idle.at(12).oio()).isZero();
        // "db 1": no host in the capture, placed on one that mounts its datastore; 0.4 OIO at 40 IOPS and 10 ms is one
        // IO in the loop with a 15-ms think time
        VmSpec db = s.vms().stream().filter(v -> v.name().equals("db-1")).findFirst().orElseThrow();
        assertThat(db.host()).isEqualTo("esx1");
        WorkloadSpec dw = db.disks().get(0).workload();
        assertThat(dw.oio()).isEqualTo(1.0);
        assertThat(dw.thinkTimeMs()).isCloseTo(15.0, within(0.01));
        assertThat(dw.phases()).isEmpty();
        assertThat(db.disks().get(0).thin()).isTrue(); // 200 GB on a 100-GB datastore
        assertThat(s.rules()).hasSize(3);
        assertThat(s.rules().get(0)).isEqualTo(new RuleSpec.VmAntiAffinity("apart", List.of("web", "db-1")));
        assertThat(s.rules().get(1)).isEqualTo(new RuleSpec.VmdkAntiAffinity("web-disks-apart", "web", List.of("web", "web_1")));
        assertThat(s.rules().get(2)).isEqualTo(new RuleSpec.KeepTogether("keep-together-web", "web", false));

        assertThat(r.out()).contains("wrote " + out).contains("testbed run of the captured scenario").contains("server: a note from the server");
        assertThat(r.out()).containsPattern("ds-a\\s+35\\.90");
    }

    @Test
    void noPasswordIsAUserErrorAndAWrongOneTheServersRefusal(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("x.json");
        if (System.getenv("SDRS_ADMIN_PASSWORD") == null) {
            SdrsRun none = SdrsRun.of("capture", "--server", url(), "--cluster", "pod1", "--out", out.toString());
            assertThat(none.exit()).isEqualTo(2);
            assertThat(none.err()).contains("--password-file").contains("SDRS_ADMIN_PASSWORD");
        }

        Path pw = Files.writeString(dir.resolve("pw"), "wrong");
        SdrsRun wrong = SdrsRun.of("capture", "--server", url(), "--cluster", "pod1", "--out", out.toString(), "--password-file", pw.toString());
        assertThat(wrong.exit()).isEqualTo(1);
        assertThat(wrong.err()).contains("HTTP 401");

        Path good = Files.writeString(dir.resolve("pw2"), PASSWORD);
        SdrsRun unknown = SdrsRun.of("capture", "--server", url(), "--cluster", "pod9", "--out", out.toString(), "--password-file",
                good.toString());
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("no datastore cluster 'pod9'").contains("pod1, pod2");
        assertThat(out).doesNotExist();
    }
}
