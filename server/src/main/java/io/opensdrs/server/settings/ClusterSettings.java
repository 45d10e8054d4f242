package io.opensdrs.server.settings;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.DynamicUpdate;

import java.time.Instant;

/**
 * Storage DRS settings of one datastore cluster (SPEC §4; defaults from VMware's documentation).
 * An update writes only the columns it changed: the inventory sync adopting vCenter's values and a
 * settings {@code PUT} may each have read the row before the other committed, and writing every
 * column would put back what the other had just changed (the model kind set in the Settings page,
 * reverted by a sync that adopted a threshold).
 */
@Entity
@DynamicUpdate
@Table(name = "cluster_settings")
public class ClusterSettings {

    @Id
    @Column(name = "cluster_moid")
    private String clusterMoid;
    /** {@code auto} (held-out accuracy decides) or a model registry name. */
    private String modelKind = "auto";
    /** vCenter's "Turn ON vSphere Storage DRS" (podConfig.enabled): off, no balancing run is made. */
    private boolean storageDrsEnabled = true;
    /** manual = recommendations only; automated = applied. */
    private String automationLevel = "manual";
    private int spaceThresholdPct = 80;
    private int minSpaceDifferencePct = 5;
    private int latencyThresholdMs = 15;
    private int ioImbalanceThreshold = 5;
    /** SDRS loadBalanceInterval, 16 h by default (SPEC §1). */
    private int loadBalanceIntervalMinutes = 960;
    private boolean ioLoadBalanceEnabled = true;
    /** Intra-VM affinity, on by default (SPEC §4). */
    private boolean keepVmdksTogether = true;
    /**
     * "Ignore affinity rules for maintenance" (SPEC §4; vCenter's pod option
     * IgnoreAffinityRulesForMaintenance), off by default: a maintenance request that does not say
     * otherwise, and one begun in the vSphere Client, follows it.
     */
    private boolean ignoreAffinityForMaintenance = false;
    /** α for the congestion threshold L_α = C / (1 − α) (Pesto Eq. 9; SIOC's default 90 %). */
    private double congestionAlpha = 0.9;
    /** Space balancing's own level; null inherits {@link #automationLevel} (SPEC §4 per subsystem). */
    private String spaceAutomationLevel;
    /** IO balancing's own level; null inherits {@link #automationLevel}. */
    private String ioAutomationLevel;
    /** Rule enforcement's own level (moves that fix a broken rule); null inherits {@link #automationLevel}. */
    private String ruleAutomationLevel;
    /** VM evacuation's own level (maintenance mode); null inherits {@link #automationLevel}. */
    private String evacuationAutomationLevel;
    /** {@code auto} (romano when every fitted model is Romano's, else pesto) or basil, pesto, romano. */
    private String strategy = "auto";
    /** {@code utilization} (spaceThresholdPct) or {@code freeSpace} (freeSpaceThresholdGb), SPEC §4. */
    private String spaceThresholdMode = "utilization";
    private int freeSpaceThresholdGb = 50;
    private Instant updatedAt = Instant.EPOCH;

    protected ClusterSettings() {
    }

    public static ClusterSettings defaults(String clusterMoid) {
        ClusterSettings s = new ClusterSettings();
        s.clusterMoid = clusterMoid;
        return s;
    }

    public String getClusterMoid() { return clusterMoid; }
    public String getModelKind() { return modelKind; }
    public void setModelKind(String v) { modelKind = v; }
    public String getAutomationLevel() { return automationLevel; }
    public void setAutomationLevel(String v) { automationLevel = v; }
    public int getSpaceThresholdPct() { return spaceThresholdPct; }
    public void setSpaceThresholdPct(int v) { spaceThresholdPct = v; }
    public int getMinSpaceDifferencePct() { return minSpaceDifferencePct; }
    public void setMinSpaceDifferencePct(int v) { minSpaceDifferencePct = v; }
    public int getLatencyThresholdMs() { return latencyThresholdMs; }
    public void setLatencyThresholdMs(int v) { latencyThresholdMs = v; }
    public int getIoImbalanceThreshold() { return ioImbalanceThreshold; }
    public void setIoImbalanceThreshold(int v) { ioImbalanceThreshold = v; }
    public int getLoadBalanceIntervalMinutes() { return loadBalanceIntervalMinutes; }
    public void setLoadBalanceIntervalMinutes(int v) { loadBalanceIntervalMinutes = v; }
    public boolean isStorageDrsEnabled() { return storageDrsEnabled; }
    public void setStorageDrsEnabled(boolean v) { storageDrsEnabled = v; }
    public boolean isIoLoadBalanceEnabled() { return ioLoadBalanceEnabled; }
    public void setIoLoadBalanceEnabled(boolean v) { ioLoadBalanceEnabled = v; }
    public boolean isKeepVmdksTogether() { return keepVmdksTogether; }
    public void setKeepVmdksTogether(boolean v) { keepVmdksTogether = v; }
    public boolean isIgnoreAffinityForMaintenance() { return ignoreAffinityForMaintenance; }
    public void setIgnoreAffinityForMaintenance(boolean v) { ignoreAffinityForMaintenance = v; }
    public double getCongestionAlpha() { return congestionAlpha; }
    public void setCongestionAlpha(double v) { congestionAlpha = v; }
    public String getSpaceAutomationLevel() { return spaceAutomationLevel; }
    public void setSpaceAutomationLevel(String v) { spaceAutomationLevel = v; }
    public String getRuleAutomationLevel() { return ruleAutomationLevel; }
    public void setRuleAutomationLevel(String v) { ruleAutomationLevel = v; }
    public String getEvacuationAutomationLevel() { return evacuationAutomationLevel; }
    public void setEvacuationAutomationLevel(String v) { evacuationAutomationLevel = v; }
    public String getIoAutomationLevel() { return ioAutomationLevel; }
    public void setIoAutomationLevel(String v) { ioAutomationLevel = v; }
    public String getStrategy() { return strategy; }
    public void setStrategy(String v) { strategy = v; }
    public String getSpaceThresholdMode() { return spaceThresholdMode; }
    public void setSpaceThresholdMode(String v) { spaceThresholdMode = v; }
    public int getFreeSpaceThresholdGb() { return freeSpaceThresholdGb; }
    public void setFreeSpaceThresholdGb(int v) { freeSpaceThresholdGb = v; }
    public Instant getUpdatedAt() { return updatedAt; }
    public void setUpdatedAt(Instant v) { updatedAt = v; }
}
