package io.opensdrs.testbed.vscsi;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The vSCSI service on a loopback port (0 = a free port): the testbed is for one machine, and
 * nothing else should reach an emulator that takes IO and placement changes unauthenticated.
 */
public final class VScsiServer implements AutoCloseable {
    private final PacedWorld paced;
    private final Server server;

    private VScsiServer(PacedWorld paced, Server server) {
        this.paced = paced;
        this.server = server;
    }

    /** Starts the world's engine and serves it. */
    public static VScsiServer start(PacedWorld paced, int port) throws IOException {
        Server s = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                .addService(new VScsiService(paced))
                .build()
                .start();
        paced.start();
        return new VScsiServer(paced, s);
    }

    public int port() {
        return server.getPort();
    }

    public String target() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + port();
    }

    public PacedWorld world() {
        return paced;
    }

    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    @Override
    public void close() {
        server.shutdownNow();
        paced.close();
        try {
            server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
