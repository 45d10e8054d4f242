package io.opensdrs.agent.session;

import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.shared.agent.v1.Ack;
import io.opensdrs.shared.agent.v1.AckStatus;
import io.opensdrs.shared.agent.v1.AgentMessage;
import io.opensdrs.shared.agent.v1.AgentServiceGrpc;
import io.opensdrs.shared.agent.v1.BufferReport;
import io.opensdrs.shared.agent.v1.CongestionThresholds;
import io.opensdrs.shared.agent.v1.DatastoreState;
import io.opensdrs.shared.agent.v1.DiskStatsBatch;
import io.opensdrs.shared.agent.v1.InjectorRequest;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.RegisterResponse;
import io.opensdrs.shared.agent.v1.ServerMessage;
import io.opensdrs.shared.agent.v1.ThrottleLimits;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The agent's side of agent.proto's AgentService (SPEC §2): Register, then one bidirectional
 * Session that carries the agent's reports up and the server's acknowledgements and directives
 * down. Reports go through the {@link OutboundBuffer} and leave it only when acknowledged, so a
 * server restart or a network cut loses nothing that fits in the buffer: after reconnecting,
 * registration returns the server's highest accepted seq and everything after it is sent again
 * (a resend the server had applied just before it died comes back DUPLICATE, not counted twice).
 * Reconnection backs off exponentially (100 ms to 10 s). Directives are handed over as they
 * arrive: throttle limits to the gateway, which keeps them while the server is away (SLEDS §4.1),
 * injector requests to the datastore's schedule (Pesto §5.4.2: a datastore was added).
 */
public final class ServerSession implements AutoCloseable {

    /** What the server tells the agent to do. */
    public interface Directives {
        void throttleLimits(ThrottleLimits limits);

        void injectorRequest(InjectorRequest request);

        default void congestionThresholds(CongestionThresholds thresholds) {
        }

        /** The datastores' loads read from vCenter (contract minor 3). */
        default void hostDatastoreLoads(io.opensdrs.shared.agent.v1.HostDatastoreLoads loads) {
        }
    }

    /** Unacknowledged reports in flight on one session (the server acks each one as it applies it). */
    static final int WINDOW = 64;
    static final long MIN_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 10_000;

    private final AgentCredential credential;
    private final Supplier<RegisterRequest> registration;
    private final OutboundBuffer buffer;
    private final Directives directives;
    private final AgentEvents events;
    private final ManagedChannel channel;
    private final AgentServiceGrpc.AgentServiceBlockingStub register;
    private final AgentServiceGrpc.AgentServiceStub sessions;
    private final Thread sender;
    private volatile boolean closed;
    private volatile boolean connected;
    /** The open session's request stream, for live messages; null between sessions. */
    private volatile ClientCallStreamObserver<AgentMessage> open;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong sessionsOpened = new AtomicLong();
    private long reportedDropped = -1;

    /**
     * @param server       host:port of the server's gRPC endpoint
     * @param registration what to register with (datastores may change between reconnects)
     */
    public ServerSession(String server, AgentCredential credential, Supplier<RegisterRequest> registration,
                         OutboundBuffer buffer, Directives directives, AgentEvents events) {
        this.credential = credential;
        this.registration = registration;
        this.buffer = buffer;
        this.directives = directives;
        this.events = events;
        this.channel = NettyChannelBuilder.forTarget(server).usePlaintext().build();
        Metadata auth = new Metadata();
        auth.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + credential.token());
        Channel authenticated = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(auth));
        this.register = AgentServiceGrpc.newBlockingStub(authenticated);
        this.sessions = AgentServiceGrpc.newStub(authenticated);
        this.sender = new Thread(this::run, "server-session");
        this.sender.setDaemon(true);
    }

    public ServerSession start() {
        sender.start();
        return this;
    }

    // ------------------------------------------------------------------ what the agent reports

    public long send(DiskStatsBatch stats) {
        return buffer.add(AgentMessage.newBuilder().setDiskStats(stats));
    }

    public long send(DatastoreState state) {
        return buffer.add(AgentMessage.newBuilder().setDatastoreState(state));
    }

    public long send(InjectorResult result) {
        return buffer.add(AgentMessage.newBuilder().setInjectorResult(result));
    }

    // ------------------------------------------------------------------ counters

    public OutboundBuffer buffer() {
        return buffer;
    }

    public boolean connected() {
        return connected;
    }

    /** Reports the server acknowledged as ACCEPTED (applied now). */
    public long accepted() {
        return accepted.get();
    }

    /** Reports the server acknowledged as DUPLICATE (applied before; a resend after an outage). */
    public long duplicates() {
        return duplicates.get();
    }

    public long rejected() {
        return rejected.get();
    }

    public long sessionsOpened() {
        return sessionsOpened.get();
    }

    // ------------------------------------------------------------------ the session loop

    private void run() {
        long backoff = MIN_BACKOFF_MS;
        while (!closed) {
            try {
                RegisterResponse r = register.withDeadlineAfter(10, TimeUnit.SECONDS).register(registration.get());
                if (!r.getAccepted()) {
                    events.emit("-", "register-refused", "reason=\"" + r.getReason() + "\"");
                } else {
                    buffer.anchor(r.getLastAcceptedSeq());
                    backoff = MIN_BACKOFF_MS;
                    runSession(r.getLastAcceptedSeq());
                }
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.UNAUTHENTICATED) {
                    events.emit("-", "unauthenticated", "detail=\"" + e.getStatus().getDescription() + "\"");
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                events.emit("-", "session-error", "error=\"" + e + "\"");
            }
            connected = false;
            if (closed) {
                return;
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
    }

    /** One Session stream: resend what is unacknowledged, then send as reports arrive, until it breaks. */
    private void runSession(long lastAccepted) throws InterruptedException {
        final boolean[] ended = {false};
        ClientResponseObserver<AgentMessage, ServerMessage> responses = new ClientResponseObserver<>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<AgentMessage> requestStream) {
            }

            @Override
            public void onNext(ServerMessage m) {
                handle(m);
            }

            @Override
            public void onError(Throwable t) {
                end();
            }

            @Override
            public void onCompleted() {
                end();
            }

            private void end() {
                synchronized (ended) {
                    ended[0] = true;
                }
                buffer.wake();
            }
        };
        ClientCallStreamObserver<AgentMessage> out =
                (ClientCallStreamObserver<AgentMessage>) sessions.session(responses);
        sessionsOpened.incrementAndGet();
        connected = true;
        open = out;
        events.emit("-", "session-open", "last_accepted_seq=" + lastAccepted + " buffered=" + buffer.size());
        reportBufferIfChanged();
        long lastSent = lastAccepted;
        try {
            while (!closed) {
                synchronized (ended) {
                    if (ended[0]) {
                        break;
                    }
                }
                AgentMessage m = buffer.next(lastSent, WINDOW, 250);
                if (m != null) {
                    synchronized (out) {
                        out.onNext(m);
                    }
                    lastSent = m.getSeq();
                } else {
                    reportBufferIfChanged();
                }
            }
        } finally {
            connected = false;
            open = null;
            synchronized (out) {
                try {
                    if (closed) {
                        out.onCompleted();
                    } else {
                        out.cancel("session ended", null);
                    }
                } catch (RuntimeException alreadyClosed) {
                    // the stream broke first
                }
            }
        }
        events.emit("-", "session-closed", "buffered=" + buffer.size());
    }

    /** A BufferReport whenever the overflow count changed (and at the first session). */
    private void reportBufferIfChanged() {
        long dropped = buffer.droppedOverflow();
        if (dropped != reportedDropped) {
            reportedDropped = dropped;
            buffer.add(AgentMessage.newBuilder().setBufferReport(BufferReport.newBuilder()
                    .setBuffered(buffer.size()).setDroppedOverflow(dropped).setCapacity(buffer.capacity())));
        }
    }

    private void handle(ServerMessage m) {
        switch (m.getBodyCase()) {
            case ACK -> {
                Ack a = m.getAck();
                if (a.getStatus() == AckStatus.ACCEPTED) {
                    accepted.incrementAndGet();
                } else if (a.getStatus() == AckStatus.DUPLICATE) {
                    duplicates.incrementAndGet();
                } else if (a.getStatus() == AckStatus.REJECTED) {
                    rejected.incrementAndGet();
                    events.emit("-", "report-rejected", "seq=" + a.getSeq() + " reason=\"" + a.getReason() + "\"");
                }
                buffer.acknowledged(a.getSeq());
                if (a.getCumulativeSeq() > 0) {
                    buffer.acknowledgedUpTo(a.getCumulativeSeq());
                }
            }
            case THROTTLE_LIMITS -> directives.throttleLimits(m.getThrottleLimits());
            case INJECTOR_REQUEST -> directives.injectorRequest(m.getInjectorRequest());
            case CONGESTION_THRESHOLDS -> directives.congestionThresholds(m.getCongestionThresholds());
            case HOST_DATASTORE_LOADS -> directives.hostDatastoreLoads(m.getHostDatastoreLoads());
            default -> {
                // a directive of a newer contract minor: ignored
            }
        }
    }

    /**
     * Registers again now, with what the registration supplier says at this moment — the agent's
     * datastores changed (one was mounted or unmounted on the host) and the server must know which
     * agents see which datastore (it sends a new datastore's injector request to them). The open
     * session is left alone. Without a session nothing is sent: the next reconnection registers
     * anyway. Returns whether the server accepted the registration.
     */
    public boolean registerAgain() {
        if (closed || !connected) {
            return false;
        }
        try {
            RegisterResponse r = register.withDeadlineAfter(10, TimeUnit.SECONDS).register(registration.get());
            if (!r.getAccepted()) {
                events.emit("-", "register-refused", "reason=\"" + r.getReason() + "\"");
            }
            return r.getAccepted();
        } catch (StatusRuntimeException e) {
            events.emit("-", "register-error", "error=\"" + e.getStatus() + "\"");
            return false;
        }
    }

    /** Waits until everything buffered has been acknowledged; false on timeout. */
    public boolean drain(long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (buffer.size() > 0) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    @Override
    public void close() {
        closed = true;
        buffer.wake();
        sender.interrupt();
        try {
            sender.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
