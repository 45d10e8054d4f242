package io.opensdrs.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * govmomi's own command-line client against the simulator: the independent check that what the
 * server says it did is what vCenter shows. Installed into {@code src-test/vcsim/.bin} with
 * {@code go install} when missing (the version the simulator pins).
 */
public final class Govc {
    private static final String VERSION = "v0.46.3";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path binary;
    private final String url;

    public Govc(Path repositoryRoot, String url) throws IOException, InterruptedException {
        this.binary = install(repositoryRoot.resolve("src-test/vcsim/.bin/govc"));
        this.url = url;
    }

    private static Path install(Path govc) throws IOException, InterruptedException {
        if (Files.isExecutable(govc)) {
            return govc;
        }
        ProcessBuilder pb = new ProcessBuilder("go", "install", "github.com/vmware/govmomi/govc@" + VERSION)
                .redirectErrorStream(true);
        pb.environment().put("GOBIN", govc.getParent().toAbsolutePath().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("go install govc@" + VERSION + " failed:\n" + out);
        }
        return govc;
    }

    /** Runs govc with the arguments and returns its standard output. */
    public String run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("GOVC_URL", url);
        pb.environment().put("GOVC_INSECURE", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("govc " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    public JsonNode json(String... args) throws IOException, InterruptedException {
        List<String> a = new ArrayList<>();
        a.add(args[0]);
        a.add("-json");
        a.addAll(List.of(args).subList(1, args.length));
        return JSON.readTree(run(a.toArray(String[]::new)));
    }

    /** The datastore name each disk of a VM is on now, by disk label order ("[ds] vm/disk.vmdk" → ds). */
    public List<String> diskFiles(String vm) throws IOException, InterruptedException {
        List<String> files = new ArrayList<>();
        for (String line : run("device.info", "-vm", vm, "disk-*").lines().toList()) {
            String t = line.trim();
            if (t.startsWith("File:")) {
                files.add(t.substring("File:".length()).trim());
            }
        }
        return files;
    }

    /**
     * RelocateVM tasks vCenter has recorded for one VM (managed-object id), whatever their outcome: read through a
     * task history collector ({@code tasks -r}, one JSON document per page), since the recent-task view keeps only a
     * bounded window of tasks.
     */
    public long relocateTasks(String vmMoid) throws IOException, InterruptedException {
        long n = 0;
        try (var pages = JSON.readerFor(JsonNode.class).<JsonNode>readValues(run("tasks", "-json", "-r", "-b", "240h", "-n", "1000"))) {
            while (pages.hasNext()) {
                for (JsonNode t : pages.next().path("tasks")) {
                    if (t.path("descriptionId").asText().startsWith("VirtualMachine.relocate")
                            && vmMoid.equals(t.at("/entity/value").asText())) {
                        n++;
                    }
                }
            }
        }
        return n;
    }
}
