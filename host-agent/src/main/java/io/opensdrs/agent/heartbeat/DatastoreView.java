package io.opensdrs.agent.heartbeat;

import io.opensdrs.shared.agent.v1.DatastoreState;
import java.util.List;

/**
 * One host's view of a datastore's heartbeat file after a period: its own block, the leader,
 * the live hosts and the datastore-wide statistics summed over every live block (Pesto §5.1.1).
 *
 * @param ownIndex -1 when this host holds no block
 */
public record DatastoreView(
        String datastore,
        String host,
        int ownIndex,
        long generation,
        long heartbeat,
        long periodEndMs,
        boolean leader,
        String leaderHost,
        List<String> liveHosts,
        long ioCount,
        double outstandingIos,
        double meanLatencyMs,
        boolean idle) {

    public DatastoreState toProto() {
        return DatastoreState.newBuilder()
                .setDatastore(datastore)
                .setHost(host)
                .setBlockIndex(Math.max(ownIndex, 0))
                .setGeneration(generation)
                .setHeartbeat(heartbeat)
                .setPeriodEndMs(periodEndMs)
                .setIsLeader(leader)
                .setLeaderHost(leaderHost == null ? "" : leaderHost)
                .addAllLiveHosts(liveHosts)
                .setIoCount(ioCount)
                .setOutstandingIos(outstandingIos)
                .setMeanLatencyMs(meanLatencyMs)
                .setIdle(idle)
                .build();
    }
}
