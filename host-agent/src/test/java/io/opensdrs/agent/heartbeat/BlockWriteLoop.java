package io.opensdrs.agent.heartbeat;

import java.nio.file.Path;

/**
 * Test helper process: writes slot 0 of a heartbeat file in a tight loop, every field of
 * write k derived from k, until it is killed. {@code TornWriteIT} kills it with SIGKILL at
 * random moments and checks that slot 0 is never a valid block with fields from two writes.
 */
public final class BlockWriteLoop {
    public static void main(String[] args) throws Exception {
        try (HeartbeatFile f = HeartbeatFile.open(Path.of(args[0]), 4)) {
            System.out.println("writing");
            System.out.flush();
            for (long k = 1; ; k++) {
                f.write(0, consistent(k));
            }
        }
    }

    static HeartbeatBlock consistent(long k) {
        return new HeartbeatBlock("loop-" + (k % 1000), k, k, k, k, (int) (k % 100000), false, k, k, k);
    }

    static boolean isConsistent(HeartbeatBlock b) {
        long k = b.generation();
        return b.equals(consistent(k));
    }
}
