package io.opensdrs.balance;

import io.opensdrs.model.DatastoreModel;
import io.opensdrs.model.Workload;
import io.opensdrs.model.pesto.LqSlopeModel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Random small clusters whose initial placement respects every rule (space may be over threshold). */
final class RandomWorlds {

    private RandomWorlds() {
    }

    static ClusterState generate(Random rnd, int index) {
        int nDs = 3 + rnd.nextInt(5);
        List<String> dsIds = new ArrayList<>();
        double[] capacity = new double[nDs];
        double[] used = new double[nDs];
        DatastoreModel[] models = new DatastoreModel[nDs];
        for (int j = 0; j < nDs; j++) {
            dsIds.add("ds" + j);
            capacity[j] = 500 + rnd.nextInt(1500);
            used[j] = capacity[j] * 0.05 * rnd.nextDouble();
            models[j] = rnd.nextDouble() < 0.2 ? null : LqSlopeModel.of(0.1 + 2 * rnd.nextDouble(), 1 + 7 * rnd.nextDouble());
        }
        int nHosts = 2 + rnd.nextInt(3);
        List<HostState> hosts = new ArrayList<>();
        for (int h = 0; h < nHosts; h++) {
            Set<String> sees = new HashSet<>();
            for (String d : dsIds) {
                if (rnd.nextDouble() < 0.75) {
                    sees.add(d);
                }
            }
            if (sees.isEmpty()) {
                sees.add(dsIds.get(rnd.nextInt(nDs)));
            }
            hosts.add(new HostState("h" + h, sees));
        }
        BalancingSettings settings = BalancingSettings.builder()
                .ioLatencyThresholdMs(new double[] {0, 5, 15}[rnd.nextInt(3)])
                .ioImbalanceThresholdMs(new double[] {0, 2, 5}[rnd.nextInt(3)])
                .costBenefitOnBounds(rnd.nextBoolean())
                .maxMovesPerRun(1 + rnd.nextInt(10))
                .clusterAutomation(rnd.nextBoolean() ? AutomationLevel.MANUAL : AutomationLevel.AUTOMATED)
                .spaceThresholdMode(rnd.nextDouble() < 0.8 ? SpaceThresholdMode.UTILIZATION : SpaceThresholdMode.FREE_SPACE)
                .keepVmdksTogetherByDefault(rnd.nextDouble() < 0.7)
                .build();
        int nVms = 4 + rnd.nextInt(11);
        List<VmState> vms = new ArrayList<>();
        Map<String, Set<String>> vmDatastores = new HashMap<>();
        int diskCounter = 0;
        for (int v = 0; v < nVms; v++) {
            HostState host = hosts.get(rnd.nextInt(nHosts));
            List<String> visible = new ArrayList<>(host.datastores());
            visible.sort(null);
            Boolean keep = new Boolean[] {null, Boolean.TRUE, Boolean.FALSE}[rnd.nextInt(3)];
            boolean together = keep != null ? keep : settings.keepVmdksTogetherByDefault();
            int nDisks = 1 + rnd.nextInt(3);
            List<DiskState> disks = new ArrayList<>();
            String shared = visible.get(rnd.nextInt(visible.size()));
            boolean ok = true;
            double[] tentative = used.clone();
            for (int k = 0; k < nDisks; k++) {
                double size = 10 + rnd.nextInt(190);
                String ds = together ? shared : visible.get(rnd.nextInt(visible.size()));
                int j = dsIds.indexOf(ds);
                if (tentative[j] + size > capacity[j] * 0.95) {
                    ok = false;
                    break;
                }
                tentative[j] += size;
                Workload w = new Workload(0.5 + 31.5 * rnd.nextDouble(), new double[] {4, 8, 16, 64}[rnd.nextInt(4)],
                        rnd.nextDouble(), rnd.nextDouble());
                disks.add(new DiskState("d" + (diskCounter++), size, ds, w, 100 * rnd.nextDouble()));
            }
            if (!ok) {
                continue;
            }
            used = tentative;
            VmOverride override = rnd.nextDouble() < 0.8 ? VmOverride.DEFAULT
                    : VmOverride.values()[rnd.nextInt(VmOverride.values().length)];
            // its home (configuration, logs, swap of up to 32 GB of memory) beside its first disk, counted in the datastore's use
            String homeDs = disks.get(0).datastoreId();
            double homeGb = rnd.nextInt(33);
            if (used[dsIds.indexOf(homeDs)] + homeGb > capacity[dsIds.indexOf(homeDs)] * 0.98) {
                homeGb = 0;
            }
            used[dsIds.indexOf(homeDs)] += homeGb;
            VmState vm = new VmState("vm" + v, host.id(), override, keep, disks, homeDs, homeGb);
            vms.add(vm);
            Set<String> dss = new HashSet<>();
            disks.forEach(d -> dss.add(d.datastoreId()));
            vmDatastores.put(vm.id(), dss);
        }
        List<Rule> rules = new ArrayList<>();
        for (VmState vm : vms) {
            if (vm.disks().size() >= 2 && rnd.nextDouble() < 0.4) {
                Set<String> ds = new HashSet<>();
                Set<String> members = new HashSet<>();
                for (DiskState d : vm.disks()) {
                    if (ds.add(d.datastoreId())) {
                        members.add(d.id());
                    }
                }
                if (members.size() >= 2) {
                    rules.add(new Rule.VmdkAntiAffinity("vmdk-aa-" + vm.id(), vm.id(), members));
                }
            }
        }
        for (int r = 0; r < 3; r++) {
            if (rnd.nextBoolean() || vms.size() < 2) {
                continue;
            }
            Set<String> members = new HashSet<>();
            Set<String> taken = new HashSet<>();
            for (int tries = 0; tries < 6; tries++) {
                VmState vm = vms.get(rnd.nextInt(vms.size()));
                Set<String> mine = vmDatastores.get(vm.id());
                if (!members.contains(vm.id()) && java.util.Collections.disjoint(mine, taken)) {
                    members.add(vm.id());
                    taken.addAll(mine);
                }
            }
            if (members.size() >= 2) {
                rules.add(new Rule.VmAntiAffinity("vm-aa-" + r, members));
            }
        }
        List<DatastoreState> datastores = new ArrayList<>();
        for (int j = 0; j < nDs; j++) {
            LatencyPercentiles observed = null;
            if (rnd.nextDouble() < 0.7) {
                double p50 = 2 + 30 * rnd.nextDouble();
                double p70 = p50 * (1 + 0.5 * rnd.nextDouble());
                observed = new LatencyPercentiles(p50, p70, p70 * (1 + rnd.nextDouble()));
            }
            boolean accessible = rnd.nextDouble() > 0.05;
            datastores.add(new DatastoreState(dsIds.get(j), capacity[j], used[j], accessible, MaintenanceState.NORMAL,
                    models[j], observed));
        }
        return new ClusterState("world" + index, datastores, hosts, vms, rules, settings);
    }

    /**
     * The world with rules it breaks, as an administrator makes them over VMs already placed: a
     * VM anti-affinity rule over two VMs sharing a datastore, a VMDK anti-affinity rule over a
     * VM's disks sharing one, a VM whose disks are spread told to keep them together.
     */
    static ClusterState withViolations(Random rnd, ClusterState world) {
        List<Rule> rules = new ArrayList<>(world.rules());
        List<VmState> vms = new ArrayList<>(world.vms());
        Set<String> inRules = new HashSet<>();
        for (Rule r : rules) {
            if (r instanceof Rule.VmdkAntiAffinity) {
                inRules.add(((Rule.VmdkAntiAffinity) r).vmId());
            }
        }
        Map<String, List<String>> vmsOn = new HashMap<>();
        for (VmState vm : vms) {
            vm.disks().stream().map(DiskState::datastoreId).distinct()
                    .forEach(ds -> vmsOn.computeIfAbsent(ds, d -> new ArrayList<>()).add(vm.id()));
        }
        List<String> shared = vmsOn.keySet().stream().sorted().filter(ds -> vmsOn.get(ds).size() >= 2).toList();
        if (!shared.isEmpty() && rnd.nextDouble() < 0.8) {
            List<String> on = vmsOn.get(shared.get(rnd.nextInt(shared.size())));
            rules.add(new Rule.VmAntiAffinity("vm-broken", Set.of(on.get(0), on.get(1 + rnd.nextInt(on.size() - 1)))));
        }
        for (int v = 0; v < vms.size(); v++) {
            VmState vm = vms.get(v);
            if (inRules.contains(vm.id()) || vm.disks().size() < 2) {
                continue;
            }
            boolean together = vm.keepTogether() != null ? vm.keepTogether() : world.settings().keepVmdksTogetherByDefault();
            Set<String> dss = new HashSet<>();
            vm.disks().forEach(d -> dss.add(d.datastoreId()));
            if (!together && dss.size() > 1 && rnd.nextDouble() < 0.5) {
                vms.set(v, new VmState(vm.id(), vm.hostId(), vm.override(), Boolean.TRUE, vm.disks()));
            } else if (!together && dss.size() < vm.disks().size() && rnd.nextDouble() < 0.5) {
                Map<String, List<String>> byDs = new HashMap<>();
                vm.disks().forEach(d -> byDs.computeIfAbsent(d.datastoreId(), x -> new ArrayList<>()).add(d.id()));
                byDs.values().stream().filter(l -> l.size() >= 2).findFirst()
                        .ifPresent(l -> rules.add(new Rule.VmdkAntiAffinity("vmdk-broken-" + vm.id(), vm.id(), Set.copyOf(l))));
            }
        }
        return new ClusterState(world.clusterId() + "-broken", world.datastores(), world.hosts(), vms, rules, world.settings());
    }
}
