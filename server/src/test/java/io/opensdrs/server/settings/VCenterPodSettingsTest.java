package io.opensdrs.server.settings;

import io.opensdrs.server.vsphere.StorageDrsRules.PodSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a settings change asks of vCenter's ConfigureStorageDrsForPod_Task. */
class VCenterPodSettingsTest {

    /**
     * vCenter's podConfig.ioLoadBalanceEnabled is a plain boolean, false until set, and counts once
     * the pod has an ioLoadBalanceConfig: a first I/O threshold sent alone left a pod that never had
     * one holding I/O balancing off (seen in the e2e run's server log: the next sync "follows:
     * ioLoadBalanceEnabled = false" after the Settings page saved 30 ms).
     */
    @Test
    void anIoThresholdChangeCarriesIoLoadBalancingAsTheServerHoldsIt() {
        ClusterSettings s = ClusterSettings.defaults("group-p1");
        PodSettings before = VCenterPodSettings.of(s);
        s.setLatencyThresholdMs(30);
        PodSettings change = VCenterPodSettings.difference(before, VCenterPodSettings.of(s));
        assertThat(change.latencyThresholdMs()).isEqualTo(30);
        assertThat(change.ioLoadBalanceEnabled()).as("sent beside the threshold, though unchanged").isTrue();
        assertThat(change.keepVmdksTogether()).as("unchanged and not I/O: left out").isNull();

        ClusterSettings off = ClusterSettings.defaults("group-p1");
        off.setIoLoadBalanceEnabled(false);
        PodSettings offBefore = VCenterPodSettings.of(off);
        off.setIoImbalanceThreshold(off.getIoImbalanceThreshold() + 1);
        assertThat(VCenterPodSettings.difference(offBefore, VCenterPodSettings.of(off)).ioLoadBalanceEnabled()).isFalse();

        ClusterSettings keep = ClusterSettings.defaults("group-p1");
        PodSettings keepBefore = VCenterPodSettings.of(keep);
        keep.setKeepVmdksTogether(false);
        PodSettings keepChange = VCenterPodSettings.difference(keepBefore, VCenterPodSettings.of(keep));
        assertThat(keepChange.keepVmdksTogether()).isFalse();
        assertThat(keepChange.ioLoadBalanceEnabled()).as("no I/O setting changed: I/O balancing left out").isNull();
    }
}
