package io.opensdrs.agent.cli;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.opensdrs.agent.DatastoreAgent;
import io.opensdrs.agent.heartbeat.AgentEvents;
import io.opensdrs.agent.heartbeat.DatastoreView;
import io.opensdrs.agent.session.AgentCredential;
import io.opensdrs.agent.session.OutboundBuffer;
import io.opensdrs.agent.session.ServerSession;
import io.opensdrs.agent.throttle.StreamGateway;
import io.opensdrs.agent.heartbeat.ServerLoads;
import io.opensdrs.shared.agent.v1.Capabilities;
import io.opensdrs.shared.agent.v1.ContractVersion;
import io.opensdrs.shared.agent.v1.CongestionThresholds;
import io.opensdrs.shared.agent.v1.InjectorRequest;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.RegisterRequest;
import io.opensdrs.shared.agent.v1.HostDatastoreLoads;
import io.opensdrs.shared.agent.v1.ThrottleLimits;
import io.opensdrs.shared.agent.v1.VisibleDatastore;
import io.opensdrs.shared.vscsi.v1.VScsiGrpc;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What connects one agent process to the outside: the server session (reports up, directives
 * down) and, on the testbed, the vSCSI service (the emulated injector's reads, throttles on the
 * emulated IO path). Directives land where they act: the datastores' loads read from vCenter in the
 * heartbeat blocks ({@link ServerLoads}), throttle limits in the {@link StreamGateway} (and, on the
 * testbed, on the emulated IO path), injector requests in the datastore's schedule.
 */
final class AgentConnections implements ServerSession.Directives, AutoCloseable {

    private final String host;
    private final String agentId;
    private final AgentEvents events;
    private final StreamGateway gateway = new StreamGateway();
    private final Map<String, DatastoreAgent> agents = new ConcurrentHashMap<>();
    private final Map<String, Path> dirs = new ConcurrentHashMap<>();
    private final ServerLoads loads;
    private ManagedChannel vscsiChannel;
    private volatile ServerSession session;

    AgentConnections(String host, String agentId, AgentEvents events, ServerLoads loads) {
        this.host = host;
        this.agentId = agentId;
        this.events = events;
        this.loads = loads;
    }

    String agentId() {
        return agentId;
    }

    StreamGateway gateway() {
        return gateway;
    }

    /** The datastores' loads the server sends; they reach the blocks only while a server is connected. */
    ServerLoads loads() {
        return loads;
    }

    boolean hasServer() {
        return session != null;
    }

    ManagedChannel vscsiChannel() {
        return vscsiChannel;
    }

    void connectVScsi(String target) {
        vscsiChannel = NettyChannelBuilder.forTarget(target).usePlaintext().build();
    }

    void datastore(DatastoreAgent agent, Path dir) {
        agents.put(agent.election().datastore(), agent);
        dirs.put(agent.election().datastore(), dir);
    }

    /** A datastore this host no longer sees: no directive reaches it and the next registration omits it. */
    void forget(String datastore) {
        agents.remove(datastore);
        dirs.remove(datastore);
    }

    boolean sees(String datastore) {
        return agents.containsKey(datastore);
    }

    /**
     * Tells the server the datastores changed: a new registration with the datastores seen now
     * (as at start-up; it keeps the session). False when there is no session: the next one
     * registers with the current list anyway.
     */
    boolean datastoresChanged() {
        ServerSession s = session;
        boolean told = s != null && s.registerAgain();
        events.emit("-", "datastores", "seen=" + new java.util.TreeSet<>(dirs.keySet()) + " registered=" + told);
        return told;
    }

    void connectServer(String target, AgentCredential credential, int bufferCapacity,
                       AgentCommand.InjectorKind injector, boolean calibrates) {
        session = new ServerSession(target, credential, () -> registration(injector, calibrates), new OutboundBuffer(bufferCapacity),
                this, events).start();
    }

    private RegisterRequest registration(AgentCommand.InjectorKind injector, boolean calibrates) {
        RegisterRequest.Builder r = RegisterRequest.newBuilder().setAgentId(agentId).setHost(host)
                .setAgentVersion("0.1.0").setContractMinor(ContractVersion.CONTRACT_MINOR_VERSION.getNumber())
                .setCapabilities(Capabilities.newBuilder().setInjectorRealIo(injector == AgentCommand.InjectorKind.real)
                        .setInjectorEmulated(injector == AgentCommand.InjectorKind.emulated)
                        .setThrottling(true).setRomanoCalibration(calibrates).setMaxInjectorOio(32));
        dirs.forEach((name, dir) -> {
            VisibleDatastore.Builder d = VisibleDatastore.newBuilder().setName(name)
                    .setLocalPath(dir.toAbsolutePath().toString()).setAccessible(Files.isDirectory(dir));
            try {
                FileStore fs = Files.getFileStore(dir);
                d.setCapacityBytes(fs.getTotalSpace()).setFreeBytes(fs.getUsableSpace());
            } catch (IOException e) {
                d.setAccessible(false);
            }
            r.addDatastores(d);
        });
        return r.build();
    }

    /** An injector result for the server (Pesto §5.1: points and fit, or why the run is invalid). */
    void report(InjectorResult result) {
        ServerSession s = session;
        if (s != null) {
            s.send(result);
        }
    }

    void report(DatastoreView view) {
        ServerSession s = session;
        if (s != null) {
            s.send(view.toProto());
        }
    }

    @Override
    public void throttleLimits(ThrottleLimits limits) {
        boolean applied = gateway.apply(limits);
        events.emit("-", "throttle-limits", "generation=" + limits.getGeneration() + " streams="
                + limits.getLimitsCount() + " applied=" + applied);
        if (applied && vscsiChannel != null) {
            try { // the emulated IO path is where the VMs' IO flows on the testbed
                VScsiGrpc.newBlockingStub(vscsiChannel).withDeadlineAfter(10, TimeUnit.SECONDS).setThrottleLimits(limits);
            } catch (StatusRuntimeException e) {
                events.emit("-", "throttle-error", "error=\"" + e.getStatus() + "\"");
            }
        }
    }

    @Override
    public void hostDatastoreLoads(HostDatastoreLoads message) {
        if (loads.apply(message)) {
            events.emit("-", "datastore-loads", "generation=" + message.getGeneration() + " sample-end-ms="
                    + message.getSampleEndMs() + " datastores=" + message.getLoadsCount());
        }
    }

    @Override
    public void injectorRequest(InjectorRequest request) {
        DatastoreAgent a = agents.get(request.getDatastore());
        if (a == null) {
            events.emit(request.getDatastore(), "inject-request-unknown", "reason=\"" + request.getReason() + "\"");
            return;
        }
        a.schedule().request(request.getNotBeforeMs(), request.getReason());
        boolean calibration = request.getRomanoCalibration() && a.calibration() != null;
        if (calibration) {
            a.calibration().request(request.getNotBeforeMs());
        }
        events.emit(request.getDatastore(), "inject-requested", "reason=\"" + request.getReason() + "\" calibration=" + calibration);
    }

    @Override
    public void congestionThresholds(CongestionThresholds thresholds) {
        events.emit("-", "congestion-thresholds", "generation=" + thresholds.getGeneration()
                + " datastores=" + thresholds.getThresholdsCount());
    }

    @Override
    public void close() {
        ServerSession s = session;
        if (s != null) {
            s.close();
        }
        if (vscsiChannel != null) {
            vscsiChannel.shutdownNow();
        }
    }
}
