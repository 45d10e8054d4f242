package io.opensdrs.server.vsphere;

/**
 * A datastore's Storage I/O Control settings as vCenter holds them ({@code Datastore.iormConfiguration},
 * set with StorageResourceManager.ConfigureDatastoreIORM_Task); ESXi throttles the datastore's IO
 * when its latency passes the congestion threshold.
 *
 * @param enabled               whether SIOC is on for the datastore
 * @param congestionThresholdMode {@code automatic} (vCenter derives the threshold from
 *                              {@code percentOfPeakThroughput}) or {@code manual}
 * @param congestionThresholdMs the manual threshold, ms
 * @param percentOfPeakThroughput the automatic mode's fraction of peak, percent; null when not held
 */
public record IormConfiguration(boolean enabled, String congestionThresholdMode, int congestionThresholdMs,
                                Integer percentOfPeakThroughput) {

    public static final String MANUAL = "manual";

    public boolean manual() {
        return MANUAL.equals(congestionThresholdMode);
    }
}
