package io.opensdrs.agent.vscsi;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.opensdrs.agent.DatastoreAgent;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.HeartbeatFile;
import io.opensdrs.agent.heartbeat.LeaderElection;
import io.opensdrs.agent.heartbeat.ServerLoads;
import io.opensdrs.agent.injector.InjectorSchedule;
import io.opensdrs.agent.injector.WorkloadInjector;
import io.opensdrs.model.stats.LineFit;
import io.opensdrs.scenario.ScenarioLoader;
import io.opensdrs.shared.agent.v1.HostDatastoreLoad;
import io.opensdrs.shared.agent.v1.HostDatastoreLoads;
import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.InvalidReason;
import io.opensdrs.testbed.fidelity.ClosedLoopProbe;
import io.opensdrs.testbed.vscsi.PacedWorld;
import io.opensdrs.testbed.vscsi.VScsiServer;
import io.opensdrs.shared.vscsi.v1.SetWorkloadRequest;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;
import io.opensdrs.testbed.world.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Host-agent acceptance 3: the workload injector on the emulator, through the testbed's vSCSI
 * service over loopback gRPC (the testbed runs in this JVM, paced at 1000× the wall clock; the
 * injector's IOs hold simulated time, so its OIO levels are exact).
 */
class EmulatedInjectorAcceptanceTest {

    static final String SCENARIO = """
            {"name": "injector-acceptance", "seed": 11, "hours": 1,
             "datastores": [
               {"name": "ds-hgst-7k2", "capacityGB": 100, "device": {"type": "hdd-array", "profile": "hgst-7k2"}},
               {"name": "ds-wd740gd-10k", "capacityGB": 100, "device": {"type": "hdd-array", "profile": "wd740gd-10k"}},
               {"name": "ds-ibm-m1015-8x2tb-raid5", "capacityGB": 100,
                "device": {"type": "hdd-array", "profile": "ibm-m1015-8x2tb-raid5"}},
               {"name": "ds-intel-d3-s4610", "capacityGB": 100, "device": {"type": "ssd", "profile": "intel-d3-s4610"}},
               {"name": "ds-busy", "capacityGB": 100, "device": {"type": "hdd-array", "profile": "hgst-7k2"}},
               {"name": "ds-thin", "capacityGB": 100, "thinProvisioned": true,
                "device": {"type": "hdd-array", "profile": "hgst-7k2"}}],
             "hosts": [{"name": "esx1", "datastores": ["ds-hgst-7k2", "ds-wd740gd-10k", "ds-ibm-m1015-8x2tb-raid5",
                        "ds-intel-d3-s4610", "ds-busy", "ds-thin"]}],
             "vms": [
               {"name": "noisy", "host": "esx1", "disks": [{"name": "data", "sizeGB": 50, "datastore": "ds-busy",
                 "workload": {"oio": 1, "thinkTimeMs": 3600000}}]},
               {"name": "small", "host": "esx1", "disks": [{"name": "data", "sizeGB": 5, "datastore": "ds-thin",
                 "workload": {"oio": 1, "thinkTimeMs": 3600000}}]}]}
            """;
    static final int[] LEVELS = WorkloadInjector.Settings.DEFAULT_LEVELS;

    static VScsiServer server;
    static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        World world = World.build(ScenarioLoader.parse(SCENARIO, "injector-acceptance"));
        server = VScsiServer.start(new PacedWorld(world, 1000, 11), 0);
        channel = NettyChannelBuilder.forTarget(server.target()).usePlaintext().build();
        // the scenario format wants O > 0: the VMs start idle here
        for (String vm : List.of("noisy", "small")) {
            VScsiGrpc.newBlockingStub(channel).setWorkload(SetWorkloadRequest.newBuilder().setVm(vm)
                    .setDiskKey(PacedWorld.FIRST_DISK_KEY).setOio(0).build());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.close();
        }
    }

    /** The emulator's own long IO-level run: fio-like closed loops at each level, in virtual time. */
    static LineFit referenceFit(String profile, double[] iopsAtFirstLevel) {
        double[] q = new double[LEVELS.length];
        double[] l = new double[LEVELS.length];
        for (int i = 0; i < LEVELS.length; i++) {
            ClosedLoopProbe.Result r = ClosedLoopProbe.of(profile, 5).effort(40_000, 300_000)
                    .run(ClosedLoopProbe.randomRead(LEVELS[i], 4));
            q[i] = r.iops() * r.meanLatencyMs() / 1000; // Little's law, as the injector measures Q
            l[i] = r.meanLatencyMs();
            if (i == 0) {
                iopsAtFirstLevel[0] = r.iops();
            }
        }
        return WorkloadInjector.fit(q, l);
    }

    @ParameterizedTest
    @ValueSource(strings = {"hgst-7k2", "wd740gd-10k", "ibm-m1015-8x2tb-raid5", "intel-d3-s4610"})
    void fittedSlopeIsWithinTenPercentOfTheEmulatorsOwnLongRun(String profile) throws Exception {
        double[] iops2 = new double[1];
        LineFit reference = referenceFit(profile, iops2);
        // Levels long enough for ~4000 IOs at OIO 2 (Pesto's "short run per level" in the
        // device's own time): seconds on a spindle, a fraction of a second on flash.
        Duration perLevel = Duration.ofMillis((long) Math.max(200, Math.min(20_000, 4000 / iops2[0] * 1000)));
        long t0 = System.nanoTime();
        InjectorResult r;
        try (EmulatedIoTarget target = EmulatedIoTarget.open(channel, "esx1", "ds-" + profile)) {
            r = new WorkloadInjector(new WorkloadInjector.Settings(LEVELS, perLevel, 4096))
                    .run(target, "ds-" + profile, InjectorMode.EMULATED, 1, WorkloadInjector.LeaderGate.ALWAYS);
        }
        double ratio = r.getFit().getSlopeMsPerIo() / reference.slope();
        System.out.printf(Locale.ROOT, "acceptance 3 %-22s injector slope %.5f ms/IO (C %.3f, R² %.4f, %.1f s/level sim, "
                        + "%.1f s wall) vs emulator long run %.5f ms/IO (R² %.4f): ratio %.3f%n", profile,
                r.getFit().getSlopeMsPerIo(), r.getFit().getInterceptMs(), r.getFit().getRSquared(),
                perLevel.toMillis() / 1000.0, (System.nanoTime() - t0) / 1e9, reference.slope(), reference.rSquared(), ratio);
        assertThat(r.getValid()).as(r.getInvalidReason() + " " + r.getInvalidDetail()).isTrue();
        assertThat(r.getMode()).isEqualTo(InjectorMode.EMULATED);
        assertThat(r.getPointsList()).allSatisfy(p -> assertThat(p.getInterference()).isLessThan(0.05));
        assertThat(ratio).isBetween(0.90, 1.10);
    }

    @Test
    void thinProvisionedDatastoreGivesAnInvalidRun() throws Exception {
        InjectorResult r;
        try (EmulatedIoTarget target = EmulatedIoTarget.open(channel, "esx1", "ds-thin")) {
            r = new WorkloadInjector(new WorkloadInjector.Settings(LEVELS, Duration.ofMillis(500), 4096))
                    .run(target, "ds-thin", InjectorMode.EMULATED, 1, WorkloadInjector.LeaderGate.ALWAYS);
        }
        System.out.printf("acceptance 3 thin: valid=%s reason=%s (%s)%n", r.getValid(), r.getInvalidReason(),
                r.getInvalidDetail());
        assertThat(r.getValid()).isFalse();
        assertThat(r.getInvalidReason()).isEqualTo(InvalidReason.THIN_PROVISIONED);
        assertThat(r.getFit().getPoints()).isZero(); // no slope from zeros
    }

    /**
     * A datastore another host loads is not idle, so its leader does not inject; once vCenter's next
     * sample says the load is gone, it does, and the run is valid. The load reaches the agent as on
     * vSphere: the server reads it from vCenter's counters and sends it ({@code HostDatastoreLoads},
     * here sent by the test), the agent counts it in the datastore-wide totals (Pesto §5.1.1).
     */
    @Test
    void aDatastoreAnotherHostLoadsIsNotInjectedUntilTheLoadIsGone(@TempDir Path dir) throws Exception {
        VScsiGrpc.VScsiBlockingStub vscsi = VScsiGrpc.newBlockingStub(channel);
        Duration period = Duration.ofMillis(200);
        BlockingQueue<InjectorResult> results = new LinkedBlockingQueue<>();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        AgentEvents log = (ds, type, details) -> events.add(type + " " + details);
        ServerLoads loads = new ServerLoads(Duration.ofMinutes(1));
        // esx2, which runs no agent, has a VM keeping 16 random reads outstanding on ds-busy
        vscsi.setWorkload(SetWorkloadRequest.newBuilder().setVm("noisy").setDiskKey(PacedWorld.FIRST_DISK_KEY)
                .setOio(16).setIoSizeKb(4).setReadPct(100).setRandomPct(100).build());
        loads.apply(sample(1, 0, 0, 1400, 16));
        LeaderElection election = new LeaderElection("ds-busy", "esx1", HeartbeatFile.open(dir, 8),
                new LeaderElection.Timing(period, 3, Duration.ofMillis(50)), log, loads.forDatastore("ds-busy", period));
        InjectorSchedule schedule = new InjectorSchedule(Duration.ofDays(1), period, Duration.ofMillis(400),
                System.currentTimeMillis());
        WorkloadInjector injector = new WorkloadInjector(new WorkloadInjector.Settings(LEVELS, Duration.ofSeconds(4), 4096));
        try (DatastoreAgent agent = new DatastoreAgent(election, schedule, List.of(injector),
                () -> EmulatedIoTarget.open(channel, "esx1", "ds-busy"), InjectorMode.EMULATED, log, results::add)) {
            agent.start();
            String deferred = null;
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); deferred == null && System.nanoTime() < deadline; ) {
                String e = events.poll(1, TimeUnit.SECONDS);
                if (e != null && e.startsWith("inject-deferred")) {
                    deferred = e;
                }
            }
            System.out.println("acceptance 3 busy datastore: " + deferred);
            assertThat(deferred).as("the leader deferred its run on the loaded datastore").contains("reason=not-idle");
            assertThat(results).as("no run while the other host loads the datastore").isEmpty();
            // The VM stops; vCenter's next sample shows the datastore quiet.
            vscsi.setWorkload(SetWorkloadRequest.newBuilder().setVm("noisy").setDiskKey(PacedWorld.FIRST_DISK_KEY)
                    .setOio(0).build());
            loads.apply(sample(2, 0, 0, 0, 0));
            InjectorResult run = results.poll(90, TimeUnit.SECONDS);
            assertThat(run).isNotNull();
            System.out.printf(Locale.ROOT, "acceptance 3 quiet again: attempt %d valid=%s slope %.5f ms/IO R² %.4f%n",
                    run.getAttempt(), run.getValid(), run.getFit().getSlopeMsPerIo(), run.getFit().getRSquared());
            assertThat(run.getValid()).as(run.getInvalidReason() + " " + run.getInvalidDetail()).isTrue();
        }
    }

    private static HostDatastoreLoads sample(long generation, double iops, double oio, double otherIops, double otherOio) {
        return HostDatastoreLoads.newBuilder().setGeneration(generation).setSampleSeconds(20)
                .addLoads(HostDatastoreLoad.newBuilder().setDatastore("ds-busy").setIops(iops).setOutstandingIos(oio)
                        .setUnrepresentedIops(otherIops).setUnrepresentedOutstandingIos(otherOio)).build();
    }
}
