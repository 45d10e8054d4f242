package io.opensdrs.agent.vscsi;

import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.opensdrs.agent.injector.IoTarget;
import io.opensdrs.shared.vscsi.v1.ActivityCounters;
import io.opensdrs.shared.vscsi.v1.DatastoreRequest;
import io.opensdrs.shared.vscsi.v1.IoCompletion;
import io.opensdrs.shared.vscsi.v1.IoRequest;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The injector's target in emulated mode (host-agent issue; Pesto §5.1 on the testbed): every
 * read is one IO through the testbed's vSCSI SubmitIo stream, its latency the emulated device's
 * and its clock the emulator's simulated time. The closed-loop promise of
 * {@link #timedRead} is passed on, so the emulator keeps exactly the injector's OIO on the
 * device whatever the gRPC round trip costs. A read of an unallocated thin region comes back as
 * zeros, which the injector's thin-provisioning filter (Pesto §5.1.2) then sees as on a real LUN.
 * It is the injector's file, emulated: the other workloads on the datastore reach the injector's
 * Little's-law check as they do on a real host, through the heartbeat blocks, which the server
 * fills from vCenter's counters.
 */
public final class EmulatedIoTarget implements IoTarget {

    private static final long IO_TIMEOUT_SECONDS = 60;

    private final VScsiGrpc.VScsiBlockingStub blocking;
    private final String datastore;
    private final long capacityBytes;
    private final Map<Long, CompletableFuture<IoCompletion>> pending = new ConcurrentHashMap<>();
    private final AtomicLong tags = new AtomicLong();
    private final StreamObserver<IoRequest> requests;
    private volatile Throwable streamError;

    public EmulatedIoTarget(ManagedChannel channel, String datastore, long capacityBytes) {
        this.blocking = VScsiGrpc.newBlockingStub(channel);
        this.datastore = datastore;
        this.capacityBytes = capacityBytes;
        this.requests = VScsiGrpc.newStub(channel).submitIo(new StreamObserver<>() {
            @Override
            public void onNext(IoCompletion c) {
                CompletableFuture<IoCompletion> f = pending.remove(c.getTag());
                if (f != null) {
                    f.complete(c);
                }
            }

            @Override
            public void onError(Throwable t) {
                streamError = t;
                pending.values().forEach(f -> f.completeExceptionally(t));
            }

            @Override
            public void onCompleted() {
                pending.values().forEach(f -> f.completeExceptionally(new IOException("vSCSI stream closed")));
            }
        });
    }

    /** Opens the target for a datastore the host sees, sized as the testbed's LUN. */
    public static EmulatedIoTarget open(ManagedChannel channel, String host, String datastore) throws IOException {
        io.opensdrs.shared.vscsi.v1.HostView view;
        try {
            view = VScsiGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .describeHost(io.opensdrs.shared.vscsi.v1.HostRequest.newBuilder().setHost(host).build());
        } catch (io.grpc.StatusRuntimeException e) {
            throw new IOException("vSCSI service unreachable: " + e.getStatus(), e);
        }
        for (io.opensdrs.shared.vscsi.v1.DatastoreView d : view.getDatastoresList()) {
            if (d.getName().equals(datastore)) {
                return new EmulatedIoTarget(channel, datastore, d.getCapacityBytes());
            }
        }
        throw new IOException("host " + host + " sees no datastore '" + datastore + "' in the testbed");
    }

    @Override
    public String describe() {
        return "emulated datastore " + datastore + " through the testbed's vSCSI service";
    }

    @Override
    public long sizeBytes() {
        return capacityBytes;
    }

    @Override
    public int alignment() {
        return 512;
    }

    @Override
    public ByteBuffer newBuffer(int ioSize) {
        return ByteBuffer.allocate(ioSize);
    }

    @Override
    public int read(ByteBuffer buffer, long offset) throws IOException {
        int n = buffer.remaining();
        timedRead(buffer, offset, 0);
        return n;
    }

    @Override
    public long startLevel(int oio) throws IOException {
        return roundTrip(IoRequest.newBuilder().setDatastore(datastore).setSizeBytes(0).setHoldForIos(oio))
                .getCompletedAtSimNs();
    }

    @Override
    public void withdrawPromise() throws IOException {
        roundTrip(IoRequest.newBuilder().setDatastore(datastore).setSizeBytes(0).setHoldForIos(0));
    }

    @Override
    public Timing timedRead(ByteBuffer buffer, long offset, long continueUntilNanos) throws IOException {
        IoCompletion c = roundTrip(IoRequest.newBuilder().setDatastore(datastore).setOffset(offset)
                .setSizeBytes(buffer.remaining()).setRead(true).setContinueUntilSimNs(Math.max(0, continueUntilNanos)));
        byte fill = c.getZeroData() ? 0 : (byte) 0x5A;
        while (buffer.hasRemaining()) {
            buffer.put(fill);
        }
        return new Timing((long) (c.getLatencyMs() * 1e6), c.getCompletedAtSimNs());
    }

    @Override
    public int write(ByteBuffer buffer, long offset) throws IOException {
        int n = buffer.remaining();
        timedWrite(buffer, offset, 0);
        return n;
    }

    /** A write of the injector's emulated file: one vSCSI write of the buffer's size (its data stays here). */
    @Override
    public Timing timedWrite(ByteBuffer buffer, long offset, long continueUntilNanos) throws IOException {
        IoCompletion c = roundTrip(IoRequest.newBuilder().setDatastore(datastore).setOffset(offset)
                .setSizeBytes(buffer.remaining()).setRead(false).setContinueUntilSimNs(Math.max(0, continueUntilNanos)));
        return new Timing((long) (c.getLatencyMs() * 1e6), c.getCompletedAtSimNs());
    }

    private IoCompletion roundTrip(IoRequest.Builder request) throws IOException {
        if (streamError != null) {
            throw new IOException("vSCSI stream failed: " + streamError.getMessage(), streamError);
        }
        long tag = tags.incrementAndGet();
        CompletableFuture<IoCompletion> f = new CompletableFuture<>();
        pending.put(tag, f);
        IoRequest r = request.setTag(tag).build();
        synchronized (requests) { // a gRPC request stream takes one writer at a time
            requests.onNext(r);
        }
        IoCompletion c;
        try {
            c = f.get(IO_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for an emulated IO", e);
        } catch (ExecutionException e) {
            throw new IOException("emulated IO failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            pending.remove(tag);
            throw new IOException("emulated IO did not complete within " + IO_TIMEOUT_SECONDS + " s");
        }
        if (!c.getError().isEmpty()) {
            throw new IOException(c.getError());
        }
        return c;
    }

    @Override
    public long nanoTime() {
        return activity().getSimNowNs();
    }

    private ActivityCounters activity() {
        return blocking.withDeadlineAfter(30, TimeUnit.SECONDS)
                .datastoreActivity(DatastoreRequest.newBuilder().setDatastore(datastore).build());
    }

    @Override
    public void close() {
        synchronized (requests) {
            try {
                requests.onCompleted();
            } catch (RuntimeException alreadyClosed) {
                // the stream failed before
            }
        }
    }
}
