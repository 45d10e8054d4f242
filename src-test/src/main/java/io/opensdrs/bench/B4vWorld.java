package io.opensdrs.bench;

import io.opensdrs.scenario.DatastoreClusterSpec;
import io.opensdrs.scenario.DatastoreSpec;
import io.opensdrs.scenario.DiskSpec;
import io.opensdrs.scenario.HostSpec;
import io.opensdrs.scenario.Scenario;
import io.opensdrs.scenario.VmSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * B4v's world: a scenario's datastores, clusters and hosts with exactly N virtual disks on the
 * datastores of its datastore clusters (the disks the server reads). The scenario's own VMs come
 * first, in order, as many as fit in N; then generated VMs of three disks each (the last one one or
 * two), on the hosts in turn, each VM's disks on the next datastore of a cluster its host mounts
 * that still has room for them (thick, 1 GB each, plus the VM's swap file), round-robin per host.
 * vCenter's realtime counters exist for running VMs only, and the simulator powers every VM on.
 */
public final class B4vWorld {
    /** Size of a generated disk, GB (thick: the datastore accounts for it; the file is sparse). */
    static final double GENERATED_DISK_GB = 1;
    static final int GENERATED_DISKS_PER_VM = 3;
    /** The simulator's default VM memory, MB: a running VM's swap file in its home. */
    private static final int DEFAULT_MEMORY_MB = 32;
    static final String GENERATED_PREFIX = "b4v-vm";

    /** The world, and how it was made. */
    public record Made(Scenario world, int disks, int scenarioVms, int generatedVms, int scenarioVmsLeftOut) {
    }

    private B4vWorld() {
    }

    /**
     * @param disks the disks wanted on the scenario's cluster datastores (≥ 1)
     * @throws IllegalArgumentException naming {@code --scenario} or {@code --disks} when it cannot be made
     */
    public static Made of(Scenario base, int disks) {
        Set<String> clustered = new LinkedHashSet<>();
        for (DatastoreClusterSpec c : base.datastoreClusters()) {
            clustered.addAll(c.datastores());
        }
        if (clustered.isEmpty()) {
            throw new IllegalArgumentException("--scenario " + base.name() + " has no datastore cluster: the server reads"
                    + " the IO of VMs on a datastore cluster's datastores only");
        }
        Map<String, Double> free = new HashMap<>();
        for (DatastoreSpec d : base.datastores()) {
            free.put(d.name(), d.capacityGB());
        }
        List<VmSpec> vms = new ArrayList<>();
        int count = 0;
        int kept = 0;
        int leftOut = 0;
        for (VmSpec vm : base.vms()) {
            int on = (int) vm.disks().stream().filter(d -> clustered.contains(d.datastore())).count();
            if (on == 0 || count + on > disks) {
                leftOut++;
                continue;
            }
            vms.add(vm);
            count += on;
            kept++;
            for (DiskSpec d : vm.disks()) {
                free.merge(d.datastore(), -d.sizeGB(), Double::sum);
            }
            if (!vm.disks().isEmpty()) {
                free.merge(vm.disks().get(0).datastore(), -swapGB(vm), Double::sum);
            }
        }
        List<HostSpec> hosts = base.hosts().stream().filter(h -> h.datastores().stream().anyMatch(clustered::contains)).toList();
        if (count < disks && hosts.isEmpty()) {
            throw new IllegalArgumentException("--scenario " + base.name() + ": no host mounts a datastore of a cluster");
        }
        Map<String, Integer> nextDatastore = new HashMap<>();
        Set<String> names = new java.util.HashSet<>();
        base.vms().forEach(v -> names.add(v.name()));
        int generated = 0;
        int hostTurn = 0;
        int fullHosts = 0;
        while (count < disks) {
            HostSpec host = hosts.get(hostTurn++ % hosts.size());
            int n = Math.min(GENERATED_DISKS_PER_VM, disks - count);
            double need = n * GENERATED_DISK_GB + DEFAULT_MEMORY_MB / 1024.0;
            List<String> mounted = host.datastores().stream().filter(clustered::contains).toList();
            int start = nextDatastore.getOrDefault(host.name(), 0);
            String chosen = null;
            for (int t = 0; t < mounted.size(); t++) {
                String ds = mounted.get((start + t) % mounted.size());
                if (free.getOrDefault(ds, 0.0) >= need) {
                    chosen = ds;
                    nextDatastore.put(host.name(), (start + t + 1) % mounted.size());
                    break;
                }
            }
            if (chosen == null) {
                if (++fullHosts >= hosts.size()) {
                    throw new IllegalArgumentException("--disks " + disks + ": the datastores of " + base.name()
                            + "'s clusters have room for " + count + " disks (generated ones " + GENERATED_DISK_GB + " GB each)");
                }
                continue;
            }
            fullHosts = 0;
            free.merge(chosen, -need, Double::sum);
            String name;
            do {
                name = String.format(java.util.Locale.ROOT, "%s%05d", GENERATED_PREFIX, generated++);
            } while (names.contains(name));
            List<DiskSpec> vmDisks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                vmDisks.add(new DiskSpec("disk" + i, GENERATED_DISK_GB, chosen, false, null));
            }
            vms.add(new VmSpec(name, host.name(), null, null, vmDisks));
            count += n;
        }
        int made = vms.size() - kept;
        Scenario world = new Scenario(base.name() + "-b4v-" + disks, "B4v: " + base.name() + " with " + disks
                + " disks on its datastore clusters", base.seed(), base.hours(), base.datastoreClusters(), base.datastores(),
                base.hosts(), vms, List.of(), List.of());
        return new Made(world, count, kept, made, leftOut);
    }

    private static double swapGB(VmSpec vm) {
        return (vm.memoryMB() == null ? DEFAULT_MEMORY_MB : vm.memoryMB()) / 1024.0;
    }
}
