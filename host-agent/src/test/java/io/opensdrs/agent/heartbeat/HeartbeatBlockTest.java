package io.opensdrs.agent.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeartbeatBlockTest {

    static HeartbeatBlock block(String host, long gen, long beat) {
        return new HeartbeatBlock(host, gen, beat, 1_700_000_000_000L + beat, 42L, 4000, false, beat * 3, 0.25, 1.5);
    }

    @Test
    void roundTripsEveryField() {
        HeartbeatBlock b = block("esx-01.lab", 7, 123);
        byte[] bytes = b.toBytes();
        assertThat(bytes).hasSize(512);
        HeartbeatBlock.Decoded d = HeartbeatBlock.decode(bytes, 0);
        assertThat(d.state()).isEqualTo(HeartbeatBlock.State.VALID);
        assertThat(d.block()).isEqualTo(b);
        assertThat(HeartbeatBlock.decode(b.asReleased(5).toBytes(), 0).block().released()).isTrue();
    }

    @Test
    void allZeroIsEmpty() {
        assertThat(HeartbeatBlock.decode(new byte[512], 0).state()).isEqualTo(HeartbeatBlock.State.EMPTY);
    }

    @Test
    void tornBlockFirstHalfNewSecondHalfOldIsRejected() {
        byte[] old = block("esx-01", 1, 10).toBytes();
        // The new block differs only in its first half (heartbeat, timestamp) and its checksum:
        // exactly the case where a crash after 256 bytes leaves plausible-looking fields.
        byte[] fresh = block("esx-01", 1, 11).toBytes();
        for (int cut : new int[] {8, 64, 256, 500, 508}) {
            byte[] torn = old.clone();
            System.arraycopy(fresh, 0, torn, 0, cut);
            HeartbeatBlock.Decoded d = HeartbeatBlock.decode(torn, 0);
            if (java.util.Arrays.equals(torn, old)) {
                // The new bytes before the cut equal the old ones: this is simply the old block.
                assertThat(d.block()).isEqualTo(block("esx-01", 1, 10));
            } else {
                assertThat(d.state()).as("cut at %d", cut).isEqualTo(HeartbeatBlock.State.INVALID);
            }
        }
        // ...and the other way round: second half new, first half old.
        byte[] torn = fresh.clone();
        System.arraycopy(old, 0, torn, 0, 256);
        assertThat(HeartbeatBlock.decode(torn, 0).state()).isEqualTo(HeartbeatBlock.State.INVALID);
    }

    @Test
    void anySingleBitFlipIsRejected() {
        byte[] good = block("esx-02", 3, 99).toBytes();
        for (int i = 0; i < 512; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            assertThat(HeartbeatBlock.decode(bad, 0).valid()).as("byte %d", i).isFalse();
        }
    }

    @Test
    void fileWritesAndReadsSlotsAtTheirOffsets(@TempDir Path dir) throws Exception {
        try (HeartbeatFile f = HeartbeatFile.open(dir, 8)) {
            f.write(3, block("h3", 1, 1));
            assertThat(f.readAll()).hasSize(8);
            assertThat(f.readAll().get(3).block().hostId()).isEqualTo("h3");
            assertThat(f.read(2).state()).isEqualTo(HeartbeatBlock.State.EMPTY);
            assertThat(f.read(7).state()).isEqualTo(HeartbeatBlock.State.EMPTY); // beyond end of file
            assertThat(java.nio.file.Files.size(f.path())).isEqualTo(4 * 512);
        }
    }
}
