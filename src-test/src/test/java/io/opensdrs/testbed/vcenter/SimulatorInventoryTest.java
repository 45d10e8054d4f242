package io.opensdrs.testbed.vcenter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.scenario.VmSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped demo world, converted and loaded by our simulator as a separate process, is
 * the same world seen from vCenter: checked with govc.
 */
class SimulatorInventoryTest {
    private static final Pattern URL = Pattern.compile("VCSIM_URL=(\\S+)");

    @Test
    void theDemoWorldLoadsIntoTheSimulatorAsTheSameWorld(@TempDir Path dir) throws Exception {
        Scenario shipped = ScenarioCatalog.example("demo");
        // gold-web2 given 3 GB of memory, as a scenario may: it runs, so its home holds a swap file that size
        Scenario demo = new Scenario(shipped.name(), shipped.description(), shipped.seed(), shipped.hours(), shipped.datastoreClusters(),
                shipped.datastores(), shipped.hosts(), shipped.vms().stream().map(v -> v.name().equals("gold-web2")
                        ? new VmSpec(v.name(), v.host(), v.automation(), v.keepTogether(), v.disks(), 3072) : v).toList(),
                shipped.rules(), shipped.events());
        Path inv = SimulatorInventory.write(demo, "DC0", dir.resolve("inventory.json"));

        Path vcsim = Path.of("vcsim/target/vcsim").toAbsolutePath();
        assertThat(vcsim).as("built by the compile phase (vcsim/build.sh)").isExecutable();
        Path log = dir.resolve("vcsim.log");
        Files.createDirectories(dir.resolve("datastores"));
        Process p = new ProcessBuilder(vcsim.toString(), "-l", "127.0.0.1:0", "-inventory", inv.toString(),
                "-ds-root", dir.resolve("datastores").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String url = awaitUrl(p, log);
            String vms = govc(url, "find", "/", "-type", "m");
            assertThat(vms.lines().map(l -> l.substring(l.lastIndexOf('/') + 1)).toList())
                    .containsExactlyInAnyOrderElementsOf(demo.vms().stream().map(v -> v.name()).toList());
            assertThat(govc(url, "ls", "/DC0/datastore/gold")).contains("gold-7k1").contains("gold-ssd1");
            assertThat(govc(url, "ls", "/DC0/datastore/silver")).contains("silver-10k1");
            String disks = govc(url, "device.info", "-vm", "gold-oltp1", "disk-*");
            assertThat(disks).contains("[gold-7k1] gold-oltp1/data.vmdk").contains("[gold-7k1] gold-oltp1/system.vmdk");
            assertThat(govc(url, "object.collect", "-s", "/DC0/vm/gold-web2", "config.hardware.memoryMB").strip()).isEqualTo("3072");
            long swap = 0;
            for (JsonNode f : new ObjectMapper().readTree(govc(url, "object.collect", "-json", "/DC0/vm/gold-web2", "layoutEx")).at("/0/val/file")) {
                swap += f.get("type").asText().equals("swap") ? f.get("size").asLong() : 0;
            }
            assertThat(swap).as("gold-web2's swap file").isEqualTo(3072L << 20);
            assertThat(govc(url, "object.collect", "-s", "/DC0/vm/gold-oltp1", "config.hardware.memoryMB").strip())
                    .as("not given: the simulator's default").isEqualTo("32");

            // the scenario's rules are made in vCenter, on the VMs' datastore cluster
            assertThat(SimulatorStorageDrs.commands(demo)).containsExactly(
                    List.of("-pod", "gold", "-vm-anti-affinity", "oltp-apart=gold-oltp1,gold-oltp5"));
            SimulatorStorageDrs.apply(vcsim, url, demo);
            String pod = govc(url, "find", "-i", "/", "-type", "StoragePod", "-name", "gold").strip();
            JsonNode rule = new ObjectMapper().readTree(govc(url, "object.collect", "-json", pod,
                    "podStorageDrsEntry.storageDrsConfig")).at("/0/val/podConfig/rule/0");
            assertThat(rule.get("name").asText()).isEqualTo("oltp-apart");
            List<String> held = new ArrayList<>();
            rule.get("vm").forEach(v -> held.add(v.get("value").asText()));
            String oltp1 = govc(url, "find", "-i", "/", "-type", "m", "-name", "gold-oltp1").strip().replace("VirtualMachine:", "");
            String oltp5 = govc(url, "find", "-i", "/", "-type", "m", "-name", "gold-oltp5").strip().replace("VirtualMachine:", "");
            assertThat(held).containsExactlyInAnyOrder(oltp1, oltp5);
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static String awaitUrl(Process p, Path log) throws Exception {
        for (int i = 0; i < 600; i++) {
            Matcher m = URL.matcher(Files.readString(log));
            if (m.find()) {
                return m.group(1);
            }
            assertThat(p.isAlive()).as("simulator running: %s", Files.readString(log)).isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("simulator printed no URL:\n" + Files.readString(log));
    }

    private static String govc(String url, String... args) throws IOException, InterruptedException {
        Path govc = Path.of("vcsim/.bin/govc").toAbsolutePath();
        if (!Files.isExecutable(govc)) {
            ProcessBuilder install = new ProcessBuilder("go", "install", "github.com/vmware/govmomi/govc@v0.46.3")
                    .redirectErrorStream(true);
            install.environment().put("GOBIN", govc.getParent().toString());
            Process ip = install.start();
            ip.getInputStream().readAllBytes();
            assertThat(ip.waitFor()).as("go install govc").isZero();
        }
        List<String> cmd = new ArrayList<>(List.of(govc.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("GOVC_URL", url);
        pb.environment().put("GOVC_INSECURE", "1");
        Process g = pb.start();
        String out = new String(g.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(g.waitFor()).as("govc %s: %s", String.join(" ", args), out).isZero();
        return out;
    }
}
