package io.opensdrs.testbed.vscsi;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.opensdrs.scenario.ScenarioLoader;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.StreamId;
import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import io.opensdrs.testbed.fidelity.ClosedLoopProbe;
import io.opensdrs.shared.vscsi.v1.DatastoreRequest;
import io.opensdrs.shared.vscsi.v1.DiskRequest;
import io.opensdrs.shared.vscsi.v1.HostRequest;
import io.opensdrs.shared.vscsi.v1.HostStatsWindow;
import io.opensdrs.shared.vscsi.v1.HostView;
import io.opensdrs.shared.vscsi.v1.IoCompletion;
import io.opensdrs.shared.vscsi.v1.IoRequest;
import io.opensdrs.shared.vscsi.v1.RelocateRequest;
import io.opensdrs.shared.vscsi.v1.RelocationStatus;
import io.opensdrs.shared.vscsi.v1.ThrottleReply;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;
import io.opensdrs.testbed.world.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The vSCSI service over loopback gRPC, against a world paced at 25× the wall clock. */
class VScsiServiceTest {

    static final String SCENARIO = """
            {"name": "vscsi-test", "seed": 7, "hours": 1,
             "datastores": [
               {"name": "ds-a", "capacityGB": 100, "device": {"type": "hdd-array", "profile": "hgst-7k2"}},
               {"name": "ds-c", "capacityGB": 100, "device": {"type": "hdd-array", "profile": "hgst-7k2"}},
               {"name": "ds-ssd", "capacityGB": 100, "device": {"type": "ssd", "profile": "intel-d3-s4610"}}],
             "hosts": [{"name": "esx1", "datastores": ["ds-a", "ds-c", "ds-ssd"]}],
             "vms": [
               {"name": "vm1", "host": "esx1", "disks": [{"name": "data", "sizeGB": 20, "datastore": "ds-a",
                 "workload": {"oio": 2, "ioSizeKB": 4, "readPct": 100, "randomPct": 100}}]},
               {"name": "vm2", "host": "esx1", "disks": [{"name": "data", "sizeGB": 1, "datastore": "ds-a",
                 "workload": {"oio": 1, "ioSizeKB": 4, "readPct": 100, "randomPct": 100, "thinkTimeMs": 5}}]}]}
            """;

    static VScsiServer server;
    static ManagedChannel channel;
    static VScsiGrpc.VScsiBlockingStub stub;

    @BeforeAll
    static void start() throws Exception {
        World world = World.build(ScenarioLoader.parse(SCENARIO, "vscsi-test"));
        server = VScsiServer.start(new PacedWorld(world, 25, 7), 0);
        channel = NettyChannelBuilder.forTarget(server.target()).usePlaintext().build();
        stub = VScsiGrpc.newBlockingStub(channel);
    }

    @AfterAll
    static void stop() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void describesTheHostsDatastoresAndDisks() {
        HostView v = stub.describeHost(HostRequest.newBuilder().setHost("esx1").build());
        assertThat(v.getDatastoresList()).extracting(d -> d.getName()).containsExactly("ds-a", "ds-c", "ds-ssd");
        assertThat(v.getDisksList()).extracting(d -> d.getVm() + "/" + d.getDiskKey() + "@" + d.getDatastore())
                .containsExactlyInAnyOrder("vm1/2000@ds-a", "vm2/2000@ds-a");
        assertThat(v.getSpeed()).isEqualTo(25);
    }

    /** A disk named as vCenter names it (VM managed object id, device key) is reported and found under that name. */
    @Test
    void aDiskNamedAsVcenterIsReportedUnderThatIdentity() throws Exception {
        PacedWorld paced = new PacedWorld(World.build(ScenarioLoader.parse(SCENARIO, "vscsi-test")), 25, 7);
        paced.reportAs("vm2/data", "vm-42", 203);
        assertThatThrownBy(() -> paced.reportAs("vm9/data", "vm-43", 203)).isInstanceOf(IllegalArgumentException.class);
        assertThat(paced.diskId("vm-42", 203)).isEqualTo("vm2/data");
        assertThat(paced.diskId("vm2", 2000)).as("the scenario's name still works").isEqualTo("vm2/data");
        try (VScsiServer own = VScsiServer.start(paced, 0)) {
            ManagedChannel ch = NettyChannelBuilder.forTarget(own.target()).usePlaintext().build();
            try {
                HostStatsWindow w = VScsiGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .streamHostStats(HostRequest.newBuilder().setHost("esx1").build()).next();
                assertThat(w.getSamplesList()).extracting(d -> d.getVm() + "/" + d.getDiskKey())
                        .containsExactlyInAnyOrder("vm1/2000", "vm-42/203");
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    /** A datastore added at run time is seen by its host, reported every window, and takes a disk. */
    @Test
    void aDatastoreAddedAtRunTimeTakesADisk() throws Exception {
        PacedWorld paced = new PacedWorld(World.build(ScenarioLoader.parse(SCENARIO, "vscsi-test")), 25, 7);
        try (VScsiServer own = VScsiServer.start(paced, 0)) {
            ManagedChannel ch = NettyChannelBuilder.forTarget(own.target()).usePlaintext().build();
            try {
                VScsiGrpc.VScsiBlockingStub s = VScsiGrpc.newBlockingStub(ch).withDeadlineAfter(60, TimeUnit.SECONDS);
                var added = s.addDatastore(io.opensdrs.shared.vscsi.v1.AddDatastoreRequest.newBuilder().addHosts("esx1")
                        .setDatastoreJson("{\"name\": \"ds-new\", \"capacityGB\": 100,"
                                + " \"device\": {\"type\": \"ssd\", \"profile\": \"intel-d3-s4610\"}}").build());
                assertThat(added.getName()).isEqualTo("ds-new");
                assertThat(added.getCapacityBytes()).isEqualTo(100L << 30);
                assertThatThrownBy(() -> s.addDatastore(io.opensdrs.shared.vscsi.v1.AddDatastoreRequest.newBuilder()
                        .setDatastoreJson("{\"name\": \"ds-new\", \"capacityGB\": 1, \"device\": {\"type\": \"ssd\"}}").build()))
                        .hasMessageContaining("exists already");
                assertThat(s.describeHost(HostRequest.newBuilder().setHost("esx1").build()).getDatastoresList())
                        .extracting(d -> d.getName()).contains("ds-new");
                assertThat(s.relocate(RelocateRequest.newBuilder().setVm("vm2").setDiskKey(2000).setDestination("ds-new").build())
                        .getAccepted()).isTrue();
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (!s.relocationProgress(DiskRequest.newBuilder().setVm("vm2").setDiskKey(2000).build()).getDone()) {
                    assertThat(System.nanoTime()).as("the copy to ds-new finishes").isLessThan(deadline);
                    Thread.sleep(100);
                }
                assertThat(s.relocationProgress(DiskRequest.newBuilder().setVm("vm2").setDiskKey(2000).build()).getDatastoreNow())
                        .isEqualTo("ds-new");
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void streamsEveryDiskOfTheHostEveryWindow() {
        Iterator<HostStatsWindow> it = stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                .streamHostStats(HostRequest.newBuilder().setHost("esx1").build());
        HostStatsWindow w = it.next();
        assertThat(w.getSamplesCount()).isEqualTo(2);
        DiskWindowStats vm1 = w.getSamplesList().stream().filter(s -> s.getVm().equals("vm1")).findFirst().orElseThrow();
        assertThat(vm1.getDiskKey()).isEqualTo(2000);
        assertThat(vm1.getDatastore()).isEqualTo("ds-a");
        assertThat(vm1.getWindowSeconds()).isEqualTo(20);
        assertThat(vm1.getIoCount()).isGreaterThan(500); // 2 OIO of 4 KiB random reads on a 7.2k disk: ~100 IOPS
        assertThat(vm1.getMeanLatencyMs()).isBetween(5.0, 40.0);
        assertThat(vm1.getMeanOutstandingIos()).isBetween(1.8, 2.05);
        assertThat(vm1.getLatencyPercentilesCount()).isEqualTo(3);
    }

    @Test
    void streamsEveryDiskOfTheHostEverySecondAndTheSecondsAddUpToTheirWindow() {
        Iterator<HostStatsWindow> seconds = stub.withDeadlineAfter(60, TimeUnit.SECONDS)
                .streamHostSeconds(HostRequest.newBuilder().setHost("esx1").build());
        Iterator<HostStatsWindow> windows = stub.withDeadlineAfter(60, TimeUnit.SECONDS)
                .streamHostStats(HostRequest.newBuilder().setHost("esx1").build());
        HostStatsWindow window = windowAfter(windows, simNowMs());
        double start = window.getWindowStartSimMs();
        long ios = 0;
        int count = 0;
        double previous = Double.NaN;
        while (true) {
            HostStatsWindow s = seconds.next();
            if (s.getWindowStartSimMs() < start) {
                continue;
            }
            if (s.getWindowStartSimMs() >= start + 20_000) {
                break;
            }
            if (!Double.isNaN(previous)) {
                assertThat(s.getWindowStartSimMs() - previous).as("consecutive seconds").isEqualTo(1_000);
            }
            previous = s.getWindowStartSimMs();
            assertThat(s.getSamplesCount()).isEqualTo(2);
            DiskWindowStats vm1 = sample(s, "vm1");
            assertThat(vm1.getWindowSeconds()).isEqualTo(1);
            assertThat(vm1.getWindowStartMs()).isEqualTo(sample(window, "vm1").getWindowStartMs() + 1_000L * count);
            assertThat(vm1.getIoCount()).as("2 OIO of 4 KiB random reads on a 7.2k disk: ~100 IOPS").isBetween(20L, 400L);
            ios += vm1.getIoCount();
            count++;
        }
        assertThat(count).isEqualTo(20);
        // the same IOs counted by second and by window: the gateway's samples and the hypervisor's windows agree
        assertThat(ios).isEqualTo(sample(window, "vm1").getIoCount());
    }

    @Test
    void injectedIosSeeTheDevicesLatency() throws Exception {
        // Closed loop at queue depth 1 on the idle ds-c, holding simulated time between IOs.
        ClosedLoopProbe.Result reference = ClosedLoopProbe.of("hgst-7k2", 3).effort(2000, 60_000)
                .run(ClosedLoopProbe.randomRead(1, 4));
        BlockingQueue<IoCompletion> done = new LinkedBlockingQueue<>();
        StreamObserver<IoRequest> requests = openIoStream(done);
        long now = stub.datastoreActivity(DatastoreRequest.newBuilder().setDatastore("ds-c").build()).getSimNowNs();
        long until = now + 3_000_000_000L; // 3 simulated seconds
        SplittableRandom rnd = new SplittableRandom(1);
        double sum = 0;
        int n = 0;
        long at = now;
        long first = -1;
        while (at < until) {
            requests.onNext(IoRequest.newBuilder().setTag(n).setDatastore("ds-c")
                    .setOffset(rnd.nextLong((100L << 30) / 4096 - 1) * 4096).setSizeBytes(4096).setRead(true)
                    .setContinueUntilSimNs(until).build());
            IoCompletion c = done.poll(10, TimeUnit.SECONDS);
            assertThat(c).isNotNull();
            assertThat(c.getError()).isEmpty();
            assertThat(c.getZeroData()).isFalse();
            assertThat(c.getCompletedAtSimNs()).isGreaterThanOrEqualTo(at);
            sum += c.getLatencyMs();
            n++;
            if (first < 0) {
                first = c.getCompletedAtSimNs() - (long) (c.getLatencyMs() * 1e6);
            }
            at = c.getCompletedAtSimNs();
        }
        requests.onCompleted();
        double mean = sum / n;
        // back to back: from the first submission on, the IOs' latencies fill simulated time
        // exactly, so the device saw queue depth 1 all along however long each round trip took
        assertThat(sum).isCloseTo((at - first) / 1e6, org.assertj.core.data.Percentage.withPercentage(0.1));
        assertThat(mean).isCloseTo(reference.meanLatencyMs(), org.assertj.core.data.Percentage.withPercentage(15));
        IoCompletion outside = roundTrip(IoRequest.newBuilder().setDatastore("ds-c").setOffset(100L << 30)
                .setSizeBytes(4096).setRead(true).build());
        assertThat(outside.getError()).contains("outside the LUN");
    }

    /** A kept promise holds simulated time until the next IO; a withdrawn one lets it run at once (an injector level ending early). */
    @Test
    void aWithdrawnPromiseReleasesTheClock() throws Exception {
        BlockingQueue<IoCompletion> done = new LinkedBlockingQueue<>();
        StreamObserver<IoRequest> requests = openIoStream(done);
        try {
            requests.onNext(IoRequest.newBuilder().setTag(1).setDatastore("ds-c").setOffset(4096).setSizeBytes(4096)
                    .setRead(true).setContinueUntilSimNs(Long.MAX_VALUE).build());
            assertThat(done.poll(10, TimeUnit.SECONDS)).isNotNull();
            long held = simNow();
            Thread.sleep(400);
            assertThat(simNow()).as("held by the promise").isEqualTo(held);
            long released = System.nanoTime();
            requests.onNext(IoRequest.newBuilder().setTag(2).setDatastore("ds-c").setSizeBytes(0).setHoldForIos(0).build());
            IoCompletion withdrawn = done.poll(10, TimeUnit.SECONDS);
            assertThat(withdrawn).isNotNull();
            assertThat(withdrawn.getError()).isEmpty();
            Thread.sleep(400);
            long running = simNow();
            double sinceRelease = (System.nanoTime() - released) / 1e6;
            assertThat(running).as("running again").isGreaterThan(held);
            // paced from where it stopped, at 25x: the 400 ms it was held are not caught up (that would add
            // 10 s of simulated time). The bound leaves 100 wall ms for the engine's own lag behind the
            // wall clock before the hold, which pacing rightly makes up; a catch-up exceeds it by 300 ms.
            assertThat((running - held) / 1e6).as("simulated ms run in the %.0f wall ms since the release", sinceRelease)
                    .isLessThanOrEqualTo(25 * (sinceRelease + 100));
        } finally {
            requests.onCompleted();
        }
    }

    private long simNow() {
        return stub.datastoreActivity(DatastoreRequest.newBuilder().setDatastore("ds-c").build()).getSimNowNs();
    }

    /** A SubmitIo stream whose completions land in {@code done}. */
    private StreamObserver<IoRequest> openIoStream(BlockingQueue<IoCompletion> done) {
        return VScsiGrpc.newStub(channel).submitIo(new StreamObserver<>() {
            @Override
            public void onNext(IoCompletion c) {
                done.add(c);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        });
    }

    private IoCompletion roundTrip(IoRequest r) throws InterruptedException {
        BlockingQueue<IoCompletion> done = new LinkedBlockingQueue<>();
        StreamObserver<IoRequest> requests = openIoStream(done);
        requests.onNext(r);
        IoCompletion c = done.poll(10, TimeUnit.SECONDS);
        requests.onCompleted();
        return c;
    }

    @Test
    void throttleLimitsSlowTheStreamAndRelocationMovesTheDisk() {
        Iterator<HostStatsWindow> it = stub.withDeadlineAfter(120, TimeUnit.SECONDS)
                .streamHostStats(HostRequest.newBuilder().setHost("esx1").build());
        long unthrottled = sample(it.next(), "vm1").getIoCount();
        ThrottleReply reply = stub.setThrottleLimits(ThrottleLimits.newBuilder().setGeneration(5)
                .addLimits(StreamLimit.newBuilder().setStream(StreamId.newBuilder().setHost("esx1").setVm("vm1")
                        .setDiskKey(2000)).setReadIops(20).setBurstSeconds(0.5))
                .addLimits(StreamLimit.newBuilder().setStream(StreamId.newBuilder().setVm("nobody").setDiskKey(2000))
                        .setReadIops(1)).build());
        assertThat(reply.getApplied()).isTrue();
        assertThat(reply.getThrottledStreams()).isEqualTo(1);
        assertThat(reply.getUnknownStreamsList()).containsExactly("/nobody/2000");
        DiskWindowStats throttled = sample(windowAfter(it, simNowMs()), "vm1");
        assertThat(throttled.getIoCount()).isBetween(380L, 420L); // 20 IOPS x 20 s
        assertThat(unthrottled).isGreaterThan(3 * throttled.getIoCount());
        assertThat(stub.setThrottleLimits(ThrottleLimits.newBuilder().setGeneration(4).build()).getApplied())
                .as("older generation ignored").isFalse();
        stub.setThrottleLimits(ThrottleLimits.newBuilder().setGeneration(6).build());

        // storage vMotion of vm2's disk to the SSD: the copy runs, then the disk's IO is on the SSD
        DiskWindowStats before = sample(windowAfter(it, simNowMs()), "vm2");
        assertThat(before.getDatastore()).isEqualTo("ds-a");
        DiskRequest vm2 = DiskRequest.newBuilder().setVm("vm2").setDiskKey(2000).build();
        RelocationStatus started = stub.relocate(RelocateRequest.newBuilder().setVm("vm2").setDiskKey(2000)
                .setDestination("ds-ssd").build());
        assertThat(started.getAccepted()).as(started.getReason()).isTrue();
        assertThat(stub.relocate(RelocateRequest.newBuilder().setVm("vm2").setDiskKey(2000).setDestination("ds-ssd")
                .build()).getReason()).contains("already being relocated");
        RelocationStatus s = stub.relocationProgress(vm2);
        assertThat(s.getDone()).isFalse();
        assertThat(s.getDatastoreNow()).isEqualTo("ds-a");
        long deadline = System.currentTimeMillis() + 60_000;
        while (!s.getDone() && System.currentTimeMillis() < deadline) {
            s = stub.relocationProgress(vm2);
        }
        assertThat(s.getDone()).isTrue();
        assertThat(s.getDatastoreNow()).isEqualTo("ds-ssd");
        DiskWindowStats after = sample(windowAfter(it, simNowMs()), "vm2");
        assertThat(after.getDatastore()).isEqualTo("ds-ssd");
        assertThat(after.getMeanLatencyMs()).isLessThan(before.getMeanLatencyMs() / 10);
    }

    private static double simNowMs() {
        return stub.datastoreActivity(DatastoreRequest.newBuilder().setDatastore("ds-a").build()).getSimNowNs() / 1e6;
    }

    /** The first window that started after {@code simMs} (windows queued before are skipped). */
    private static HostStatsWindow windowAfter(Iterator<HostStatsWindow> it, double simMs) {
        while (true) {
            HostStatsWindow w = it.next();
            if (w.getWindowStartSimMs() >= simMs) {
                return w;
            }
        }
    }

    private static DiskWindowStats sample(HostStatsWindow w, String vm) {
        return w.getSamplesList().stream().filter(s -> s.getVm().equals(vm)).findFirst().orElseThrow();
    }
}
