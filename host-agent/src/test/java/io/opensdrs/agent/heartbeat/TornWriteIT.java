package io.opensdrs.agent.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acceptance 1: a process killed in the middle of block writes never leaves a block that validates with mixed content. */
class TornWriteIT {

    @TempDir
    Path dir;

    @Test
    void killDuringWritesNeverLeavesAValidMixedBlock() throws Exception {
        int valid = 0;
        int invalid = 0;
        for (int round = 0; round < 8; round++) {
            java.nio.file.Files.deleteIfExists(dir.resolve(HeartbeatFile.FILE_NAME));
            try (AgentProcesses procs = new AgentProcesses()) {
                Process p = procs.start(BlockWriteLoop.class.getName(), dir.toString());
                long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (procs.processes.get(0).isAlive() && System.nanoTime() < end) {
                    // wait until it has started writing
                    try (HeartbeatFile f = HeartbeatFile.open(dir, 4)) {
                        if (f.read(0).state() != HeartbeatBlock.State.EMPTY) {
                            break;
                        }
                    }
                    Thread.sleep(10);
                }
                Thread.sleep(ThreadLocalRandom.current().nextInt(5, 150));
                p.destroyForcibly();
                p.waitFor();
            }
            try (HeartbeatFile f = HeartbeatFile.open(dir, 4)) {
                HeartbeatBlock.Decoded d = f.read(0);
                if (d.valid()) {
                    valid++;
                    assertThat(BlockWriteLoop.isConsistent(d.block())).as("round %d: %s", round, d.block()).isTrue();
                } else {
                    invalid++;
                }
            }
        }
        System.out.println("torn-write kill loop: " + valid + " valid consistent blocks, " + invalid + " rejected blocks");
    }
}
