package io.opensdrs.server.migration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opensdrs.server.vsphere.GoTool;
import io.opensdrs.server.vsphere.VcsimProcess;

import org.springframework.test.context.DynamicPropertyRegistry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Our simulator (src-test/vcsim, faithful storage vMotion), built if missing, and govc reads against it. */
public final class FaithfulVcsim {
    static final ObjectMapper JSON = new ObjectMapper();

    private FaithfulVcsim() {
    }

    public static Path binary() throws IOException, InterruptedException {
        Path root = GoTool.repositoryRoot();
        Path exe = root.resolve("src-test/vcsim/target/vcsim");
        if (!Files.isExecutable(exe)) {
            Process p = new ProcessBuilder("bash", "src-test/vcsim/build.sh").directory(root.toFile()).inheritIO().start();
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("bash src-test/vcsim/build.sh failed");
            }
        }
        return exe;
    }

    /** Starts it on a world file written under target/. */
    public static VcsimProcess start(String worldJson, String name, String... flags) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(Path.of("target", "vcsim-worlds"));
        Path world = dir.resolve(name + ".json");
        Files.writeString(world, worldJson);
        Path dsRoot = Files.createTempDirectory(dir.toAbsolutePath(), name + "-ds-");
        List<String> f = new ArrayList<>(List.of("-inventory", world.toString(), "-ds-root", dsRoot.toString()));
        f.addAll(List.of(flags));
        return VcsimProcess.start(binary(), f.toArray(String[]::new));
    }

    /** The credentials the simulators of the server's tests are started with ({@code -username}, {@code -password}). */
    public static final String USER = "sdrs";
    public static final String PASSWORD = "sdrs-pass";

    /**
     * Points the server under test at this simulator (started with {@link #USER} and
     * {@link #PASSWORD}): a data directory of its own and the password in a file, as in production.
     *
     * @return the password file
     */
    public static Path registerAsVCenter(DynamicPropertyRegistry r, VcsimProcess vcsim, String name) throws IOException {
        Path dir = Files.createTempDirectory("sdrs-" + name + "-");
        Path passwordFile = dir.resolve("vcenter-password");
        Files.writeString(passwordFile, PASSWORD);
        r.add("sdrs.data-dir", dir::toString);
        r.add("sdrs.vcenter.url", () -> vcsim.sdkUrl().toString());
        r.add("sdrs.vcenter.user", () -> USER);
        r.add("sdrs.vcenter.password-file", passwordFile::toString);
        r.add("sdrs.vcenter.insecure", () -> "true");
        return passwordFile;
    }

    /** "[ds2] vm1/disk1.vmdk" of the disk with this key. */
    public static String diskFile(VcsimProcess vcsim, String vm, int key) throws Exception {
        for (JsonNode d : JSON.readTree(vcsim.govc("device.info", "-json", "-vm", vm, "disk-*")).get("devices")) {
            if (d.get("key").asInt() == key) {
                return d.at("/backing/fileName").asText();
            }
        }
        throw new AssertionError("no disk " + key + " on " + vm);
    }

    public static List<Integer> diskKeys(VcsimProcess vcsim, String vm) throws Exception {
        List<Integer> keys = new ArrayList<>();
        for (JsonNode d : JSON.readTree(vcsim.govc("device.info", "-json", "-vm", vm, "disk-*")).get("devices")) {
            keys.add(d.get("key").asInt());
        }
        return keys;
    }

    public static long freeSpace(VcsimProcess vcsim, String ds) throws Exception {
        return JSON.readTree(vcsim.govc("datastore.info", "-json", ds)).at("/datastores/0/summary/freeSpace").asLong();
    }

    public static String url(VcsimProcess vcsim, String ds) throws Exception {
        return JSON.readTree(vcsim.govc("datastore.info", "-json", ds)).at("/datastores/0/summary/url").asText();
    }

    /** Where vCenter holds the VM's home, read with govc: its configuration file, "[ds1] d/d.vmx". */
    public static String vmPath(VcsimProcess vcsim, String vm) throws Exception {
        return JSON.readTree(vcsim.govc("vm.info", "-json", vm)).at("/virtualMachines/0/summary/config/vmPathName").asText();
    }

    public static String moid(VcsimProcess vcsim, String type, String name) throws Exception {
        String ref = vcsim.govc("find", "-i", "/", "-type", type, "-name", name).strip();
        if (ref.isEmpty() || ref.contains("\n")) {
            throw new AssertionError("govc find " + type + " " + name + ": " + ref);
        }
        return ref.substring(ref.indexOf(':') + 1);
    }

    /** The VM's files on its home datastore that are not disk data (configuration, logs, swap), as govc reads vm.layoutEx. */
    public static long homeBytes(VcsimProcess vcsim, String vm) throws Exception {
        String path = vmPath(vcsim, vm);
        String home = path.substring(0, path.indexOf(']') + 1);
        long bytes = 0;
        for (JsonNode f : JSON.readTree(vcsim.govc("object.collect", "-json", "VirtualMachine:" + moid(vcsim, "m", vm), "layoutEx"))
                .at("/0/val/file")) {
            if (f.get("name").asText().startsWith(home + " ") && !f.get("type").asText().startsWith("disk")) {
                bytes += f.path("size").asLong();
            }
        }
        return bytes;
    }

    /** The VM's swap file as vCenter lists it in vm.layoutEx, read with govc: "[ds1] d/d-1a2b3c4d.vswp"; null when it has none. */
    public static String swapFile(VcsimProcess vcsim, String vm) throws Exception {
        for (JsonNode f : JSON.readTree(vcsim.govc("object.collect", "-json", "VirtualMachine:" + moid(vcsim, "m", vm), "layoutEx"))
                .at("/0/val/file")) {
            if (f.path("type").asText().equals("swap")) {
                return f.get("name").asText();
            }
        }
        return null;
    }

    /**
     * How many RelocateVM tasks the simulator's task history holds for a VM. Read through a task history collector
     * ({@code govc tasks -r}: one JSON document per page), not the recent-task view, which keeps a bounded window and
     * stopped showing a new relocation once a test had made a few hundred tasks.
     */
    public static long relocationTasks(VcsimProcess vcsim, String vmMoid) throws Exception {
        long n = 0;
        try (var pages = JSON.readerFor(JsonNode.class).<JsonNode>readValues(vcsim.govc("tasks", "-json", "-r", "-b", "240h", "-n", "1000"))) {
            while (pages.hasNext()) {
                for (JsonNode t : pages.next().path("tasks")) {
                    if (t.path("descriptionId").asText().startsWith("VirtualMachine.relocate") && vmMoid.equals(t.at("/entity/value").asText())) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    /** Runs {@code vcsim sdrs-rule ARGS} (the pod's Storage DRS rules; govc has no command for them) against this simulator. */
    public static String sdrsRule(VcsimProcess vcsim, String... args) throws IOException, InterruptedException {
        List<String> a = new ArrayList<>(List.of("sdrs-rule"));
        a.addAll(List.of(args));
        return vcsim.client(binary(), a.toArray(String[]::new));
    }
}
