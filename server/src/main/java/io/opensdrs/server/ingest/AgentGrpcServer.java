package io.opensdrs.server.ingest;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.opensdrs.server.SdrsProperties;
import io.opensdrs.server.stats.StatisticsRecovery;
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
 * Starts after {@link StatisticsRecovery} so that no message is folded into percentiles that are
 * about to be rebuilt.
 */
@Component
public class AgentGrpcServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AgentGrpcServer.class);

    private final SdrsProperties.Grpc config;
    private final AgentGrpcService service;
    private final AgentAuthInterceptor auth;
    private volatile Server server;

    public AgentGrpcServer(SdrsProperties properties, AgentGrpcService service, AgentAuthInterceptor auth) {
        this.config = properties.getGrpc();
        this.service = service;
        this.auth = auth;
    }

    @Override
    public void start() {
        try {
            server = NettyServerBuilder.forAddress(new InetSocketAddress(config.getPort()))
                    .maxInboundMessageSize(config.getMaxMessageBytes())
                    .addService(ServerInterceptors.intercept(service, auth))
                    .build()
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for agents on port " + config.getPort() + " (sdrs.grpc.port)", e);
        }
        log.info("agent gRPC service listening on port {}", server.getPort());
    }

    /** The bound port (useful when configured as 0). */
    public int port() {
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
}
