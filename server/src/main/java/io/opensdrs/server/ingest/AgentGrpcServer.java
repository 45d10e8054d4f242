package io.opensdrs.server.ingest;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.opensdrs.server.SdrsProperties;
import io.opensdrs.server.stats.StatisticsRecovery;
import io.opensdrs.server.stats.StatisticsWarmup;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The agents' gRPC endpoint (grpc-netty-shaded), port {@code sdrs.grpc.port} (0: a free port).
 * Listens from its lifecycle phase, but no call starts before the rebuild of the percentiles after
 * the start is done ({@link StatisticsRecovery}, {@link StatisticsWarmup}): a call made meanwhile
 * waits for it up to {@code sdrs.grpc.warmup-wait}, then is answered UNAVAILABLE and the agent retries
 * as after any restart. So no message is stored or folded while the stored batches are replayed, and
 * none is counted twice. The wait holds a gRPC executor thread, not a database connection. The port
 * is bound at start, so a port in use still stops the start.
 */
@Component
public class AgentGrpcServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AgentGrpcServer.class);

    private final SdrsProperties.Grpc config;
    private final AgentGrpcService service;
    private final AgentAuthInterceptor auth;
    private final StatisticsWarmup warmup;
    private volatile Server server;

    public AgentGrpcServer(SdrsProperties properties, AgentGrpcService service, AgentAuthInterceptor auth,
                           StatisticsWarmup warmup) {
        this.config = properties.getGrpc();
        this.service = service;
        this.auth = auth;
        this.warmup = warmup;
    }

    @Override
    public void start() {
        try {
            server = NettyServerBuilder.forAddress(new InetSocketAddress(config.getPort()))
                    .maxInboundMessageSize(config.getMaxMessageBytes())
                    .addService(ServerInterceptors.intercept(service, auth, new WarmingGate(warmup, config.getWarmupWait())))
                    .build()
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for agents on port " + config.getPort() + " (sdrs.grpc.port)", e);
        }
        log.info("agent gRPC service listening on port {}", server.getPort());
    }

    /** The bound port (useful when configured as 0), once agents are accepted: waits for the statistics' rebuild. */
    public int port() {
        warmup.await();
        Server s = server;
        if (s == null) {
            throw new IllegalStateException("gRPC server not started");
        }
        return s.getPort();
    }

    @Override
    public void stop() {
        Server s = server;
        if (s != null) {
            s.shutdown();
            try {
                if (!s.awaitTermination(5, TimeUnit.SECONDS)) {
                    s.shutdownNow();
                }
            } catch (InterruptedException e) {
                s.shutdownNow();
                Thread.currentThread().interrupt();
            }
            server = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    @Override
    public int getPhase() {
        return StatisticsRecovery.PHASE + 100;
    }

    /**
     * Holds a call while the statistics are rebuilt, up to {@code wait}, then closes it UNAVAILABLE.
     * Intercepted last, so it runs first: not even an agent's registration is read meanwhile.
     */
    static final class WarmingGate implements ServerInterceptor {
        private final StatisticsWarmup warmup;
        private final java.time.Duration wait;

        WarmingGate(StatisticsWarmup warmup, java.time.Duration wait) {
            this.warmup = warmup;
            this.wait = wait;
        }

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            if (warmup.warming() && !warmup.awaitFor(wait)) {
                call.close(Status.UNAVAILABLE.withDescription("the server is rebuilding its statistics after a start ("
                        + warmup.replayedSamples() + " samples replayed so far); retry shortly"), new Metadata());
                return new ServerCall.Listener<>() {
                };
            }
            return next.startCall(call, headers);
        }
    }
}
