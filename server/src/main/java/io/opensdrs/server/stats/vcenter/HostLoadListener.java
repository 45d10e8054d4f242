package io.opensdrs.server.stats.vcenter;

import java.util.List;
import java.util.Map;

/**
 * Told each host's IO on the datastores it mounts after every read of vCenter's counters. The
 * agents' side implements it (ingest's {@code HostLoadPublisher} sends the loads to
 * each host's agents), so that statistics need not know how agents are reached.
 */
public interface HostLoadListener {

    /** One host's load on one datastore, and the load of hosts without an agent there. */
    record Load(String datastoreName, double iops, double outstandingIos, double meanLatencyMs,
                double unrepresentedIops, double unrepresentedOutstandingIos) {
    }

    /** Takes every host's loads, keyed by host name; answers how many agents took them. */
    int publish(Map<String, List<Load>> loadsByHostName, long sampleEndMs, int sampleSeconds);
}
