package io.opensdrs.agent.vscsi;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.StreamSamples;
import io.opensdrs.shared.vscsi.v1.HostRequest;
import io.opensdrs.shared.vscsi.v1.HostStatsWindow;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's per-second subscription (SLEDS §4.2) against a vSCSI service that sends a second of
 * three disks every 10 ms for as long as the call lasts: the testbed's real service is exercised by
 * its own test and by the system tests; here it is what the agent subscribes to, passes on and ends.
 */
class VScsiStatsSourceTest {

    private final AtomicInteger callsOpened = new AtomicInteger();
    private final AtomicInteger callsCancelled = new AtomicInteger();
    private final ScheduledExecutorService ticker = Executors.newScheduledThreadPool(2);
    private Server server;
    private ManagedChannel channel;
    private VScsiStatsSource source;

    private static DiskWindowStats disk(String vm, int key, long second) {
        return DiskWindowStats.newBuilder().setVm(vm).setDiskKey(key).setDatastore("ds1").setWindowStartMs(1_700_000_000_000L + second * 1000)
                .setWindowSeconds(1).setIoCount(100).setMeanLatencyMs(5).build();
    }

    @BeforeEach
    void start() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(new VScsiGrpc.VScsiImplBase() {
            @Override
            public void streamHostSeconds(HostRequest request, StreamObserver<HostStatsWindow> response) {
                callsOpened.incrementAndGet();
                ServerCallStreamObserver<HostStatsWindow> out = (ServerCallStreamObserver<HostStatsWindow>) response;
                long[] second = {0};
                var task = ticker.scheduleAtFixedRate(() -> {
                    synchronized (out) {
                        if (!out.isCancelled()) {
                            long s = second[0]++;
                            out.onNext(HostStatsWindow.newBuilder().setHost(request.getHost()).setWindowStartSimMs(s * 1000)
                                    .addSamples(disk("vm-1", 2000, s)).addSamples(disk("vm-1", 2001, s)).addSamples(disk("vm-2", 2000, s)).build());
                        }
                    }
                }, 0, 10, TimeUnit.MILLISECONDS);
                out.setOnCancelHandler(() -> {
                    task.cancel(false);
                    callsCancelled.incrementAndGet();
                });
            }
        }).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        source = new VScsiStatsSource(channel, "esx1").start();
    }

    @AfterEach
    void stop() throws Exception {
        source.close();
        channel.shutdownNow();
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        ticker.shutdownNow();
    }

    @Test
    void secondsOfTheWatchedStreamsOnlyAndOnlyWhileSomeAreWatched() throws Exception {
        BlockingQueue<StreamSamples> seconds = new LinkedBlockingQueue<>();
        source.addSecondListener(seconds::add);
        Thread.sleep(200);
        assertThat(callsOpened).as("no subscription while nothing is watched").hasValue(0);
        assertThat(seconds).isEmpty();

        source.watch(Set.of(VScsiStatsSource.streamOf("vm-1", 2001)));
        StreamSamples first = seconds.poll(5, TimeUnit.SECONDS);
        assertThat(first).isNotNull();
        assertThat(first.getHost()).isEqualTo("esx1");
        assertThat(first.getSamplesList()).extracting(s -> s.getVm() + "/" + s.getDiskKey() + "/" + s.getWindowSeconds())
                .containsExactly("vm-1/2001/1");
        assertThat(callsOpened).hasValue(1);

        source.watch(Set.of());
        long deadline = System.currentTimeMillis() + 5_000;
        while (callsCancelled.get() == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(callsCancelled).as("the subscription ends with the watch").hasValue(1);
        Thread.sleep(100);
        seconds.clear();
        Thread.sleep(200);
        assertThat(seconds).as("nothing passed on once nothing is watched").isEmpty();

        source.watch(Set.of(VScsiStatsSource.streamOf("vm-2", 2000), VScsiStatsSource.streamOf("vm-1", 2000)));
        StreamSamples again = seconds.poll(5, TimeUnit.SECONDS);
        assertThat(again).isNotNull();
        assertThat(again.getSamplesList()).extracting(s -> s.getVm() + "/" + s.getDiskKey()).containsExactly("vm-1/2000", "vm-2/2000");
        assertThat(callsOpened).as("subscribed again").hasValue(2);
    }
}
