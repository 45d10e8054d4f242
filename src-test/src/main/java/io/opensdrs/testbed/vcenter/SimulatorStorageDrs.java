package io.opensdrs.testbed.vcenter;

import io.opensdrs.scenario.DatastoreClusterSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.RuleSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A scenario's Storage DRS rules and per-VM settings, made in our vCenter simulator as an
 * administrator makes them in the vSphere Client: VM anti-affinity rules, a VM's VMDK
 * anti-affinity rule, a VM's own "keep VMDKs together" and its automation level — each one
 * {@code ConfigureStorageDrsForPod_Task} on the VM's datastore cluster, through
 * {@code vcsim sdrs-rule}. The inventory file ({@link SimulatorInventory}) has no place for them;
 * without this the server never sees the scenario's rules.
 */
public final class SimulatorStorageDrs {

    private SimulatorStorageDrs() {
    }

    /** The {@code vcsim sdrs-rule} arguments (after {@code -u URL}) that make the scenario's rules and VM settings. */
    public static List<List<String>> commands(Scenario world) {
        List<List<String>> out = new ArrayList<>();
        for (RuleSpec r : world.rules()) {
            if (r instanceof RuleSpec.VmAntiAffinity va) {
                Set<String> pods = new LinkedHashSet<>();
                va.vms().forEach(vm -> pods.add(podOf(world, vm, r.name())));
                if (pods.size() != 1) {
                    throw new IllegalArgumentException("rule " + r.name() + ": its VMs are in datastore clusters " + pods
                            + "; a VM anti-affinity rule belongs to one");
                }
                out.add(List.of("-pod", pods.iterator().next(), "-vm-anti-affinity", r.name() + "=" + String.join(",", va.vms())));
            } else if (r instanceof RuleSpec.VmdkAntiAffinity da) {
                out.add(List.of("-pod", podOf(world, da.vm(), r.name()), "-vmdk-anti-affinity", da.vm() + "=" + String.join(",", da.disks())));
            } else if (r instanceof RuleSpec.KeepTogether kt) {
                out.add(List.of("-pod", podOf(world, kt.vm(), r.name()), "-keep-together", kt.vm() + "=" + kt.enabled()));
            }
        }
        for (VmSpec vm : world.vms()) {
            boolean inPod = vm.disks().stream().anyMatch(d -> cluster(world, d.datastore()) != null);
            if (!inPod) {
                continue;
            }
            if (vm.keepTogether() != null) {
                out.add(List.of("-pod", podOf(world, vm.name(), "vm " + vm.name()), "-keep-together", vm.name() + "=" + vm.keepTogether()));
            }
            if (!vm.automation().equals("default")) {
                out.add(List.of("-pod", podOf(world, vm.name(), "vm " + vm.name()), "-vm-behavior", vm.name() + "=" + vm.automation()));
            }
        }
        return out;
    }

    /** Makes them in the simulator at {@code url} (with credentials) with its own binary. */
    public static void apply(Path vcsimBinary, String url, Scenario world) throws IOException, InterruptedException {
        for (List<String> args : commands(world)) {
            List<String> cmd = new ArrayList<>(List.of(vcsimBinary.toString(), "sdrs-rule", "-u", url));
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("vcsim sdrs-rule " + String.join(" ", args) + " failed: " + out.strip());
            }
        }
    }

    /** The datastore cluster of the VM's disks; a VM whose disks are in none, or in two, has no Storage DRS settings. */
    private static String podOf(Scenario world, String vmName, String what) {
        VmSpec vm = world.vms().stream().filter(v -> v.name().equals(vmName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(what + ": no VM " + vmName + " in the scenario"));
        Set<String> pods = vm.disks().stream().map(DiskSpec::datastore).map(ds -> cluster(world, ds))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (pods.size() != 1 || pods.contains(null)) {
            throw new IllegalArgumentException(what + ": VM " + vmName + " has disks outside one datastore cluster ("
                    + vm.disks().stream().map(DiskSpec::datastore).distinct().toList() + ")");
        }
        return pods.iterator().next();
    }

    private static String cluster(Scenario world, String datastore) {
        return world.datastoreClusters().stream().filter(c -> c.datastores().contains(datastore)).map(DatastoreClusterSpec::name)
                .findFirst().orElse(null);
    }
}
