package io.opensdrs.server.vsphere.object;

import io.opensdrs.balance.VmOverride;
import io.opensdrs.server.vsphere.StorageDrsRules;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsAutomationConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsConfigSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsPodConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsPodConfigSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsSpaceLoadBalanceConfig;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsVmConfigInfo;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.StorageDrsVmConfigSpec;
import io.opensdrs.server.vsphere.vim25.StorageDrsTypes.VirtualDiskAntiAffinityRuleSpec;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.opensdrs.server.vsphere.object.StoragePodTest.vm;
import static org.assertj.core.api.Assertions.assertThat;

/** The ConfigureStorageDrsForPod_Task specs: only what the server changes differs from what the pod holds. */
class StorageResourceManagerTest {

    static StorageDrsRules.PodSettings change(Integer spaceThresholdPct, String ioAutomationLevel, Boolean ignoreAffinity) {
        return new StorageDrsRules.PodSettings(null, null, null, null, null, spaceThresholdPct, null, null, null, null,
                null, ioAutomationLevel, null, null, ignoreAffinity);
    }

    @Test
    void aConfigObjectIsSentWholeWithWhatThePodHoldsAndTheServerDoesNotSet() {
        StorageDrsPodConfigInfo now = new StorageDrsPodConfigInfo();
        now.spaceLoadBalanceConfig = new StorageDrsSpaceLoadBalanceConfig();
        now.spaceLoadBalanceConfig.spaceThresholdMode = "utilization";
        now.spaceLoadBalanceConfig.spaceUtilizationThreshold = 80;
        now.spaceLoadBalanceConfig.freeSpaceThresholdGB = 50;
        now.spaceLoadBalanceConfig.minSpaceUtilizationDifference = 5;

        StorageDrsPodConfigSpec pod = StorageResourceManager.podConfigSpec(now, change(70, null, null));
        assertThat(pod.spaceLoadBalanceConfig.spaceUtilizationThreshold).isEqualTo(70);
        assertThat(pod.spaceLoadBalanceConfig.spaceThresholdMode).isEqualTo("utilization");
        assertThat(pod.spaceLoadBalanceConfig.freeSpaceThresholdGB).isEqualTo(50);
        assertThat(pod.spaceLoadBalanceConfig.minSpaceUtilizationDifference).isEqualTo(5);
        assertThat(pod.ioLoadBalanceConfig).as("nothing of it changes").isNull();
        assertThat(pod.automationOverrides).isNull();
        assertThat(pod.enabled).isNull();
        assertThat(pod.option).isEmpty();
    }

    @Test
    void inheritClearsASubsystemsModeAndTheOthersStay() {
        StorageDrsPodConfigInfo now = new StorageDrsPodConfigInfo();
        now.automationOverrides = new StorageDrsAutomationConfig();
        now.automationOverrides.ioLoadBalanceAutomationMode = "manual";
        now.automationOverrides.spaceLoadBalanceAutomationMode = "automated";

        StorageDrsPodConfigSpec pod = StorageResourceManager.podConfigSpec(now, change(null, "inherit", null));
        assertThat(pod.automationOverrides.ioLoadBalanceAutomationMode).isNull();
        assertThat(pod.automationOverrides.spaceLoadBalanceAutomationMode).isEqualTo("automated");
        assertThat(pod.spaceLoadBalanceConfig).isNull();
    }

    @Test
    void theMaintenanceOptionIsAddedOrEdited() {
        StorageDrsPodConfigSpec added = StorageResourceManager.podConfigSpec(new StorageDrsPodConfigInfo(), change(null, null, true));
        assertThat(added.option).singleElement().satisfies(o -> {
            assertThat(o.operation).isEqualTo("add");
            assertThat(o.option.key).isEqualTo(StorageDrsRules.PodSettings.IGNORE_AFFINITY_FOR_MAINTENANCE);
            assertThat(o.option.value.value).isEqualTo("1");
        });
        StorageDrsPodConfigSpec edited = StorageResourceManager.podConfigSpec(StoragePodTest.withOption("1"), change(null, null, false));
        assertThat(edited.option).singleElement().satisfies(o -> {
            assertThat(o.operation).isEqualTo("edit");
            assertThat(o.option.value.value).isEqualTo("0");
        });
    }

    @Test
    void aVmsAutomationRewritesItsEntryAndKeepsItsRules() {
        StorageDrsConfigInfo config = new StorageDrsConfigInfo();
        StorageDrsVmConfigInfo apart = new StorageDrsVmConfigInfo();
        apart.vm = vm("vm-1");
        apart.intraVmAffinity = false;
        apart.intraVmAntiAffinity = new VirtualDiskAntiAffinityRuleSpec();
        apart.intraVmAntiAffinity.name = "logs-apart";
        StorageDrsVmConfigInfo manualOnly = new StorageDrsVmConfigInfo();
        manualOnly.vm = vm("vm-2");
        manualOnly.behavior = "manual";
        config.vmConfig.addAll(List.of(apart, manualOnly));

        Map<String, VmOverride> automation = new LinkedHashMap<>();
        automation.put("vm-1", VmOverride.EXCLUDED);
        automation.put("vm-2", VmOverride.DEFAULT);
        automation.put("vm-3", VmOverride.MANUAL);
        StorageDrsConfigSpec spec = StorageResourceManager.spec(config, StorageDrsRules.PodSettings.UNSET, automation);

        assertThat(spec.podConfigSpec).as("no pod setting asked for").isNull();
        List<StorageDrsVmConfigSpec> c = spec.vmConfigSpec;
        assertThat(c).extracting(x -> x.operation).containsExactly("remove", "add", "remove", "add");
        assertThat(c.get(0).removeKey).isEqualTo(vm("vm-1"));
        assertThat(c.get(1).info.enabled).isFalse();
        assertThat(c.get(1).info.intraVmAffinity).isFalse();
        assertThat(c.get(1).info.intraVmAntiAffinity.name).isEqualTo("logs-apart");
        assertThat(c.get(2).removeKey).as("DEFAULT with nothing else held: the entry goes").isEqualTo(vm("vm-2"));
        assertThat(c.get(3).info.vm).isEqualTo(vm("vm-3"));
        assertThat(c.get(3).info.behavior).isEqualTo("manual");
        assertThat(c.get(3).info.enabled).isNull();
    }
}
