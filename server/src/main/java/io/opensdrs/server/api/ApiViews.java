package io.opensdrs.server.api;

import io.opensdrs.server.models.ModelRecord;
import io.opensdrs.server.settings.SettingsRequest;

import java.util.List;
import java.util.Map;

/** The REST API's response shapes. */
public final class ApiViews {

    private ApiViews() {
    }

    public record ClusterView(String id, String name, String datacenter, int datastores, String modelKind,
                              String selectedModelKind, SettingsView settings, StorageDrsStatusView status) {
    }

    /**
     * Where Storage DRS stands on a cluster, as the vSphere Client's Storage DRS tab shows it: recommendations awaiting
     * an administrator, the last run (when, and what started it: scheduled, manual, space-threshold, ...), the next
     * scheduled run (null while Storage DRS is off), and the faults of the last 24 hours.
     */
    public record StorageDrsStatusView(long pendingRecommendations, String lastRunAt, String lastRunTrigger, String nextRunAt,
                                       long faultsLast24h) {
    }

    public record SettingsView(String modelKind, String automationLevel, int spaceThresholdPct, int minSpaceDifferencePct,
                               int latencyThresholdMs, int ioImbalanceThreshold, int loadBalanceIntervalMinutes,
                               boolean ioLoadBalanceEnabled, boolean keepVmdksTogether, double congestionAlpha,
                               String spaceAutomationLevel, String ioAutomationLevel, String strategy, String spaceThresholdMode,
                               int freeSpaceThresholdGb, List<SettingsRequest.VmOverrideEntry> vmOverrides,
                               List<SettingsRequest.ServiceClassEntry> serviceClasses, boolean storageDrsEnabled,
                               boolean ignoreAffinityForMaintenance, String ruleAutomationLevel, String evacuationAutomationLevel) {
    }

    /**
     * A Storage DRS rule as vCenter holds it: {@code vmAntiAffinity} (members: VM names),
     * {@code vmdkAntiAffinity} (members: the VM's disk files) or {@code intraVmAffinity} (a VM's own
     * keep-VMDKs-together setting; enabled = kept together).
     */
    public record RuleView(String id, String kind, String name, boolean enabled, List<String> members) {
    }

    /**
     * A VM's Storage DRS overrides: its automation level ({@code default}, {@code manual},
     * {@code automated}, {@code excluded}; held in vCenter too, as the vSphere Client's "VM
     * Overrides" show it), its SLEDS service class (this product's alone) and vCenter's
     * keep-together setting (null: the cluster's default).
     */
    public record VmOverrideView(String vm, String vmName, String automationLevel, Boolean keepVmdksTogether,
                                 String serviceClass) {
    }

    /** Space of a datastore; utilisation in percent of capacity. */
    public record SpaceView(long capacityBytes, long freeBytes, double utilizationPct) {
    }

    /** @param heartbeat the agents' newest view of its heartbeat file (leader, live hosts, idle); null before any */
    public record DatastoreView(String name, String id, String cluster, boolean accessible, String maintenanceMode,
                                SpaceView space, ModelSummary model, HeartbeatView heartbeat) {
    }

    public record HeartbeatView(String leaderHost, List<String> liveHosts, boolean idle, String reportedBy, String receivedAt) {
    }

    public record ModelSummary(String kind, String source, Map<String, Double> parameters, Double rSquared, String fittedAt) {
        static ModelSummary of(ModelRecord m) {
            return new ModelSummary(m.kind(), m.source(), m.parameters(), m.rSquared(),
                    m.fittedAt() == null ? null : m.fittedAt().toString());
        }
    }

    public record DatastoreDetail(DatastoreView datastore, List<String> hosts, int disks,
                                  List<PercentilesView> percentiles) {
    }

    /** p50/p70/p90 per metric over one window. */
    public record PercentilesView(String subject, String window, Long fromMs, Long lastSampleMs, long samples,
                                  Map<String, Map<String, Double>> metrics) {
    }

    public record ModelView(String datastore, String clusterModelKind, ModelRecord model, Map<String, Double> heldOutErrorMs) {
    }

    public record DiskView(String vm, String vmName, int diskKey, String file, long sizeBytes, String datastore) {
    }

    public record AgentIssued(String agentId, String token, String issuedAt, String note) {
    }

    /**
     * @param diskKey the disk, when the recommendation moves one; null for several or the whole VM
     * @param homeOnly the VM's home alone moves (its configuration files), its disks stay
     * @param explained the balancing engine made it and its explanation is at {@code /recommendations/{id}/explanation}
     */
    public record RecommendationView(long id, String vm, Integer diskKey, String source, String destination, String reason,
                                     Double benefit, Double cost, Double confidence, String state, String createdAt,
                                     boolean homeOnly, boolean explained) {
    }

    public record HistoryView(long id, String action, String detail, Long recommendationId, String occurredAt) {
    }

    public record FaultView(long id, String subject, String reason, String createdAt) {
    }

    /** One stored statistics window of a virtual disk (reads and writes counted over {@code seconds}). */
    public record DiskWindowView(String windowStart, String windowEnd, int seconds, String datastore, long reads, long writes,
                                 long bytesRead, long bytesWritten, double outstandingIos, double meanLatencyMs,
                                 double ioSizeKb, double readShare, double randomness) {
    }

    /**
     * How a cluster's IO statistics are read: from vCenter's realtime performance counters, the newest
     * sample read, the last read, and what went wrong reading them.
     */
    /** lastReadVms: running VMs the last read asked vCenter about; lastReadWindows: disk windows it stored. */
    public record StatisticsView(String source, int intervalSeconds, String lastReadAt, long lastReadMillis,
                                 int lastReadVms, int lastReadWindows, String newestSample, String nextReadIn,
                                 String lastFailure, List<StatisticsFaultView> faults) {
    }

    public record StatisticsFaultView(String kind, String subject, String detail, String firstSeen, String lastSeen,
                                      long occurrences, boolean active, String resolvedAt) {
    }

    public record SnapshotView(String metric, long windowSeconds, double p50, double p70, double p90, long samples, String takenAt) {
    }

    /** The model kind the cluster is configured with, the kind in use, and each kind's held-out mean absolute error in ms. */
    /**
     * @param selected the kind the cluster's datastores use, or "per datastore: …" when they differ
     * @param heldOutMeanAbsErrorMs per kind, over all the cluster's datastores
     * @param selectedByDatastore the kind each datastore uses (under {@code auto}: its lowest held-out error)
     */
    public record ModelSelectionView(String configured, String selected, Map<String, Double> heldOutMeanAbsErrorMs,
                                     Map<String, String> selectedByDatastore) {
    }
}
