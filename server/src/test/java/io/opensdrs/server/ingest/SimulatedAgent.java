package io.opensdrs.server.ingest;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import com.google.protobuf.CodedOutputStream;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.AgentServiceGrpc;
import io.opensdrs.shared.agent.v1.Capabilities;
import io.opensdrs.shared.agent.v1.ContractVersion;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.DiskWindowStats;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.RegisterResponse;
import io.opensdrs.shared.agent.v1.ServerMessage;
import io.opensdrs.shared.agent.v1.VisibleDatastore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in host agent speaking agent.proto over a real gRPC channel: used by the B4 benchmark
 * and by the server's tests (the real agent is module host-agent). Not a test double of the
 * server: everything it sends goes through the network stack, the interceptor and the database.
 */
public final class SimulatedAgent implements AutoCloseable {

    private final ManagedChannel channel;
    private final AgentServiceGrpc.AgentServiceBlockingStub blocking;
    private final AgentServiceGrpc.AgentServiceStub async;

    /** @param token the bearer token, or null to call anonymously */
    public SimulatedAgent(String host, int port, String token) {
        NettyChannelBuilder b = NettyChannelBuilder.forAddress(host, port).usePlaintext().maxInboundMessageSize(16 * 1024 * 1024);
        if (token != null) {
            b.intercept(bearer(token));
        }
        channel = b.build();
        blocking = AgentServiceGrpc.newBlockingStub(channel);
        async = AgentServiceGrpc.newStub(channel);
    }

    private static ClientInterceptor bearer(String token) {
        Metadata.Key<String> key = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
        return new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                    @Override
                    public void start(Listener<R> listener, Metadata headers) {
                        headers.put(key, "Bearer " + token);
                        super.start(listener, headers);
                    }
                };
            }
        };
    }

    public RegisterResponse register(String agentId, String host, List<String> datastores) {
        RegisterRequest.Builder r = RegisterRequest.newBuilder().setAgentId(agentId).setHost(host).setAgentVersion("sim-1")
                .setContractMinor(ContractVersion.CONTRACT_MINOR_VERSION.getNumber())
                .setCapabilities(Capabilities.newBuilder().setInjectorEmulated(true).build());
        for (String ds : datastores) {
            r.addDatastores(VisibleDatastore.newBuilder().setName(ds).setUrl("ds:///vmfs/volumes/" + ds + "/")
                    .setCapacityBytes(1L << 40).setFreeBytes(1L << 39).setAccessible(true));
        }
        return blocking.withDeadlineAfter(30, TimeUnit.SECONDS).register(r.build());
    }

    public Session openSession() {
        Session s = new Session();
        s.out = async.session(s);
        return s;
    }

    /**
     * A Session stream whose AgentMessages are sent as bytes the caller encoded (see
     * {@link #encodedDiskStats}): the same method and the same wire bytes as {@link #openSession},
     * without re-serializing an unchanged batch for every message, so that a benchmark's CPU goes
     * to the server. Send with {@link Session#sendEncoded}.
     */
    public Session openEncodedSession() {
        MethodDescriptor<AgentMessage, ServerMessage> typed = AgentServiceGrpc.getSessionMethod();
        MethodDescriptor<byte[], ServerMessage> raw = typed.toBuilder(ENCODED, typed.getResponseMarshaller()).build();
        Session s = new Session();
        s.encodedOut = ClientCalls.asyncBidiStreamingCall(channel.newCall(raw, CallOptions.DEFAULT), s);
        return s;
    }

    private static final MethodDescriptor.Marshaller<byte[]> ENCODED = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            throw new UnsupportedOperationException("requests are only sent");
        }
    };

    /** The encoded body of an AgentMessage carrying {@code batch}, without its seq (field 1). */
    public static byte[] encodedDiskStats(DiskStatsBatch batch) {
        return AgentMessage.newBuilder().setDiskStats(batch).build().toByteArray(); // seq 0: not written
    }

    /** An encoded AgentMessage: seq (field 1) followed by a body from {@link #encodedDiskStats}. */
    public static byte[] encodedMessage(long seq, byte[] body) {
        int head = CodedOutputStream.computeUInt64Size(1, seq);
        byte[] m = new byte[head + body.length];
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(m, 0, head);
            out.writeUInt64(1, seq);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.arraycopy(body, 0, m, head, body.length);
        return m;
    }

    /** One Session stream; server messages are queued, the end of the stream is recorded. */
    public static final class Session implements StreamObserver<ServerMessage> {
        private final BlockingQueue<ServerMessage> inbox = new LinkedBlockingQueue<>();
        private volatile Status closed;
        private StreamObserver<AgentMessage> out;
        private StreamObserver<byte[]> encodedOut;

        public synchronized void send(AgentMessage m) {
            out.onNext(m);
        }

        /** On a session from {@link #openEncodedSession}: one encoded AgentMessage. */
        public synchronized void sendEncoded(byte[] message) {
            encodedOut.onNext(message);
        }

        /** The next server message, or null on timeout or when the stream has ended. */
        public ServerMessage take(long timeoutMs) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while (true) {
                ServerMessage m = inbox.poll(20, TimeUnit.MILLISECONDS);
                if (m != null) {
                    return m;
                }
                if (closed != null || System.nanoTime() > deadline) {
                    return inbox.poll();
                }
            }
        }

        /** Null while the stream is open. */
        public Status closedStatus() {
            return closed;
        }

        public synchronized void complete() {
            try {
                (out != null ? out : encodedOut).onCompleted();
            } catch (RuntimeException ignored) {
                // already closed
            }
        }

        @Override
        public void onNext(ServerMessage value) {
            inbox.add(value);
        }

        @Override
        public void onError(Throwable t) {
            closed = Status.fromThrowable(t);
        }

        @Override
        public void onCompleted() {
            closed = Status.OK;
        }
    }

    /**
     * A DiskStatsBatch of {@code disks} 20-s windows starting at {@code windowStartMs}, disks
     * spread over {@code datastores}, with plausible random values.
     */
    public static DiskStatsBatch batch(String host, String vmPrefix, int disks, List<String> datastores, long windowStartMs, Random rnd) {
        DiskStatsBatch.Builder b = DiskStatsBatch.newBuilder().setHost(host);
        for (int d = 0; d < disks; d++) {
            double oio = 1 + rnd.nextDouble() * 16;
            long ios = 200 + rnd.nextInt(20_000);
            long reads = (long) (ios * rnd.nextDouble());
            b.addSamples(DiskWindowStats.newBuilder()
                    .setVm(vmPrefix + "-" + (d / 2)).setDiskKey(2000 + d % 2)
                    .setDiskFile("[" + datastores.get(d % datastores.size()) + "] " + vmPrefix + "-" + (d / 2) + "/disk" + d % 2 + ".vmdk")
                    .setDatastore(datastores.get(d % datastores.size()))
                    .setWindowStartMs(windowStartMs).setWindowSeconds(20)
                    .setIoCount(ios).setReads(reads).setWrites(ios - reads)
                    .setBytesRead(reads * 8192).setBytesWritten((ios - reads) * 8192)
                    .setMeanOutstandingIos(oio).setMeanLatencyMs(0.5 + oio * (0.8 + rnd.nextDouble()))
                    .setMeanIoSizeKb(4 + rnd.nextInt(60)).setReadShare(ios == 0 ? 0 : reads / (double) ios)
                    .setRandomness(rnd.nextDouble()));
        }
        return b.build();
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
