package io.opensdrs.balance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Immutable input of every balancing decision: one datastore cluster's datastores (with
 * their models and observed latency), hosts, VMs with their disks, rules and settings.
 * Validated on construction: ids unique, every disk on a known datastore, every rule naming
 * known VMs and disks, every host's datastores known. {@code names} are what the engine's
 * sentences call things by ({@link DisplayNames}); decisions use ids only.
 */
public record ClusterState(String clusterId, List<DatastoreState> datastores, List<HostState> hosts,
                           List<VmState> vms, List<Rule> rules, BalancingSettings settings, DisplayNames names) {

    /** A cluster whose sentences name things by id. */
    public ClusterState(String clusterId, List<DatastoreState> datastores, List<HostState> hosts,
                        List<VmState> vms, List<Rule> rules, BalancingSettings settings) {
        this(clusterId, datastores, hosts, vms, rules, settings, DisplayNames.NONE);
    }

    public ClusterState {
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalArgumentException("clusterId must not be blank");
        }
        datastores = List.copyOf(datastores);
        hosts = List.copyOf(hosts);
        vms = List.copyOf(vms);
        rules = rules == null ? List.of() : List.copyOf(rules);
        settings = settings == null ? BalancingSettings.defaults() : settings;
        names = names == null ? DisplayNames.NONE : names;
        Set<String> dsIds = new HashSet<>();
        for (DatastoreState d : datastores) {
            if (!dsIds.add(d.id())) {
                throw new IllegalArgumentException("duplicate datastore id " + d.id());
            }
        }
        Set<String> hostIds = new HashSet<>();
        for (HostState h : hosts) {
            if (!hostIds.add(h.id())) {
                throw new IllegalArgumentException("duplicate host id " + h.id());
            }
            for (String ds : h.datastores()) {
                if (!dsIds.contains(ds)) {
                    throw new IllegalArgumentException("host " + h.id() + " sees unknown datastore " + ds);
                }
            }
        }
        Set<String> vmIds = new HashSet<>();
        Set<String> diskIds = new HashSet<>();
        for (VmState vm : vms) {
            if (!vmIds.add(vm.id())) {
                throw new IllegalArgumentException("duplicate vm id " + vm.id());
            }
            if (vm.hostId() != null && !hostIds.contains(vm.hostId())) {
                throw new IllegalArgumentException("vm " + vm.id() + " runs on unknown host " + vm.hostId());
            }
            for (DiskState d : vm.disks()) {
                if (!diskIds.add(d.id())) {
                    throw new IllegalArgumentException("duplicate disk id " + d.id());
                }
                if (!dsIds.contains(d.datastoreId())) {
                    throw new IllegalArgumentException("disk " + d.id() + " is on unknown datastore " + d.datastoreId());
                }
            }
        }
        for (Rule r : rules) {
            if (r instanceof Rule.VmdkAntiAffinity) {
                Rule.VmdkAntiAffinity v = (Rule.VmdkAntiAffinity) r;
                VmState vm = vms.stream().filter(x -> x.id().equals(v.vmId())).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("rule " + v.name() + " names unknown vm " + v.vmId()));
                Set<String> own = new HashSet<>();
                vm.disks().forEach(d -> own.add(d.id()));
                if (!own.containsAll(v.diskIds())) {
                    throw new IllegalArgumentException("rule " + v.name() + " names disks that are not vm " + v.vmId() + "'s");
                }
            } else if (r instanceof Rule.VmAntiAffinity) {
                Rule.VmAntiAffinity v = (Rule.VmAntiAffinity) r;
                if (!vmIds.containsAll(v.vmIds())) {
                    throw new IllegalArgumentException("rule " + v.name() + " names unknown vms");
                }
            }
        }
    }

    /** The same cluster with one datastore replaced (by id). */
    public ClusterState withDatastore(DatastoreState replacement) {
        List<DatastoreState> list = new ArrayList<>();
        boolean found = false;
        for (DatastoreState d : datastores) {
            if (d.id().equals(replacement.id())) {
                list.add(replacement);
                found = true;
            } else {
                list.add(d);
            }
        }
        if (!found) {
            list.add(replacement);
        }
        return new ClusterState(clusterId, list, hosts, vms, rules, settings, names);
    }

    public ClusterState withSettings(BalancingSettings s) {
        return new ClusterState(clusterId, datastores, hosts, vms, rules, s, names);
    }

    public ClusterState withVms(List<VmState> newVms) {
        return new ClusterState(clusterId, datastores, hosts, newVms, rules, settings, names);
    }

    public ClusterState withHosts(List<HostState> newHosts) {
        return new ClusterState(clusterId, datastores, newHosts, vms, rules, settings, names);
    }

    /**
     * The VMs whose VMDKs stay together: each VM's own setting, else the cluster's default; a VMDK
     * anti-affinity rule on a VM switches it off for that VM, as in vSphere.
     */
    public Set<String> vmsKeepingTogether() {
        Set<String> apart = new HashSet<>();
        for (Rule r : rules) {
            if (r instanceof Rule.VmdkAntiAffinity a) {
                apart.add(a.vmId());
            }
        }
        Set<String> out = new HashSet<>();
        for (VmState vm : vms) {
            boolean together = vm.keepTogether() != null ? vm.keepTogether() : settings.keepVmdksTogetherByDefault();
            if (together && !apart.contains(vm.id())) {
                out.add(vm.id());
            }
        }
        return out;
    }

    public DatastoreState datastore(String id) {
        return datastores.stream().filter(d -> d.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown datastore " + id));
    }
}
