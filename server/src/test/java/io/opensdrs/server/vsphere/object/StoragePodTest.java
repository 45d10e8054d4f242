package io.opensdrs.server.vsphere.object;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.ClusterAntiAffinityRuleSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.OptionValue;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsAutomationConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsPodConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsSpaceLoadBalanceConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsVmConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.VirtualDiskAntiAffinityRuleSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod's storageDrsConfig read into the server's StorageDrsRules. */
class StoragePodTest {

    static ManagedObjectReference vm(String id) {
        return new ManagedObjectReference("VirtualMachine", id);
    }

    @Test
    void aPodWithoutAConfigHasNoRules() {
        assertThat(StoragePod.rules(null)).isEqualTo(StorageDrsRules.NONE);
        assertThat(StoragePod.rules("an element JAXB could not type")).isEqualTo(StorageDrsRules.NONE);
    }

    @Test
    void rulesAndVmEntriesAreReadAndAnUnnamedRuleIsNamedAfterItsKey() {
        StorageDrsConfigInfo c = new StorageDrsConfigInfo();
        c.podConfig = new StorageDrsPodConfigInfo();
        ClusterAntiAffinityRuleSpec named = new ClusterAntiAffinityRuleSpec();
        named.key = 3;
        named.name = "web-apart";
        named.vm.addAll(List.of(vm("vm-1"), vm("vm-2")));
        ClusterAntiAffinityRuleSpec unnamed = new ClusterAntiAffinityRuleSpec();
        unnamed.key = 7;
        unnamed.enabled = false;
        c.podConfig.rule.addAll(List.of(named, unnamed));

        StorageDrsVmConfigInfo apart = new StorageDrsVmConfigInfo();
        apart.vm = vm("vm-1");
        apart.intraVmAffinity = false;
        apart.intraVmAntiAffinity = new VirtualDiskAntiAffinityRuleSpec();
        apart.intraVmAntiAffinity.name = "logs-apart";
        apart.intraVmAntiAffinity.diskId.addAll(List.of(2000, 2001));
        apart.behavior = " ";
        StorageDrsVmConfigInfo excluded = new StorageDrsVmConfigInfo();
        excluded.vm = vm("vm-2");
        excluded.enabled = false;
        StorageDrsVmConfigInfo noVm = new StorageDrsVmConfigInfo();
        noVm.behavior = "manual";
        c.vmConfig.addAll(List.of(apart, excluded, noVm));

        StorageDrsRules r = StoragePod.rules(c);
        assertThat(r.vmAntiAffinity()).containsExactly(
                new StorageDrsRules.VmAntiAffinity("web-apart", true, List.of("vm-1", "vm-2")),
                new StorageDrsRules.VmAntiAffinity("rule-7", false, List.of()));
        assertThat(r.vms()).as("an entry without its VM is left out").containsExactly(
                new StorageDrsRules.VmRules("vm-1", false, new StorageDrsRules.VmdkAntiAffinity("logs-apart", true, List.of(2000, 2001)),
                        null, null),
                new StorageDrsRules.VmRules("vm-2", null, null, false, null));
        assertThat(r.vms().get(1).automation()).isEqualTo(VmOverride.EXCLUDED);
    }

    @Test
    void blanksAndZerosAreValuesThePodDoesNotHold() {
        StorageDrsPodConfigInfo p = new StorageDrsPodConfigInfo();
        p.enabled = true;
        p.defaultVmBehavior = "";
        p.ioLoadBalanceEnabled = false;
        p.spaceLoadBalanceConfig = new StorageDrsSpaceLoadBalanceConfig();
        p.spaceLoadBalanceConfig.spaceThresholdMode = "utilization";
        p.spaceLoadBalanceConfig.spaceUtilizationThreshold = 80;
        p.spaceLoadBalanceConfig.freeSpaceThresholdGB = 0;
        p.automationOverrides = new StorageDrsAutomationConfig();
        p.automationOverrides.spaceLoadBalanceAutomationMode = "automated";
        p.automationOverrides.ioLoadBalanceAutomationMode = "";

        StorageDrsRules.PodSettings s = StoragePod.podSettings(p);
        assertThat(s.storageDrsEnabled()).isTrue();
        assertThat(s.automationLevel()).isNull();
        assertThat(s.ioLoadBalanceEnabled()).as("held only beside an ioLoadBalanceConfig").isNull();
        assertThat(s.spaceThresholdMode()).isEqualTo("utilization");
        assertThat(s.spaceThresholdPct()).isEqualTo(80);
        assertThat(s.freeSpaceThresholdGb()).isNull();
        assertThat(s.latencyThresholdMs()).isNull();
        assertThat(s.spaceAutomationLevel()).isEqualTo("automated");
        assertThat(s.ioAutomationLevel()).as("a blank mode follows the pod").isEqualTo("inherit");
        assertThat(s.ignoreAffinityForMaintenance()).isNull();
    }

    @Test
    void theMaintenanceOptionIsASwitch() {
        for (var e : java.util.Map.of("1", true, "true", true, "0", false, "FALSE", false).entrySet()) {
            assertThat(StoragePod.podSettings(withOption(e.getKey())).ignoreAffinityForMaintenance()).as(e.getKey())
                    .isEqualTo(e.getValue());
        }
        assertThat(StoragePod.podSettings(withOption("maybe")).ignoreAffinityForMaintenance()).isNull();
    }

    static StorageDrsPodConfigInfo withOption(String value) {
        StorageDrsPodConfigInfo p = new StorageDrsPodConfigInfo();
        OptionValue o = new OptionValue();
        o.key = StorageDrsRules.PodSettings.IGNORE_AFFINITY_FOR_MAINTENANCE;
        o.value = value;
        p.option.add(o);
        return p;
    }
}
