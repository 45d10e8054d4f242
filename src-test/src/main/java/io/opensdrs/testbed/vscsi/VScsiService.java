package io.opensdrs.testbed.vscsi;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.opensdrs.scenario.WorkloadSpec;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.LatencyPercentile;
import io.opensdrs.shared.agent.v1.StreamLimit;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import io.opensdrs.testbed.stats.DiskWindow;
import io.opensdrs.shared.vscsi.v1.ActivityCounters;
import io.opensdrs.shared.vscsi.v1.DatastoreRequest;
import io.opensdrs.shared.vscsi.v1.DatastoreView;
import io.opensdrs.shared.vscsi.v1.DiskRequest;
import io.opensdrs.shared.vscsi.v1.DiskView;
import io.opensdrs.shared.vscsi.v1.HostRequest;
import io.opensdrs.shared.vscsi.v1.HostStatsWindow;
import io.opensdrs.shared.vscsi.v1.HostView;
import io.opensdrs.shared.vscsi.v1.IoCompletion;
import io.opensdrs.shared.vscsi.v1.IoRequest;
import io.opensdrs.shared.vscsi.v1.RelocateRequest;
import io.opensdrs.shared.vscsi.v1.RelocationStatus;
import io.opensdrs.shared.vscsi.v1.SetWorkloadRequest;
import io.opensdrs.shared.vscsi.v1.ThrottleReply;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;
import io.opensdrs.testbed.workload.TokenBucketThrottle;
import io.opensdrs.testbed.world.Datastore;
import io.opensdrs.testbed.world.Relocation;
import io.opensdrs.testbed.world.VirtualDisk;
import io.opensdrs.testbed.world.World;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The vSCSI service (vscsi.proto) over a {@link PacedWorld}: every call becomes a command on the
 * world's engine thread, so nothing here touches the simulation from a gRPC thread.
 */
public final class VScsiService extends VScsiGrpc.VScsiImplBase {

    private final PacedWorld paced;

    public VScsiService(PacedWorld paced) {
        this.paced = paced;
    }

    @Override
    public void describeHost(HostRequest request, StreamObserver<HostView> response) {
        unary(response, () -> {
            World w = paced.world();
            HostView.Builder b = HostView.newBuilder().setHost(request.getHost())
                    .setSimNowMs(paced.simNowMs()).setSpeed(paced.speed()).setEpochBaseMs(paced.epochBaseMs());
            for (Datastore d : w.datastores()) {
                if (d.seenBy(request.getHost())) {
                    b.addDatastores(DatastoreView.newBuilder().setName(d.name()).setCapacityBytes(d.capacityBytes())
                            .setUsedBytes(d.usedBytes()).setThinProvisioned(d.thin()).setDeviceProfile(d.profile().name()));
                }
            }
            for (VirtualDisk d : paced.disksOf(request.getHost())) {
                b.addDisks(view(d));
            }
            return b.build();
        });
    }

    private DiskView view(VirtualDisk d) {
        WorkloadSpec s = d.workloadAt(paced.simNowMs() / 3_600_000);
        return DiskView.newBuilder().setVm(d.vm()).setDiskKey(paced.diskKey(d.id())).setDiskName(d.name())
                .setDatastore(d.datastore()).setHost(d.host()).setSizeBytes(d.sizeBytes()).setOio(s.oio())
                .setIoSizeKb(s.ioSizeKB()).setReadPct(s.readPct()).setRandomPct(s.randomPct()).build();
    }

    @Override
    public void streamHostStats(HostRequest request, StreamObserver<HostStatsWindow> response) {
        streamHost(request.getHost(), response, paced::addWindowListener, paced::removeWindowListener);
    }

    @Override
    public void streamHostSeconds(HostRequest request, StreamObserver<HostStatsWindow> response) {
        streamHost(request.getHost(), response, paced::addSecondListener, paced::removeSecondListener);
    }

    /** The host's virtual disks in each report, one message per report, until the caller cancels. */
    private void streamHost(String host, StreamObserver<HostStatsWindow> response, Consumer<Consumer<PacedWorld.WindowReport>> subscribe,
                            Consumer<Consumer<PacedWorld.WindowReport>> unsubscribe) {
        ServerCallStreamObserver<HostStatsWindow> out = (ServerCallStreamObserver<HostStatsWindow>) response;
        Consumer<PacedWorld.WindowReport> listener = new Consumer<>() {
            @Override
            public void accept(PacedWorld.WindowReport report) {
                HostStatsWindow.Builder b = HostStatsWindow.newBuilder().setHost(host)
                        .setWindowStartSimMs(report.startMs());
                for (DiskWindow w : report.disks()) {
                    if (w.disk().startsWith("copy-")) {
                        continue; // a storage vMotion's copy is not a virtual disk's IO
                    }
                    VirtualDisk d = paced.world().disk(w.disk());
                    if (d.host().equals(host)) {
                        b.addSamples(toProto(d, w));
                    }
                }
                synchronized (out) {
                    if (out.isCancelled()) {
                        unsubscribe.accept(this);
                        return;
                    }
                    out.onNext(b.build());
                }
            }
        };
        out.setOnCancelHandler(() -> unsubscribe.accept(listener));
        subscribe.accept(listener);
    }

    DiskWindowStats toProto(VirtualDisk d, DiskWindow w) {
        PacedWorld.Identity as = paced.reportedIdentity(d.id());
        return DiskWindowStats.newBuilder().setVm(as.vm()).setDiskKey(as.diskKey())
                .setDiskFile("[" + w.datastore() + "] " + d.vm() + "/" + d.name() + ".vmdk")
                .setDatastore(w.datastore())
                .setWindowStartMs(paced.epochBaseMs() + (long) w.startMs())
                .setWindowSeconds((int) Math.round(w.seconds()))
                .setIoCount(w.ios()).setReads(w.reads()).setWrites(w.writes())
                .setBytesRead(w.bytesRead()).setBytesWritten(w.bytesWritten())
                .setMeanOutstandingIos(w.meanOutstanding()).setMeanLatencyMs(w.meanLatencyMs())
                .addLatencyPercentiles(LatencyPercentile.newBuilder().setPercentile(50).setLatencyMs(w.p50Ms()))
                .addLatencyPercentiles(LatencyPercentile.newBuilder().setPercentile(90).setLatencyMs(w.p90Ms()))
                .addLatencyPercentiles(LatencyPercentile.newBuilder().setPercentile(99).setLatencyMs(w.p99Ms()))
                .setMeanIoSizeKb(w.meanIoSizeKB()).setReadShare(w.readShare()).setRandomness(w.randomness())
                .build();
    }

    @Override
    public StreamObserver<IoRequest> submitIo(StreamObserver<IoCompletion> response) {
        PacedWorld.IoClient client = paced.newIoClient();
        return new StreamObserver<>() {
            @Override
            public void onNext(IoRequest r) {
                Consumer<PacedWorld.IoOutcome> reply = o -> {
                    IoCompletion c = IoCompletion.newBuilder().setTag(r.getTag()).setLatencyMs(o.latencyMs())
                            .setCompletedAtSimNs(o.completedAtSimNs()).setZeroData(o.zeroData())
                            .setError(o.error()).build();
                    synchronized (response) {
                        try {
                            response.onNext(c);
                        } catch (RuntimeException closed) {
                            client.close();
                        }
                    }
                };
                if (r.getSizeBytes() == 0 && r.getHoldForIos() > 0) {
                    paced.post(() -> paced.holdClock(client, r.getHoldForIos(), reply));
                } else if (r.getSizeBytes() == 0) {
                    paced.post(() -> paced.withdrawHold(client, reply));
                } else {
                    paced.post(() -> paced.submitInjectorIo(client, r.getDatastore(), r.getOffset(), r.getSizeBytes(),
                            r.getRead(), r.getContinueUntilSimNs(), reply));
                }
            }

            @Override
            public void onError(Throwable t) {
                client.close();
            }

            @Override
            public void onCompleted() {
                client.close();
                synchronized (response) {
                    response.onCompleted();
                }
            }
        };
    }

    @Override
    public void datastoreActivity(DatastoreRequest request, StreamObserver<ActivityCounters> response) {
        unary(response, () -> {
            String ds = request.getDatastore();
            paced.world().datastore(ds); // names the datastore when unknown
            long all = paced.run().submittedIos(ds);
            long injector = paced.injectorIos(ds);
            return ActivityCounters.newBuilder().setDatastore(ds).setSimNowNs(paced.simNs())
                    .setOtherIosSubmitted(all - injector).setInjectorIosSubmitted(injector).build();
        });
    }

    @Override
    public void setThrottleLimits(ThrottleLimits limits, StreamObserver<ThrottleReply> response) {
        unary(response, () -> {
            ThrottleReply.Builder reply = ThrottleReply.newBuilder().setGeneration(limits.getGeneration());
            if ((long) limits.getGeneration() < paced.throttleGeneration()) {
                return reply.setApplied(false).setGeneration(paced.throttleGeneration()).build();
            }
            Map<String, StreamLimit> byDisk = new HashMap<>();
            List<String> unknown = new ArrayList<>();
            for (StreamLimit l : limits.getLimitsList()) {
                String id = paced.diskId(l.getStream().getVm(), l.getStream().getDiskKey());
                if (id == null || (!l.getStream().getHost().isEmpty()
                        && !paced.world().disk(id).host().equals(l.getStream().getHost()))) {
                    unknown.add(l.getStream().getHost() + "/" + l.getStream().getVm() + "/" + l.getStream().getDiskKey());
                } else {
                    byDisk.put(id, l);
                }
            }
            int throttled = 0;
            for (VirtualDisk d : paced.world().disks()) {
                StreamLimit l = byDisk.get(d.id());
                TokenBucketThrottle t = l == null ? TokenBucketThrottle.unlimited() : TokenBucketThrottle.of(l);
                throttled += t.isUnlimited() ? 0 : 1;
                paced.run().throttle(d.id(), t);
            }
            paced.throttleGeneration(limits.getGeneration());
            return reply.setApplied(true).setThrottledStreams(throttled).addAllUnknownStreams(unknown).build();
        });
    }

    @Override
    public void relocate(RelocateRequest request, StreamObserver<RelocationStatus> response) {
        unary(response, () -> {
            String id = requireDisk(request.getVm(), request.getDiskKey());
            try {
                paced.world().relocate(id, request.getDestination(), paced.simNowMs());
            } catch (IllegalArgumentException e) {
                return status(id).setAccepted(false).setReason(e.getMessage()).build();
            }
            paced.run().startPendingCopies();
            return status(id).setAccepted(true).build();
        });
    }

    @Override
    public void relocationProgress(DiskRequest request, StreamObserver<RelocationStatus> response) {
        unary(response, () -> status(requireDisk(request.getVm(), request.getDiskKey())).setAccepted(true).build());
    }

    private RelocationStatus.Builder status(String diskId) {
        VirtualDisk d = paced.world().disk(diskId);
        RelocationStatus.Builder b = RelocationStatus.newBuilder().setVm(d.vm()).setDiskKey(paced.diskKey(diskId))
                .setDatastoreNow(d.datastore());
        for (Relocation r : paced.world().relocations()) {
            if (r.disk() == d) {
                return b.setSource(r.from()).setDestination(r.to()).setProgress(r.progress()).setDone(false);
            }
        }
        return b.setDestination(d.datastore()).setProgress(1).setDone(true);
    }

    @Override
    public void setWorkload(SetWorkloadRequest r, StreamObserver<DiskView> response) {
        unary(response, () -> {
            String id = requireDisk(r.getVm(), r.getDiskKey());
            if (r.getOio() < 0 || r.getIoSizeKb() < 0 || r.getReadPct() < 0 || r.getReadPct() > 100
                    || r.getRandomPct() < 0 || r.getRandomPct() > 100 || r.getThinkTimeMs() < 0) {
                throw new IllegalArgumentException("workload out of range: oio >= 0, io_size_kb >= 0, read_pct and"
                        + " random_pct in 0..100, think_time_ms >= 0");
            }
            paced.run().shiftWorkload(id, new WorkloadSpec(r.getOio(), r.getIoSizeKb() > 0 ? r.getIoSizeKb() : null,
                    r.getReadPct(), r.getRandomPct(), r.getThinkTimeMs(), null));
            return view(paced.world().disk(id));
        });
    }

    private String requireDisk(String vm, int key) {
        String id = paced.diskId(vm, key);
        if (id == null) {
            throw new IllegalArgumentException("no virtual disk with vm '" + vm + "' and disk_key " + key);
        }
        return id;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    @Override
    public void addDatastore(io.opensdrs.shared.vscsi.v1.AddDatastoreRequest request, StreamObserver<DatastoreView> response) {
        io.opensdrs.scenario.DatastoreSpec spec;
        try {
            spec = JSON.readValue(request.getDatastoreJson(), io.opensdrs.scenario.DatastoreSpec.class);
        } catch (java.io.IOException e) {
            response.onError(Status.INVALID_ARGUMENT.withDescription("datastore_json: " + e.getMessage()).asRuntimeException());
            return;
        }
        if (spec.name() == null || spec.name().isBlank() || !(spec.capacityGB() > 0) || spec.device() == null) {
            response.onError(Status.INVALID_ARGUMENT.withDescription("datastore_json needs name, capacityGB > 0 and device")
                    .asRuntimeException());
            return;
        }
        unary(response, () -> {
            Datastore d = paced.world().addDatastore(spec, request.getHostsList());
            return DatastoreView.newBuilder().setName(d.name()).setCapacityBytes(d.capacityBytes()).setUsedBytes(d.usedBytes())
                    .setThinProvisioned(d.thin()).setDeviceProfile(d.profile().name()).build();
        });
    }

    private <T> void unary(StreamObserver<T> response, java.util.function.Supplier<T> onEngine) {
        T value;
        try {
            value = paced.call(onEngine);
        } catch (IllegalArgumentException e) {
            response.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        } catch (RuntimeException e) {
            response.onError(Status.UNAVAILABLE.withDescription(String.valueOf(e.getMessage())).asRuntimeException());
            return;
        }
        response.onNext(value);
        response.onCompleted();
    }
}
