package io.opensdrs.testbed.device;

import io.opensdrs.scenario.DeviceSpec;
import io.opensdrs.testbed.sim.Simulation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DevicePhysicsTest {

    private static double oneIo(StorageDevice d, Simulation sim, long offset, int size, boolean read) {
        List<IoRequest> done = new ArrayList<>();
        IoRequest io = new IoRequest(offset, size, read, done::add);
        io.submittedAt(sim.now());
        d.submit(io);
        sim.runUntil(sim.now() + 10_000);
        assertThat(done).hasSize(1);
        return io.latencyMs();
    }

    @Test
    void thinLunAnswersUnallocatedReadsWithZerosFast() {
        Simulation sim = new Simulation();
        StorageDevice disk = DeviceProfiles.build(sim, DeviceProfiles.get(DeviceProfiles.HGST_7K2), 100L << 30, 1);
        ThinProvisionedLun thin = new ThinProvisionedLun(sim, disk);
        thin.allocate(0, 1L << 30);
        IoRequest zero = new IoRequest(50L << 30, 4096, true, r -> { });
        zero.submittedAt(0);
        thin.submit(zero);
        sim.runUntil(1000);
        assertThat(zero.zeroFilled()).isTrue();
        assertThat(zero.latencyMs()).isLessThan(1.0);
        double allocatedRead = oneIo(thin, sim, 12345 * 4096L, 4096, true);
        assertThat(allocatedRead).isGreaterThan(3.0); // a real seek and rotation
    }

    @Test
    void raid5SmallWriteWithoutCachePaysReadModifyWrite() {
        Simulation sim = new Simulation();
        HddArrayProfile base = (HddArrayProfile) DeviceProfiles.get(DeviceProfiles.IBM_M1015_RAID5);
        StorageDevice array = DeviceProfiles.build(sim, base, 100L << 30, 3);
        double read = 0;
        double write = 0;
        for (int i = 0; i < 50; i++) {
            read += oneIo(array, sim, (long) (i * 7919L % 20000) * 1_000_000L, 4096, true);
            write += oneIo(array, sim, (long) (i * 104729L % 20000) * 1_000_000L + 4096, 4096, false);
        }
        // Two dependent disk phases (read old data and parity, then write both).
        assertThat(write / read).isGreaterThan(1.6);
    }

    @Test
    void writeBackCacheAcknowledgesWritesAtControllerSpeed() {
        Simulation sim = new Simulation();
        DeviceProfile p = DeviceProfiles.resolve(new DeviceSpec.HddArray(null, 6, 15000, "raid5", 64, 0.0, 512.0, true));
        StorageDevice array = DeviceProfiles.build(sim, p, 100L << 30, 3);
        assertThat(oneIo(array, sim, 1L << 30, 8192, false)).isLessThan(0.5);
    }

    @Test
    void scenarioFieldsOverrideTheNamedProfile() {
        DeviceProfile p = DeviceProfiles.resolve(new DeviceSpec.HddArray("ibm-m1015-8x2tb-raid5", 6, 10000, "raid6",
                null, null, null, null));
        assertThat(p).isInstanceOf(HddArrayProfile.class);
        HddArrayProfile h = (HddArrayProfile) p;
        assertThat(h.disks()).isEqualTo(6);
        assertThat(h.raid()).isEqualTo(RaidLevel.RAID6);
        assertThat(h.mechanics().rpm()).isEqualTo(10000);
        assertThatThrownBy(() -> DeviceProfiles.resolve(new DeviceSpec.Ssd("hgst-7k2", null, null, null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an ssd");
        assertThatThrownBy(() -> DeviceProfiles.resolve(new DeviceSpec.HddArray(null, 2, null, "raid5", null, null, null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 3");
    }

    @Test
    void ssdFullWriteCacheMakesWritesWaitForAmplifiedProgramming() {
        Simulation sim = new Simulation();
        SsdProfile small = new SsdProfile("t", 2, 5, 550, 30, 200, 400, 1, 4.0);
        SsdDevice ssd = new SsdDevice(sim, small, 10L << 30);
        List<IoRequest> done = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            IoRequest io = new IoRequest(i * 65536L, 65536, false, done::add);
            io.submittedAt(0);
            ssd.submit(io);
        }
        sim.runUntil(100_000);
        assertThat(done).hasSize(2000);
        double first = done.get(0).latencyMs();
        double last = done.get(done.size() - 1).latencyMs();
        assertThat(last).isGreaterThan(20 * first);
    }

    /** A closed-loop stream for mixing tests: OIO, IO size, read or write, sequential or random. */
    private static final class Stream {
        final StorageDevice device;
        final Simulation sim;
        final int size;
        final boolean read;
        final boolean sequential;
        final java.util.SplittableRandom rng;
        long next;
        int completed;
        double maxLatencyMs;
        double totalLatencyMs;

        Stream(StorageDevice device, Simulation sim, int oio, int size, boolean read, boolean sequential, long seed) {
            this.device = device;
            this.sim = sim;
            this.size = size;
            this.read = read;
            this.sequential = sequential;
            this.rng = new java.util.SplittableRandom(seed);
            this.next = (device.capacityBytes() / 3) / size * size;
            for (int i = 0; i < oio; i++) {
                issue();
            }
        }

        private void issue() {
            long offset;
            if (sequential) {
                offset = next;
                next += size;
            } else {
                offset = rng.nextLong(device.capacityBytes() / size) * size;
            }
            IoRequest io = new IoRequest(offset, size, read, r -> {
                completed++;
                maxLatencyMs = Math.max(maxLatencyMs, r.latencyMs());
                totalLatencyMs += r.latencyMs();
                issue();
            });
            io.submittedAt(sim.now());
            device.submit(io);
        }
    }

    @Test
    void commandAgingKeepsASequentialStreamFromStarvingRandomReads() {
        // Shortest-seek-first alone serves a 16-deep sequential stream (a storage vMotion copy)
        // for ever: its next command is always on the head's track. Aging bounds the wait.
        Simulation sim = new Simulation();
        StorageDevice disk = DeviceProfiles.build(sim, DeviceProfiles.get(DeviceProfiles.HGST_7K2), 100L << 30, 1);
        Stream copy = new Stream(disk, sim, 16, 64 * 1024, true, true, 1);
        Stream random = new Stream(disk, sim, 2, 8 * 1024, true, false, 2);
        sim.runUntil(20_000);
        assertThat(copy.completed).isGreaterThan(1000);
        assertThat(random.completed).isGreaterThan(20);
        assertThat(random.maxLatencyMs).isLessThan(Spindle.MAX_COMMAND_AGE_MS + 200);
    }

    @Test
    void writeBackCacheDestagesInTheBackgroundWithoutFloodingTheDisks() {
        // A sequential write stream (a database log) into a write-back cache: destaging every
        // acknowledged write at once would queue thousands of commands ahead of the host's reads.
        Simulation sim = new Simulation();
        DeviceProfile p = DeviceProfiles.resolve(new DeviceSpec.HddArray(null, 6, 15000, "raid5", 64, 0.0, 512.0, true));
        StorageDevice array = DeviceProfiles.build(sim, p, 2048L << 30, 3);
        Stream log = new Stream(array, sim, 8, 64 * 1024, false, true, 1);
        Stream random = new Stream(array, sim, 2, 8 * 1024, true, false, 2);
        sim.runUntil(30_000);
        assertThat(log.completed).isGreaterThan(3000);
        assertThat(random.completed).isGreaterThan(1000);
        assertThat(random.totalLatencyMs / random.completed).isLessThan(60);
    }
}
