package io.opensdrs.testbed.vcenter;

import io.opensdrs.scenario.RuleSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.ScenarioCatalog;
import io.opensdrs.scenario.VmSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What of a scenario's Storage DRS rules and VM settings is made in vCenter, and on which datastore cluster. */
class SimulatorStorageDrsTest {

    private static Scenario with(Scenario s, List<VmSpec> vms, List<RuleSpec> rules) {
        return new Scenario(s.name(), s.description(), s.seed(), s.hours(), s.datastoreClusters(), s.datastores(), s.hosts(), vms,
                rules, s.events());
    }

    @Test
    void everyRuleAndVmSettingIsMadeOnItsVmsDatastoreCluster() throws Exception {
        Scenario demo = ScenarioCatalog.example("demo");
        List<VmSpec> vms = new ArrayList<>();
        for (VmSpec vm : demo.vms()) {
            vms.add(switch (vm.name()) {
                case "gold-web2" -> new VmSpec(vm.name(), vm.host(), "disabled", vm.keepTogether(), vm.disks());
                case "silver-web6" -> new VmSpec(vm.name(), vm.host(), vm.automation(), Boolean.FALSE, vm.disks());
                default -> vm;
            });
        }
        List<RuleSpec> rules = new ArrayList<>(demo.rules());
        rules.add(new RuleSpec.VmdkAntiAffinity("db-apart", "gold-oltp1", List.of("data", "system")));
        rules.add(new RuleSpec.KeepTogether("log-together", "gold-log8", true));
        assertThat(SimulatorStorageDrs.commands(with(demo, vms, rules))).containsExactly(
                List.of("-pod", "gold", "-vm-anti-affinity", "oltp-apart=gold-oltp1,gold-oltp5"),
                List.of("-pod", "gold", "-vmdk-anti-affinity", "gold-oltp1=data,system"),
                List.of("-pod", "gold", "-keep-together", "gold-log8=true"),
                List.of("-pod", "gold", "-vm-behavior", "gold-web2=disabled"),
                List.of("-pod", "silver", "-keep-together", "silver-web6=false"));
    }

    @Test
    void aRuleOverTwoDatastoreClustersOrAnUnknownVmIsRefusedNamingIt() throws Exception {
        Scenario demo = ScenarioCatalog.example("demo");
        assertThatThrownBy(() -> SimulatorStorageDrs.commands(with(demo, demo.vms(),
                List.of(new RuleSpec.VmAntiAffinity("across", List.of("gold-oltp1", "silver-oltp1"))))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rule across: its VMs are in datastore clusters [gold, silver]; a VM anti-affinity rule belongs to one");
        assertThatThrownBy(() -> SimulatorStorageDrs.commands(with(demo, demo.vms(),
                List.of(new RuleSpec.KeepTogether("ghost", "nobody", true)))))
                .hasMessage("ghost: no VM nobody in the scenario");
    }
}
