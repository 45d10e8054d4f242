package io.opensdrs.server.vsphere;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * govmomi's tools at the pinned version, installed once from the Go module proxy into the
 * repository's {@code target/go-bin} (stock {@code vcsim} and {@code govc}, the independent
 * client every vSphere test checks its results with).
 */
public final class GoTool {
    static final String GOVMOMI_VERSION = "v0.46.3";

    private GoTool() {
    }

    public static Path repositoryRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("mvnw"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the repository root (no mvnw above " + Path.of("").toAbsolutePath() + ")");
        }
        return p;
    }

    /** The path of {@code govc} or stock {@code vcsim}, installing it with {@code go install} if missing. */
    public static synchronized Path binary(String tool) throws IOException, InterruptedException {
        Path bin = repositoryRoot().resolve("target/go-bin/" + GOVMOMI_VERSION);
        Path exe = bin.resolve(tool);
        if (Files.isExecutable(exe)) {
            return exe;
        }
        Files.createDirectories(bin);
        ProcessBuilder pb = new ProcessBuilder("go", "install", "github.com/vmware/govmomi/" + tool + "@" + GOVMOMI_VERSION)
                .redirectErrorStream(true)
                .redirectOutput(bin.resolve(tool + "-install.log").toFile());
        pb.environment().put("GOBIN", bin.toString());
        Process p = pb.start();
        if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("go install " + tool + "@" + GOVMOMI_VERSION + " failed; see "
                    + bin.resolve(tool + "-install.log") + ":\n" + Files.readString(bin.resolve(tool + "-install.log")));
        }
        return exe;
    }
}
