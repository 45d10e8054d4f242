package io.opensdrs.server.ingest;

import io.opensdrs.server.stats.vcenter.HostLoadListener;
import io.opensdrs.shared.agent.v1.HostDatastoreLoad;
import io.opensdrs.shared.agent.v1.HostDatastoreLoads;
import io.opensdrs.shared.agent.v1.ServerMessage;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends each host's agents the IO on the datastores the host mounts ({@code HostDatastoreLoads},
 * contract minor 3), so that heartbeat blocks carry real load on a vSphere whose hosts run no agent
 * code on their IO path (Pesto §5.1.1): the idleness test and the injector's interference check
 * then read what vCenter measured.
 */
@Component
public class HostLoadPublisher implements HostLoadListener {

    private final AgentSessions sessions;
    private final AgentRepository agents;
    private final AtomicLong generation = new AtomicLong(System.currentTimeMillis());

    public HostLoadPublisher(AgentSessions sessions, AgentRepository agents) {
        this.sessions = sessions;
        this.agents = agents;
    }

    /** Sends every host's loads to the agents registered for it (by host name). */
    @Override
    public int publish(Map<String, List<Load>> loadsByHostName, long sampleEndMs, int sampleSeconds) {
        int reached = 0;
        for (Map.Entry<String, List<Load>> e : loadsByHostName.entrySet()) {
            HostDatastoreLoads.Builder b = HostDatastoreLoads.newBuilder().setGeneration(generation.incrementAndGet())
                    .setSampleEndMs(sampleEndMs).setSampleSeconds(sampleSeconds);
            for (Load l : e.getValue()) {
                b.addLoads(HostDatastoreLoad.newBuilder().setDatastore(l.datastoreName()).setIops(l.iops())
                        .setOutstandingIos(l.outstandingIos()).setMeanLatencyMs(l.meanLatencyMs())
                        .setUnrepresentedIops(l.unrepresentedIops())
                        .setUnrepresentedOutstandingIos(l.unrepresentedOutstandingIos()));
            }
            ServerMessage m = ServerMessage.newBuilder().setHostDatastoreLoads(b).build();
            for (String agent : agents.agentsOn(e.getKey())) {
                if (sessions.send(agent, m) > 0) {
                    reached++;
                }
            }
        }
        return reached;
    }
}
